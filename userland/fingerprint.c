// SPDX-License-Identifier: MIT
/*
 * The run's fingerprint; see fingerprint.h. Sources are CPUID, /proc/cpuinfo,
 * sysfs (/sys/hypervisor, /sys/devices/system/clocksource, /sys/firmware/efi,
 * /sys/class/dmi/id), uname, the stub's file (stub.tp1), the launcher's word
 * in the SMBIOS OEM strings (timeprobe.accel=), on a host the kernel's own
 * .config (kconfig.c), and the kernel's TSC figure from its log (null with
 * the reason when the log has wrapped past it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpuidle.h"
#include "dmalat.h"
#include "emit.h"
#include "fingerprint.h"
#include "kconfig.h"
#include "kmsg.h"
#include "libcinfo.h"
#include "../common/x86clock.h"
#include "sink.h"
#include "supervise.h"
#include "sysinfo.h"
#include "timeutil.h"
#include "trace_entry.h"
#include "tscref.h"

#define FP_LIMIT_S 20		/* the ptrace checks fork a dozen children */
#define MISSING_MAX 40

/* ------------------------------------------------------------------ */
/* Pure parts                                                          */

void fingerprint_signature(uint32_t eax, struct fingerprint_signature *s)
{
	int family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;

	/* the extended family counts only past 15, the extended model only
	 * for families 6 and 15 (Intel SDM vol. 2A, CPUID, Figure 3-6;
	 * AMD APM vol. 3, CPUID Fn0000_0001_EAX, the same rule) */
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family == 0x6 || family >= 0xf)
		model += ((eax >> 16) & 0xf) << 4;
	s->family = family;
	s->model = model;
	s->stepping = eax & 0xf;
}

/* ------------------------------------------------------------------ */
/* What could not be read, and why                                     */

struct missing {
	size_t n;
	struct {
		char key[40];
		char reason[112];
		int root;	/* the read was refused: root would have it */
	} m[MISSING_MAX];
};

/* KEY's reason in missing; a -errno rc says whether root would have helped. */
static void note_missing(struct missing *ms, const char *key, int rc, const char *why)
{
	if (ms->n == MISSING_MAX)
		return;
	snprintf(ms->m[ms->n].key, sizeof(ms->m[0].key), "%s", key);
	ms->m[ms->n].root = rc == -EACCES || rc == -EPERM;
	if (ms->m[ms->n].root)
		snprintf(ms->m[ms->n].reason, sizeof(ms->m[0].reason), "%s: %s (needs root)", why,
			 strerror(-rc));
	else if (rc < 0)
		snprintf(ms->m[ms->n].reason, sizeof(ms->m[0].reason), "%s: %s", why, strerror(-rc));
	else
		snprintf(ms->m[ms->n].reason, sizeof(ms->m[0].reason), "%s", why);
	ms->n++;
}

/* KEY null in the record, and its reason in missing. */
static void miss(struct tp_rec *r, struct missing *ms, const char *key, int rc, const char *why)
{
	tp_rec_null(r, key);
	note_missing(ms, key, rc, why);
}

static void emit_missing(struct tp_rec *r, const struct missing *ms)
{
	int root = 0;

	tp_rec_obj_begin(r, "missing");
	for (size_t i = 0; i < ms->n; i++) {
		tp_rec_str(r, ms->m[i].key, ms->m[i].reason);
		root |= ms->m[i].root;
	}
	tp_rec_obj_end(r);
	tp_rec_arr_begin(r, "needs_root");
	for (size_t i = 0; root && i < ms->n; i++)
		if (ms->m[i].root)
			tp_rec_str(r, 0, ms->m[i].key);
	tp_rec_arr_end(r);
}

/* A sysfs file as a string field, or null with the reason. */
static void text_field(struct tp_rec *r, struct missing *ms, const char *key, const char *path,
		       const char *why)
{
	char buf[256];
	int rc = sysinfo_read_text(path, buf, sizeof(buf));

	if (rc > 0)
		tp_rec_str(r, key, buf);
	else
		miss(r, ms, key, rc, rc == 0 ? "empty" : why);
}

/* ------------------------------------------------------------------ */
/* The pieces                                                          */

#if defined(__x86_64__) || defined(__i386__)
void fingerprint_cpu_vendor(char out[13])
{
	unsigned int a, b, c, d;

	__cpuid(0, a, b, c, d);
	tp_cpuid_text(b, d, c, out);	/* EBX, EDX, ECX: "Genu" "ineI" "ntel" */
}

static void fingerprint_cpu(struct tp_rec *r, struct missing *ms, const char *cpuinfo)
{
	unsigned int a, b, c, d;
	struct fingerprint_signature s;
	char vendor[13], buf[128];

	fingerprint_cpu_vendor(vendor);
	tp_rec_str(r, "cpu_vendor", vendor);
	__cpuid(1, a, b, c, d);
	fingerprint_signature(a, &s);
	tp_rec_int(r, "cpu_family", s.family);
	tp_rec_int(r, "cpu_model", s.model);
	tp_rec_int(r, "cpu_stepping", s.stepping);
	if (sysinfo_cpuinfo_value(cpuinfo, "model name", buf, sizeof(buf)))
		tp_rec_str(r, "cpu_model_name", buf);
	else
		miss(r, ms, "cpu_model_name", 0, "no model name in /proc/cpuinfo");
	/* arch/x86/kernel/cpu/proc.c prints it only when the kernel read one */
	if (sysinfo_cpuinfo_value(cpuinfo, "microcode", buf, sizeof(buf)))
		tp_rec_str(r, "microcode", buf);
	else
		miss(r, ms, "microcode", 0, "no microcode line in /proc/cpuinfo (revision 0 or not read)");
}

/* CPUID.1:ECX[31], then leaves 0x40000000 (signature, highest leaf) and
 * 0x40000010 (TSC and local APIC timer in kHz: VMware's convention, KVM's
 * and QEMU's when asked for), by the stub's rules (common/x86clock.h). */
static void fingerprint_hv_cpuid(struct tp_rec *r, struct missing *ms)
{
	unsigned int a, b, c, d, hmax;
	char sig[13];

	__cpuid(1, a, b, c, d);
	tp_rec_bool(r, "cpuid_hypervisor_bit", !!(c & (1u << 31)));
	if (!(c & (1u << 31))) {
		miss(r, ms, "hypervisor_vendor", 0, "CPUID.1:ECX[31] clear: no hypervisor says it is there");
		miss(r, ms, "hv_tsc_khz", 0, "no hypervisor leaves");
		miss(r, ms, "hv_apic_khz", 0, "no hypervisor leaves");
		return;
	}
	__cpuid(TP_HV_LEAF_BASE, hmax, b, c, d);
	tp_cpuid_text(b, c, d, sig);
	if (sig[0])
		tp_rec_str(r, "hypervisor_vendor", sig);
	else
		miss(r, ms, "hypervisor_vendor", 0, "CPUID 0x40000000 has no signature");
	if (tp_hv_timing_leaf(hmax)) {
		__cpuid(TP_HV_TIMING_LEAF, a, b, c, d);
		/* 0 kHz is no frequency: as the stub's record, a reason, not a figure */
		if (a)
			tp_rec_uint(r, "hv_tsc_khz", a);
		else
			miss(r, ms, "hv_tsc_khz", 0, "CPUID 0x40000010 offered, but its TSC kHz (EAX) is 0");
		if (b)
			tp_rec_uint(r, "hv_apic_khz", b);
		else
			miss(r, ms, "hv_apic_khz", 0, "CPUID 0x40000010 offered, but its APIC kHz (EBX) is 0");
		return;
	}
	miss(r, ms, "hv_tsc_khz", 0, "CPUID 0x40000010 not offered by the hypervisor");
	miss(r, ms, "hv_apic_khz", 0, "CPUID 0x40000010 not offered by the hypervisor");
}

/* Intel SDM vol. 3B 18.17.1 / AMD APM vol. 3 Fn8000_0007 EDX[8]. */
static void fingerprint_invariant(struct tp_rec *r, struct missing *ms)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0x80000000, 0) < 0x80000007) {
		miss(r, ms, "invariant_tsc", 0, "no CPUID leaf 0x80000007");
		return;
	}
	__cpuid(0x80000007, a, b, c, d);
	tp_rec_bool(r, "invariant_tsc", !!(d & (1u << 8)));
}
#else
void fingerprint_cpu_vendor(char out[13])
{
	out[0] = 0;
}

static void fingerprint_cpu(struct tp_rec *r, struct missing *ms, const char *cpuinfo)
{
	(void)cpuinfo;
	miss(r, ms, "cpu_vendor", 0, "not x86: no CPUID");
}

static void fingerprint_hv_cpuid(struct tp_rec *r, struct missing *ms)
{
	miss(r, ms, "hypervisor_vendor", 0, "not x86: no CPUID");
}

static void fingerprint_invariant(struct tp_rec *r, struct missing *ms)
{
	miss(r, ms, "invariant_tsc", 0, "not x86: no CPUID");
}
#endif

static void fingerprint_tsc_flags(struct tp_rec *r, struct missing *ms, const char *cpuinfo)
{
	static const char *const flags[] = { "constant_tsc", "nonstop_tsc", "tsc_known_freq",
					     "tsc_reliable" };
	char list[4096];

	fingerprint_invariant(r, ms);
	if (!sysinfo_cpuinfo_value(cpuinfo, "flags", list, sizeof(list))) {
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			miss(r, ms, flags[i], 0, "no flags line in /proc/cpuinfo");
		return;
	}
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		tp_rec_bool(r, flags[i], sysinfo_word_in_list(list, flags[i]));
}

/* A clock the kernel refuses (the ALARM clocks without an RTC: EINVAL;
 * EPERM, ENOTSUP): null in enters_kernel, and the reason in missing. */
static int refused(struct missing *ms, int id, const char *name)
{
	struct timespec ts;
	char key[40], why[96];

	if (!clock_gettime(id, &ts))
		return 0;
	snprintf(key, sizeof(key), "enters_kernel.%s", name);
	snprintf(why, sizeof(why), "clock_gettime: %s: the kernel refuses this clock", strerror(errno));
	note_missing(ms, key, 0, why);
	return 1;
}

/* Which clock ids enter the kernel through the vDSO (trace_entry.h). */
static void fingerprint_clocks(struct tp_rec *r, struct missing *ms)
{
	int why = 0, k[TRACE_MAX_CLOCK_ID + 1];

	text_field(r, ms, "clocksource", CLOCKSOURCE_DIR "/current_clocksource", "no clocksource in sysfs");
	text_field(r, ms, "available_clocksources", CLOCKSOURCE_DIR "/available_clocksource",
		   "no clocksource in sysfs");
	trace_clocks_enter_kernel(k);
	tp_rec_obj_begin(r, "enters_kernel");
	for (int id = 0; id <= TRACE_MAX_CLOCK_ID; id++) {
		const char *name = trace_clock_name(id);

		if (!name)
			continue;
		if (refused(ms, id, name))
			tp_rec_null(r, name);
		else if (k[id] >= 0)
			tp_rec_bool(r, name, k[id]);
		else {
			tp_rec_null(r, name);
			why = k[id];
		}
	}
	tp_rec_obj_end(r);
	if (why)
		note_missing(ms, "enters_kernel", why, "a clock could not be checked under ptrace");
}

/*
 * HPET as the firmware offers it (its ACPI table, drivers/acpi/sysfs.c lists
 * every table by name) and as the kernel took it (a registered `hpet`
 * clocksource; `hpet=off` or a broken table leaves none).
 */
static void fingerprint_hpet(struct tp_rec *r, struct missing *ms)
{
	char avail[256];
	int rc;

	if (access("/sys/firmware/acpi/tables", F_OK))
		miss(r, ms, "acpi_hpet_table", -errno, "no /sys/firmware/acpi/tables (no ACPI)");
	else
		tp_rec_bool(r, "acpi_hpet_table", !access("/sys/firmware/acpi/tables/HPET", F_OK));
	rc = sysinfo_read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail));
	if (rc < 0)
		miss(r, ms, "hpet_clocksource", rc, "no clocksource in sysfs");
	else
		tp_rec_bool(r, "hpet_clocksource", sysinfo_word_in_list(avail, "hpet"));
}

/*
 * The CPU's counter (timeutil.h): its name, the frequency the CPU claims for
 * it (arm64's CNTFRQ_EL0; the TSC claims none), ECV, and arm64's CPU identity
 * (MIDR_EL1: implementer, variant, part, revision, as Linux exports it).
 */
static void fingerprint_counter(struct tp_rec *r, struct missing *ms)
{
	tp_rec_str(r, "counter", TP_COUNTER_NAME);
	if (tp_counter_claimed_hz())
		tp_rec_uint(r, "counter_claimed_hz", tp_counter_claimed_hz());
	else
		miss(r, ms, "counter_claimed_hz", 0, "the counter states no frequency (CNTFRQ_EL0 is arm64's)");
	if (tp_counter_ecv() >= 0)
		tp_rec_bool(r, "ecv", tp_counter_ecv());
	else
		miss(r, ms, "ecv", 0, "not arm64: no FEAT_ECV");
	text_field(r, ms, "midr", "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
		   "no MIDR_EL1 in sysfs (not arm64)");
}

static void fingerprint_hypervisor(struct tp_rec *r, struct missing *ms)
{
	fingerprint_hv_cpuid(r, ms);
	/* drivers/xen/sys-hypervisor.c (xen), s390; most kernels have none */
	text_field(r, ms, "hypervisor_sysfs", "/sys/hypervisor/type",
		   "no /sys/hypervisor/type (no Xen; the kernel names no other hypervisor there)");
}

/* The firmware of the stub's file: the UEFI system table's vendor and revisions. */
static void fingerprint_stub_firmware(struct tp_rec *r, struct missing *ms,
				      const struct stub_handoff *st)
{
	static const char *const keys[] = { "firmware_vendor", "firmware_revision",
					    "uefi_revision" };
	char text[32];
	struct tp_buf b;

	if (!st->have_firmware) {
		for (size_t i = 0; i < 3; i++)
			miss(r, ms, keys[i], 0, st->found ? "the stub's file (stub.tp1) gave no firmware"
							  : STUB_NONE);
		return;
	}
	tp_rec_str(r, "firmware_vendor", st->firmware.vendor);
	tp_rec_uint(r, "firmware_revision", st->firmware.revision);
	tp_buf_init(&b, text, sizeof(text));
	tp_fmt_uefi_revision(&b, st->firmware.uefi);
	tp_rec_str(r, "uefi_revision", text);
}

static void fingerprint_firmware(struct tp_rec *r, struct missing *ms,
				 const struct stub_handoff *st)
{
	static const char *const dmi[] = { "sys_vendor", "product_name", "product_version",
					   "board_vendor", "board_name", "bios_vendor",
					   "bios_version", "bios_date", "bios_release" };
	char path[96], key[32];

	fingerprint_stub_firmware(r, ms, st);
	text_field(r, ms, "efi_platform_bits", "/sys/firmware/efi/fw_platform_size",
		   "no /sys/firmware/efi/fw_platform_size (not started through UEFI)");
	int dmi_rc = access("/sys/class/dmi/id", F_OK) ? -errno : 0;

	for (size_t i = 0; i < sizeof(dmi) / sizeof(dmi[0]); i++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", dmi[i]);
		snprintf(key, sizeof(key), "dmi_%s", dmi[i]);
		if (dmi_rc)
			tp_rec_null(r, key);	/* one reason for them all, below */
		else
			text_field(r, ms, key, path, "no such DMI field");
	}
	if (dmi_rc)
		note_missing(ms, "dmi", dmi_rc, "no /sys/class/dmi/id (no SMBIOS table, or CONFIG_DMIID off)");
}

int fingerprint_hz_from_res(int64_t res_ns, int *hz)
{
	/* the coarse clocks advance once a tick: their resolution is
	 * TICK_NSEC (kernel/time/posix-timers.c, LOW_RES_NSEC); HZ 24..10000 */
	if (res_ns < 100000 || res_ns > 1000000000 / 24)
		return 0;
	*hz = (int)((1000000000 + res_ns / 2) / res_ns);
	return 1;
}

/* HZ from CLOCK_REALTIME_COARSE's resolution, when no configuration says. */
static void derived_hz(struct tp_rec *r, struct missing *ms, const char *why)
{
	struct timespec res;
	int hz;

	if (!clock_getres(CLOCK_REALTIME_COARSE, &res) &&
	    fingerprint_hz_from_res((int64_t)res.tv_sec * NS_PER_S + res.tv_nsec, &hz)) {
		tp_rec_int(r, "kernel_hz", hz);
		tp_rec_str(r, "kernel_hz_source", "derived from CLOCK_REALTIME_COARSE resolution");
		return;
	}
	miss(r, ms, "kernel_hz", 0, why);
	miss(r, ms, "kernel_hz_source", 0, "no HZ: no configuration, no tick-long coarse resolution");
}

/* HZ and preemption: the build's kconfig word in the appliance, the
 * kernel's .config on a host, HZ derived from the coarse clocks else. */
static void fingerprint_kernel_build(struct tp_rec *r, struct missing *ms, const struct options *o,
			    const char *release)
{
	char word[32], why[200];
	const char *model, *from;
	char *config;
	int rc, hz;	/* rc: host_config's, said in from */

	if (o->kconfig[0]) {
		if (kconfig_word(o->kconfig, "hz", word, sizeof(word)))
			tp_rec_int(r, "kernel_hz", atoi(word));
		else
			miss(r, ms, "kernel_hz", 0, "kconfig word without hz:");
		tp_rec_str(r, "kernel_hz_source", "kconfig word");
		if (kconfig_word(o->kconfig, "preempt", word, sizeof(word)))
			tp_rec_str(r, "kernel_preempt", word);
		else
			miss(r, ms, "kernel_preempt", 0, "kconfig word without preempt:");
		tp_rec_str(r, "kernel_config_from", "kconfig word");
		return;
	}
	config = kconfig_host(release, &from, &rc);
	snprintf(why, sizeof(why), "no CONFIG_HZ in %s", from);
	if (config && kconfig_hz(config, &hz)) {
		tp_rec_int(r, "kernel_hz", hz);
		tp_rec_str(r, "kernel_hz_source", from);
	} else
		derived_hz(r, ms, config ? why : from);
	snprintf(why, sizeof(why), "no CONFIG_PREEMPT* in %s", from);
	if (config && kconfig_preempt(config, &model))
		tp_rec_str(r, "kernel_preempt", model);
	else
		miss(r, ms, "kernel_preempt", 0, config ? why : from);
	if (config)
		tp_rec_str(r, "kernel_config_from", from);
	free(config);
}

/*
 * The kernel's own TSC figure, the log line it came from and how it was
 * derived; with tsc_early_khz= (either spelling) whose value is not the
 * stub's figure, the user's (tscref.h).
 */
static void fingerprint_kernel_tsc(struct tp_rec *r, struct missing *ms,
				   const struct stub_handoff *st)
{
	static const char *const keys[] = { "kernel_tsc_khz", "kernel_tsc_from", "kernel_tsc_line" };
	char *log = 0;
	size_t len;
	const char *how;
	struct ktsc k;
	int rc = kmsg_read_all(&log, &len, &how);

	if (!rc && tscref_ktsc_parse(log, st->tsc_hz, &k)) {
		tp_rec_int(r, keys[0], k.khz);
		tp_rec_str(r, keys[1], k.from);
		tp_rec_str(r, keys[2], k.line);
		if (k.early_khz)
			tp_rec_str(r, "kernel_tsc_early_khz_by", k.early_is_user ? "user" : "stub");
	} else {
		for (size_t i = 0; i < 3; i++)
			miss(r, ms, keys[i], rc, rc ? how : TSCREF_NO_KERNEL_FIGURE);
	}
	free(log);
}

static void fingerprint_kernel(struct tp_rec *r, struct missing *ms, const struct options *o,
			       const struct stub_handoff *st)
{
	struct utsname u;

	uname(&u);
	tp_rec_str(r, "kernel_release", u.release);
	if (o->variant[0])
		tp_rec_str(r, "kernel_variant", o->variant);
	else
		miss(r, ms, "kernel_variant", 0, "no timeprobe.variant word: not the appliance's kernel");
	fingerprint_kernel_build(r, ms, o, u.release);
	fingerprint_kernel_tsc(r, ms, st);
}

/* The idle driver, governor and deepest state (cpuidle.h), and the latency
 * limit in force (dmalat.h, the run's request and others'): wake-ups depend on them. */
static void fingerprint_idle(struct tp_rec *r, struct missing *ms)
{
	struct cpuidle_info ci;
	int32_t lim;
	int rc;

	cpuidle_read(CPUIDLE_SYS, &ci);
	if (!ci.driver_rc && ci.driver[0])
		tp_rec_str(r, "cpuidle_driver", ci.driver);
	else
		miss(r, ms, "cpuidle_driver", ci.driver_rc, "no cpuidle in sysfs (CONFIG_CPU_IDLE)");
	if (!ci.governor_rc && ci.governor[0])
		tp_rec_str(r, "cpuidle_governor", ci.governor);
	else
		miss(r, ms, "cpuidle_governor", ci.governor_rc, "no cpuidle in sysfs (CONFIG_CPU_IDLE)");
	if ((rc = dmalat_limit_us(&lim)) == 0)
		tp_rec_int(r, "cpu_dma_latency_limit_us", lim);
	else
		miss(r, ms, "cpu_dma_latency_limit_us", rc, "reading " DMALAT_DEV);
	tp_rec_int(r, "cpuidle_states", ci.states);
	if (ci.deepest[0]) {
		tp_rec_str(r, "cpuidle_deepest", ci.deepest);
		tp_rec_int(r, "cpuidle_deepest_exit_us", ci.deepest_exit_us);
	} else {
		const char *why = ci.states ? "every idle state of CPU 0 disabled"
					    : "no idle states on CPU 0: the architecture's default idle (x86: hlt)";

		miss(r, ms, "cpuidle_deepest", 0, why);
		miss(r, ms, "cpuidle_deepest_exit_us", 0, why);
	}
}

/* The C library and its rseq registration (libcinfo.h). */
static void fingerprint_libc(struct tp_rec *r, struct missing *ms)
{
	struct libc_info li;

	libcinfo_read(&li);
	if (li.name) {
		tp_rec_str(r, "libc", li.name);
		tp_rec_str(r, "libc_from", li.from);
	} else
		miss(r, ms, "libc", 0, li.from);
	if (li.rseq >= 0)
		tp_rec_bool(r, "rseq_registered", li.rseq);
	else
		miss(r, ms, "rseq_registered", 0, li.rseq_how);
	tp_rec_str(r, "rseq_how", li.rseq_how);
}

/* Why a figure of the stub is missing: no file, or a file without it. */
static const char *stub_none(const struct stub_handoff *st, const char *what)
{
	return st->found ? what : STUB_NONE;
}

/*
 * What the launcher handed over (timeprobe.accel=, in the SMBIOS OEM
 * strings, smbios.h) and the stub in its file (stub.tp1, stubread.h).
 */
static void fingerprint_handed_over(struct tp_rec *r, struct missing *ms, const struct options *o,
				    const struct stub_handoff *st)
{
	char calib[512];
	struct tp_buf b;

	if (o->accel[0])
		tp_rec_str(r, "accel", o->accel);
	else
		miss(r, ms, "accel", 0, "no launcher said (hardware, another hypervisor, a host run)");
	if (st->tsc_ref[0])
		tp_rec_str(r, "stub_tsc_ref", st->tsc_ref);
	else
		miss(r, ms, "stub_tsc_ref", 0, stub_none(st, "the stub's file (stub.tp1) gave no tsc_ref"));
	tp_buf_init(&b, calib, sizeof(calib));
	stubvals_calib_list(st, &b);
	if (calib[0])
		tp_rec_str(r, "stub_tsc_calib", calib);
	else
		miss(r, ms, "stub_tsc_calib", 0,
		     stub_none(st, "the stub's file (stub.tp1) holds no measured calib record"));
	if (st->tsc_hz)
		tp_rec_int(r, "stub_tsc_hz", st->tsc_hz);
	else
		miss(r, ms, "stub_tsc_hz", 0, stub_none(st, "the stub's file (stub.tp1) gave no tsc_hz"));
}

/* ------------------------------------------------------------------ */
/* The record                                                          */

/* One line for people: what matters most when two runs differ. */
static void fingerprint_human(const struct missing *ms)
{
	char vendor[13], cs[64] = "?", hv[13] = "none";

	fingerprint_cpu_vendor(vendor);
	sysinfo_current_clocksource(cs, sizeof(cs));
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	__cpuid(1, a, b, c, d);
	if (c & (1u << 31)) {
		__cpuid(TP_HV_LEAF_BASE, a, b, c, d);
		tp_cpuid_text(b, c, d, hv);
	}
#endif
	emit_human("fingerprint: CPU %s, hypervisor %s, clocksource %s; %zu fields unknown "
	      "(the record's \"missing\" says why)\n", vendor[0] ? vendor : "?", hv[0] ? hv : "?",
	      cs, ms->n);
}

struct fingerprint_job {
	const struct options *o;
	const struct stub_handoff *st;
	const char *env;
};

static int fingerprint_child(void *arg)
{
	const struct fingerprint_job *j = arg;
	static char cpuinfo[16384];
	static struct tp_rec r;
	static struct missing ms;

	/* one read: seq_file hands out at least the first CPU's block */
	sysinfo_read_text("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo));
	emit_begin(&r, "fingerprint");
	tp_rec_str(&r, "env", j->env);
	fingerprint_cpu(&r, &ms, cpuinfo);
	fingerprint_hypervisor(&r, &ms);
	fingerprint_tsc_flags(&r, &ms, cpuinfo);
	fingerprint_clocks(&r, &ms);
	fingerprint_hpet(&r, &ms);
	fingerprint_counter(&r, &ms);
	fingerprint_firmware(&r, &ms, j->st);
	fingerprint_kernel(&r, &ms, j->o, j->st);
	fingerprint_idle(&r, &ms);
	fingerprint_libc(&r, &ms);
	fingerprint_handed_over(&r, &ms, j->o, j->st);
	emit_missing(&r, &ms);
	emit_end(&r);
	fingerprint_human(&ms);
	return 0;
}

void fingerprint_emit(const struct options *o, const struct stub_handoff *st, const char *env)
{
	struct fingerprint_job j = { o, st, env };
	struct sup_job job = {
		.fn = fingerprint_child, .arg = &j, .line = sink_line,
		.deadline_ns = mono_ns() + FP_LIMIT_S * NS_PER_S,
	};
	struct sup_result sr;
	struct tp_rec r;

	sink_probe_begin();
	supervise_run(&job, &sr);
	if (sr.out == OUTCOME_OK)
		return;
	emit_begin(&r, "error");
	tp_rec_str(&r, "record", "fingerprint");
	tp_rec_str(&r, "reason", supervise_outcome_name(sr.out));
	tp_rec_int(&r, "status", sr.status);
	sink_emit(&r);
	sink_human("fingerprint FAILED: %s\n", supervise_outcome_name(sr.out));
}

/* What the keys of the fingerprint record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key fingerprint_rec_keys[] = {
	{ "fingerprint", "*", TP_KEY_CONTEXT, "what the machine is: CPU, hypervisor, TSC, clocks, firmware, kernel; missing says why a field is null" },
	TP_REC_KEYS_END,
};
