// SPDX-License-Identifier: MIT
/*
 * Probe `tsc`: how fast the TSC runs, by three hands, and whether it is one
 * clock across the CPUs.
 *
 *  1. the stub's calibrations against HPET, ACPI PM timer, PIT and UEFI
 *     Stall, read once from its file (ctx->stub: tsc_hz, tsc_ref and its
 *     `calib` records; docs/stub.md);
 *  2. the kernel's, from its log (arch/x86/kernel/tsc.c: "Detected ... MHz",
 *     "Refined TSC clocksource calibration", "Marking TSC unstable");
 *  3. our own against CLOCK_MONOTONIC_RAW (tsccal.c);
 *
 * then their differences in ppm, the CPU's TSC flags, and a cross-CPU check
 * in the manner of the kernel's check_tsc_warp() (arch/x86/kernel/tsc_sync.c).
 *
 * Shaped like the kernel's: tsc_freq.c the figures and their agreement,
 * tsc_kmsg.c the kernel log (read once), tsc_warp.c the cross-CPU check,
 * sharing tsc_impl.h; here the CPU's flags, the run and the registry's row.
 * tsc_early_khz= comes from the suite's options (struct options), not from
 * /proc/cmdline again.
 */
#include <stdio.h>

#include "../../common/x86clock.h"
#include "../emit.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "../tsccal.h"
#include "tsc_impl.h"

/* x86 only: everything below reads CPUID; elsewhere the run skips at once. */
#if TP_HAVE_TSC
#include <cpuid.h>

/* The kernel's TSC flags (/proc/cpuinfo), each a key; the set ones appended to line. */
static size_t flags_kernel(struct tp_rec *r, char *line, size_t size)
{
	static const char *const names[] = {"constant_tsc", "nonstop_tsc", "tsc_known_freq",
					    "tsc_reliable", "rdtscp",	   "tsc_deadline_timer"};
	size_t len = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int on = sysinfo_cpu_has_flag(names[i]);

		tp_rec_bool(r, names[i], on);
		if (on)
			len += (size_t)snprintf(line + len, size - len, " %s", names[i]);
	}
	return len;
}

/* The invariant TSC bit and CPUID leaves 0x15/0x16; " invariant" appended to line. */
static void flags_cpuid(struct tp_rec *r, char *line, size_t size)
{
	unsigned int a, b, c, d, max_leaf, max_ext, base_mhz = 0;
	int invariant = 0;

	max_leaf = __get_cpuid_max(0, 0);
	max_ext = __get_cpuid_max(0x80000000, 0);
	/* Intel SDM vol. 3B 18.17.1 / AMD APM vol. 3, CPUID Fn8000_0007 EDX[8]:
	 * the TSC runs at a constant rate in every ACPI P-, C- and T-state. */
	if (max_ext >= 0x80000007) {
		__cpuid(0x80000007, a, b, c, d);
		invariant = !!(d & (1u << 8));
	}
	tp_rec_bool(r, "invariant", invariant);
	if (invariant)
		snprintf(line, size, " invariant");
	if (max_leaf >= 0x16) {
		__cpuid_count(0x16, 0, a, b, c, d);
		base_mhz = a & 0xffff;
		if (base_mhz)
			tp_rec_int(r, "cpuid16_base_mhz", base_mhz);
	}
	/* CPUID 0x15: TSC = crystal x EBX / EAX, the crystal from leaf 0x16
	 * when ECX is 0: the stub's tp_cpuid15_hz() (common/x86clock.c), as Linux. */
	if (max_leaf >= 0x15) {
		uint64_t crystal, hz;

		__cpuid_count(0x15, 0, a, b, c, d);
		hz = tp_cpuid15_hz(a, b, c, base_mhz, &crystal);
		if (hz) {
			tp_rec_int(r, "cpuid15_tsc_hz", (int64_t)hz);
			tp_rec_int(r, "cpuid15_crystal_hz", (int64_t)crystal);
			tp_rec_bool(r, "cpuid15_crystal_from_cpuid16", c == 0);
		}
	}
}

/*
 * Hypervisor leaves (CPUID.1:ECX[31]): the vendor into hv[13] ("" on bare
 * metal); 0x40000010 EAX is the TSC in kHz where the hypervisor offers it
 * (VMware's convention, also KVM's with -cpu ...,+invtsc,tsc-frequency=).
 * The rules are the stub's: tp_hv_timing_leaf(), tp_cpuid_text().
 */
static void flags_hypervisor(struct tp_rec *r, char hv[13])
{
	unsigned int a, b, c, d, hmax;

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	__cpuid(TP_HV_LEAF_BASE, hmax, b, c, d);
	tp_cpuid_text(b, c, d, hv);
	tp_rec_str(r, "hypervisor", hv);
	if (tp_hv_timing_leaf(hmax)) {
		__cpuid(TP_HV_TIMING_LEAF, a, b, c, d);
		if (a)
			tp_rec_int(r, "hv_tsc_khz", a);
	}
}

static void flags(void)
{
	char cs[64], avail[256], hv[13] = "", line[256] = "";
	size_t len;
	struct tp_rec r;

	emit_result_begin(&r, P, "tsc flags");
	len = flags_kernel(&r, line, sizeof(line));
	flags_cpuid(&r, line + len, sizeof(line) - len);
	flags_hypervisor(&r, hv);
	sysinfo_current_clocksource(cs, sizeof(cs));
	sysinfo_read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail));
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "available_clocksources", avail);
	emit_end(&r);
	emit_human("\n  flags:%s\n  clocksource: %s (available: %s)%s%s\n", line, cs, avail,
	      hv[0] ? ", hypervisor " : "", hv);
}

enum probe_status tsc_probe_run(struct probe_ctx *ctx)
{
	struct tsc_figures f = {0};
	struct tsc_log log;
	int64_t early_khz = ctx->opt->tsc_early_khz;

	if (!sysinfo_cpu_has_flag("tsc")) {
		emit_skip(P, 0, "no TSC on this CPU");
		return PROBE_SKIPPED;
	}
	emit_human("  %-7s %-20s %17s  %10s\n", "source", "ref", "tsc_hz", "spread_ppm");
	tsc_log_read(&log);
	tsc_derive(&f, &log, early_khz, ctx->stub->tsc_hz);
	tsc_stub_figures(ctx->stub, &f);
	tsc_kernel_figures(&log, early_khz, &f);
	tsc_log_free(&log);
	tsc_user_figures(ctx, &f);
	tsc_agreement(&f);
	flags();
	tsc_sync_check(ctx, f.stub_hz > 0 ? f.stub_hz : f.user_hz);
	return PROBE_OK;
}
#else
enum probe_status tsc_probe_run(struct probe_ctx *ctx)
{
	(void)ctx;
	emit_skip(P, 0, "x86 only");
	return PROBE_SKIPPED;
}
#endif

/* The run's estimate (probe.h): its calibration rounds and the cross-CPU check, measured. */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	return ctx->quick ? probe_expect(ctx, 500, 500) : probe_expect(ctx, 2200, 2300);
}

/* ---- the registry's row (probes/registry.c) ---- */

static const struct probe_opt tsc_opts[] = {
	{ .w = {
		.name = "tsc-calib-rounds", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.lo = 1, .hi = USER_CALIB_ROUNDS_MAX, .def = USER_CALIB_ROUNDS_DEFAULT, .dflt = "5",
		.help = "rounds of the shared user-space TSC calibration (`tsc`, `clocks`, `noise`)",
	  }, .store = &tsccal_rounds },
};

/*
 * Every key of a tsc record (struct probe_key). A disagreement between two
 * sources is signed: nearer zero is better.
 */
static const struct probe_key tsc_keys[] = {
	PKEY_ID("cpu_a", 0, "first CPU of the pair"),
	PKEY_ID("cpu_b", 0, "second CPU of the pair"),
	PKEY_FIG("*_hz", "Hz", PK_NEITHER, "TSC frequency by each source"),
	PKEY_FIG("*_vs_*_ppm", "ppm", PK_ZERO, "disagreement between two sources"),
	PKEY_FIG("*_ppm", "ppm", PK_LOWER, "spread of a source"),
	PKEY_FIG("tsc_early_khz", "kHz", PK_NEITHER, "the kernel's tsc_early_khz="),
	PKEY_CTX("tsc_early_khz_by", 0, "who set tsc_early_khz=: stub (its figure) or user"),
	PKEY_FIG("cpuid1[56]_*", 0, PK_NEITHER, "CPUID's nominal frequency"),
	PKEY_FIG("hv_tsc_khz", "kHz", PK_NEITHER, "the hypervisor's TSC frequency"),
	PKEY_BUDGET("iterations", "count", "handoffs tried"),
	PKEY_FIG("handoffs", "count", PK_NEITHER, "handoffs between the CPUs"),
	PKEY_FIG("*warps", "count", PK_LOWER, "reads that went back across CPUs"),
	PKEY_FIG("max_warp_ns", "ns", PK_LOWER, "largest step back"),
	PKEY_FIG("max_warp_ticks", "ticks", PK_LOWER, "largest step back in TSC ticks",
		 .same_as = "max_warp_ns"),
	PKEY_FIG("boot_warp_ticks", "ticks", PK_LOWER, "offset found at boot"),
	PKEY_BUDGET("duration_ms", "ms", "time measured"),
	PKEY_BUDGET("pairs", "count", "CPU pairs tried"),
	PKEY_FIG("pairs_with_warps", "count", PK_LOWER, "CPU pairs with warps"),
	PKEY_FIG("messages_dropped", "count", PK_LOWER, "kernel messages left out"),
	PKEY_CTX("cpus", "count", "CPUs online"),
	PKEY_CTX("log", 0, "where kernel messages came from"),
	PKEY_CTX("messages", 0, "the kernel's TSC messages"),
	PKEY_CTX("unstable*", 0, "the kernel marked the TSC unstable, and why"),
	PKEY_CTX("kernel_ref", 0, "the kernel's reference"),
	PKEY_CTX("*_is_early", 0, "the kernel took tsc_early_khz="),
	PKEY_CTX("detail", 0, "free text"),
	PKEY_CTX("by_construction", 0, "pairs whose figures share an origin"),
	PKEY_CTX("constant_tsc", 0, "CPU flag"),
	PKEY_CTX("nonstop_tsc", 0, "CPU flag"),
	PKEY_CTX("tsc_known_freq", 0, "CPU flag"),
	PKEY_CTX("tsc_reliable", 0, "CPU flag"),
	PKEY_CTX("rdtscp", 0, "CPU flag"),
	PKEY_CTX("tsc_deadline_timer", 0, "CPU flag"),
	PKEY_CTX("invariant", 0, "invariant TSC (CPUID 0x80000007)"),
	PKEY_CTX("hypervisor", 0, "the hypervisor's signature"),
	PKEY_CTX("clocksource", 0, "the kernel's clocksource"),
	PKEY_CTX("available_clocksources", 0, "the kernel's choice"),
};

/*
 * The verdict's items of the TSC (struct probe_verdict; docs/verdict.md
 * gives each bound's source): the invariant bit, as the fingerprint read
 * it from CPUID, and the stub's figure against the kernel's, which cannot
 * be judged when the kernel took the stub's (by_construction names it).
 */
static const struct probe_verdict tsc_verdict[] = {
	{ .lim = { "tsc_invariant", "TSC invariant (CPUID 0x80000007)", 0, 0, 0,
		   "a TSC that changes rate or stops is no clock (kernel tsc.c)" },
	  .place = 1, .record = "fingerprint", .key = "invariant_tsc",
	  .from = "the fingerprint's CPUID",
	  .absent = TP_HAVE_TSC ? NULL : "x86's CPUID bit: arm64's generic timer has none, the "
		    "architecture requires its system counter to run at a constant rate" },
	{ .lim = { "tsc_stub_vs_kernel_ppm", "counter: stub vs kernel frequency", "ppm", 15, 200,
		   "RFC 5905 tolerance 15 ppm; watchdog skew 100 us per 0.5 s" },
	  .place = 2, .key = "stub_vs_kernel_ppm", .one_origin_key = "by_construction" },
};

/*
 * What tsc's records tell the tsc_readiness record (struct probe_fact,
 * struct probe_reason; docs/readiness.md gives each bound's source at
 * length): the stub's calibration against each reference as the probe
 * hands it on (its calib records), the stub's and CPUID 0x15's
 * frequencies, the stub's against the kernel's, the kernel's own warp
 * test; and the invariant bit as the fingerprint read it.
 */
static const struct probe_fact tsc_facts[] = {
	{ .fact = RF_INVARIANT, .record = "fingerprint", .key = "invariant_tsc" },
	{ .fact = RF_CLOCK_PREOS, .record = "calib", .key = "tsc_hz",
	  .where = { RW_IS("source", "stub") }, .name_key = "ref", .unc_key = "spread_ppm" },
	{ .fact = RF_STUB_VS_KERNEL_PPM, .key = "stub_vs_kernel_ppm",
	  .one_origin_key = "by_construction" },
	{ .fact = RF_STUB_HZ, .key = "stub_hz" },
	{ .fact = RF_CPUID15_HZ, .key = "cpuid15_tsc_hz" },
	{ .fact = RF_WARPS, .key = "pairs_with_warps" },
};

#define WATCHDOG_SKEW "WATCHDOG_MAX_SKEW 100 us per 0.5 s (kernel/time/clocksource.c)"

static const struct probe_reason tsc_reasons[] = {
	{ .rule = { "invariant_tsc", "TSC invariant (CPUID 0x80000007 EDX bit 8)", 0, 1,
		    RD_REQUIRED,
		    "without it the TSC may change rate or stop (arch/x86/kernel/tsc.c)", 0 },
	  .place = 1, .fact = RF_INVARIANT, .from = "fingerprint: invariant_tsc",
	  .absent = "the fingerprint did not say", .no_tsc = "the architecture",
	  .no_tsc_passes = 1 },
	{ .rule = { "stub_vs_kernel_ppm", "stub's frequency against the kernel's", "ppm", 200,
		    RD_CHECKED, WATCHDOG_SKEW, 0 },
	  .place = 2, .fact = RF_STUB_VS_KERNEL_PPM, .from = "tsc: tsc agreement",
	  .absent = "no stub and kernel figures (probe tsc)",
	  .one_origin = "one origin: the kernel took the stub's figure" },
	{ .rule = { "stub_vs_cpuid15_ppm", "stub's frequency against CPUID 0x15", "ppm", 200,
		    RD_CHECKED, WATCHDOG_SKEW, 0 },
	  .place = 3, .fact = RF_STUB_HZ, .vs = RF_CPUID15_HZ, .from = "tsc: tsc flags",
	  .absent = "no stub figure", .absent_vs = "CPUID 0x15 gives no frequency here" },
	{ .rule = { "warps", "CPU pairs where the TSC went back (the kernel's own test)", "count",
		    0, RD_CHECKED,
		    "check_tsc_warp() marks the TSC unstable on one (x86 tsc_sync.c)", 0 },
	  .place = 6, .fact = RF_WARPS, .from = "tsc: tsc sync",
	  .absent = "no tsc sync record (probe tsc)" },
};

const struct probe tsc_probe = {
	.name = "tsc", .summary = "TSC frequency by stub, kernel and user space; flags; cross-CPU sync",
	.run = tsc_probe_run, .limit_quick_s = 30, .limit_full_s = 120, .expect_ms = expect_ms,
	PROBE_OPTS(tsc_opts), PROBE_FIGURES("max_warp_ns", "tsc_hz"),
	PROBE_KEYS(tsc_keys),
	PROBE_VERDICT(tsc_verdict),
	PROBE_FACTS(tsc_facts),
	PROBE_REASONS(tsc_reasons),
	.rounds = { .whole = "figures the stub and the kernel measured once, and one warp "
			    "check over every CPU pair" },
};
