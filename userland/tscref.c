// SPDX-License-Identifier: MIT
/* What TSC figures are compared with; see tscref.h. */
#include <stdio.h>
#include <string.h>

#include "tsckmsg.h"
#include "tscref.h"
#include "../common/record.h"
#include "../common/refsource.h"
#include "../common/words.h"

/* ------------------------------------------------------------------ */
/* The kernel's figure                                                 */

/* What the lines before "Detected" say the early calibration used (tsc.c:
 * quick_pit_calibrate(), pit_hpet_ptimer_calibrate_cpu(), kvmclock_init()). */
static const struct {
	const char *text, *from, *ref;
} early[] = {
	{ "tsc: Fast TSC calibration using PIT", "the PIT (fast calibration)", "pit" },
	{ "tsc: PIT calibration matches HPET", "the PIT, checked against hpet", "pit" },
	{ "tsc: PIT calibration matches PMTIMER", "the PIT, checked against the PM timer", "pit" },
	{ "tsc: Using PIT calibration value", "the PIT", "pit" },
	{ "tsc: using HPET reference calibration", "hpet", "hpet" },
	{ "tsc: using PMTIMER reference calibration", "the PM timer", "pmtimer" },
	{ "clocksource: kvm-clock:", "the hypervisor, through kvm-clock", "kvm-clock" },
};

struct scan {
	const char *early_from, *early_ref;
	int hpet, acpi_pm;		/* registered clocksources */
	int64_t early_khz;		/* tsc_early_khz= on the command line; 0: none */
	char detected[120], refined[120];
};

/* The last tsc_early_khz= (or tsc-early-khz=) of a command line, as the
 * kernel reads it (common/words.h): its value in kHz, 0 when none. */
static int64_t early_khz(const char *line)
{
	const struct tp_word *w = &tp_words[TPW_TSC_EARLY_KHZ];
	size_t pos = 0;
	struct tp_arg a;
	int64_t v, khz = 0;

	while (tp_line_arg(line, &pos, &a) && !tp_arg_dashes(&a))
		if (a.has_val && tp_param_eq(a.name, a.name_len, w->name, strlen(w->name)))
			khz = tp_word_int(w, a.val, a.val_len, &v) == TP_WE_OK ? v : 0;
	return khz;
}

/* One message s, of line m (tsckmsg.h): the early calibration's lines,
 * the clocksources registered, and the kernel's figures, the first
 * processor line and the last of the others. */
static void scan_line(const char *s, const struct tsc_kmsg *m, struct ktsc *k, struct scan *sc)
{
	for (size_t i = 0; i < sizeof(early) / sizeof(early[0]); i++)
		if (!strncmp(s, early[i].text, strlen(early[i].text))) {
			sc->early_from = early[i].from;
			sc->early_ref = early[i].ref;
		}
	sc->hpet |= !strncmp(s, "clocksource: hpet:", 18);
	sc->acpi_pm |= !strncmp(s, "clocksource: acpi_pm:", 21);
	if (!strncmp(s, "Command line:", 13) || !strncmp(s, "Kernel command line:", 20))
		sc->early_khz = early_khz(strchr(s, ':') + 1);
	if (m->kind != TSC_KMSG_FREQ || m->nfreq != 1)
		return;
	/* cpu_khz first; tsc_khz on its own line only when it differs */
	if ((!strcmp(m->ref[0], "detected") && !k->detected_khz) ||
	    !strcmp(m->ref[0], "detected_tsc")) {
		k->detected_khz = m->khz[0];
		snprintf(sc->detected, sizeof(sc->detected), "%s", s);
	}
	if (!strcmp(m->ref[0], "refined")) {
		k->refined_khz = m->khz[0];
		snprintf(sc->refined, sizeof(sc->refined), "%s", s);
	}
}

/* The refinement's reference: tsc_refine_calibration_work() uses HPET when
 * it is enabled, else the PM timer; the log says only which registered. */
static void refined_from(struct ktsc *k, const struct scan *sc)
{
	k->from = sc->hpet ? "refined against hpet"
		  : sc->acpi_pm ? "refined against the PM timer"
				: "refined against hpet or the PM timer";
	k->ref = sc->hpet ? "hpet" : sc->acpi_pm ? "pmtimer" : 0;
}

int tscref_early_is_user(int64_t early_khz, int64_t stub_hz)
{
	return early_khz > 0 &&
	       (stub_hz <= 0 || early_khz != (int64_t)tp_tsc_early_khz((uint64_t)stub_hz));
}

int tscref_ktsc_parse(const char *log, int64_t stub_hz, struct ktsc *k)
{
	struct scan sc = { 0 };
	char line[1024];	/* printk's longest record: the whole "Command line:" it kept */

	memset(k, 0, sizeof(*k));
	for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : 0) {
		struct tsc_kmsg m;

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		tsc_kmsg_parse(line, &m);
		if (m.msg)
			scan_line(m.msg, &m, k, &sc);
	}
	k->early_khz = sc.early_khz;
	k->early_is_user = tscref_early_is_user(sc.early_khz, stub_hz);
	if (k->refined_khz) {
		k->khz = k->refined_khz;
		refined_from(k, &sc);
		snprintf(k->line, sizeof(k->line), "%s", sc.refined);
	} else if (k->detected_khz) {
		k->khz = k->detected_khz;
		k->from = k->early_is_user ? "tsc_early_khz= on the command line, set by the user "
					     "(not the stub's figure)"
			  : sc.early_khz ? "tsc_early_khz= on the command line (the stub's figure)"
			  : sc.early_from ? sc.early_from
					  : "CPUID 0x15/0x16 or an MSR (no calibration line in the log)";
		/* a typed figure was measured against nothing known */
		k->ref = k->early_is_user ? 0 : sc.early_khz ? "stub"
			 : sc.early_from ? sc.early_ref : "cpuid";
		snprintf(k->line, sizeof(k->line), "%s", sc.detected);
	}
	return k->khz > 0;
}

/* ------------------------------------------------------------------ */
/* Independence                                                        */

/*
 * Every clocksource known, what it counts (tscref_counts()'s words) and,
 * for those that read the CPU's own counter, whose figure scales it into
 * CLOCK_MONOTONIC_RAW: the kernel's (tsc_khz, or on arm64 CNTFRQ_EL0), or
 * the hypervisor's (kvm-clock's and Xen's pvclock, Hyper-V's TSC page),
 * named by the clocksource. The generic timer's clocksources read the
 * counter the suite measures on arm64 (drivers/clocksource/arm_arch_timer.c:
 * the CPU's CNTVCT_EL0, or a memory-mapped frame of the same counter); the
 * others a counter of their own, by drift's name of it.
 */
static const struct clocksource {
	const char *cs, *counts, *scaled_by;
} clocksources[] = {
	{ "tsc", "tsc", "kernel" },
	{ "tsc-early", "tsc", "kernel" },
	{ "kvm-clock", "tsc", "kvm-clock" },
	{ "xen", "tsc", "xen" },
	{ "hyperv_clocksource_tsc_page", "tsc", "hyperv_clocksource_tsc_page" },
	{ "arch_sys_counter", "cntvct", "kernel" },
	{ "arch_mem_counter", "cntvct", "kernel" },
	{ "hpet", "hpet", 0 },
	{ "acpi_pm", "pmtimer", 0 },
	{ "pit", "pit", 0 },
};
/* The platform counters, by drift's and the stub's names. */
static const char *const platform[] = { "hpet", "pmtimer", "pit" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The entry of list equal to s, NULL when none. */
static const char *listed(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return list[i];
	return 0;
}

/* cs's row of clocksources[], NULL when none. */
static const struct clocksource *clocksource(const char *cs)
{
	for (size_t i = 0; cs && i < N(clocksources); i++)
		if (!strcmp(clocksources[i].cs, cs))
			return &clocksources[i];
	return 0;
}

const char *tscref_raw_scaled_by(const char *cs)
{
	const struct clocksource *c = clocksource(cs);

	return c ? c->scaled_by : 0;
}

int tscref_circular_raw(const char *why)
{
	return !strncmp(why, TSCREF_CIRCULAR_RAW, strlen(TSCREF_CIRCULAR_RAW)) ||
	       !strncmp(why, TSCREF_CIRCULAR_RAW_GT, strlen(TSCREF_CIRCULAR_RAW_GT));
}

/* A platform counter: its own, or under a hypervisor or an emulator the host's clock. */
static const char *platform_counts(const struct tscref_run *run, const char *ref, char *how,
				   size_t len)
{
	if (run->guest) {
		snprintf(how, len, "%s: under a hypervisor or an emulator, the host's clock (QEMU "
			 "and KVM count it from the host's own clock, often the host's TSC)", ref);
		return "host";
	}
	snprintf(how, len, "%s: a counter of its own, not the TSC", ref);
	return listed(platform, N(platform), ref);
}

/* CLOCK_MONOTONIC_RAW: what its clocksource counts. */
static const char *raw_counts(const struct tscref_run *run, char *how, size_t len)
{
	const char *cs = run->cs;
	char sub[160];
	const char *src;
	const struct clocksource *c;

	if (!cs || !*cs) {
		snprintf(how, len, "%s", run->cs_why && *run->cs_why ? run->cs_why :
			 "the clocksource could not be read: CLOCK_MONOTONIC_RAW may be the TSC");
		return 0;
	}
	c = clocksource(cs);
	if (c && c->scaled_by && !strcmp(c->counts, "tsc")) {
		snprintf(how, len, TSCREF_CIRCULAR_RAW " (clocksource %s: the TSC scaled by %s figure)",
			 cs, strcmp(c->scaled_by, "kernel") ? "the hypervisor's" : "the kernel's");
		return "tsc";
	}
	if (c && c->scaled_by) {
		snprintf(how, len, TSCREF_CIRCULAR_RAW_GT " (clocksource %s: the counter scaled "
			 "by the kernel's figure, CNTFRQ_EL0)", cs);
		return "cntvct";
	}
	if (c) {
		src = platform_counts(run, c->counts, sub, sizeof(sub));
		snprintf(how, len, "clocksource %s: CLOCK_MONOTONIC_RAW counts %s", cs, sub);
		return src;
	}
	snprintf(how, len, "clocksource %s: not known whether it reads the counter measured", cs);
	return 0;
}

const char *tscref_counts(const struct tscref_run *run, const char *ref, char *how, size_t len)
{
	const char *self = !strcmp(ref, "tsc") ? "tsc" : !strcmp(ref, "cntvct") ? "cntvct" : 0;
	const struct tp_refsource *fw;

	if (self) {
		snprintf(how, len, "%s: the counter measured itself", self);
		return self;
	}
	if (!strcmp(ref, "CLOCK_MONOTONIC_RAW"))
		return raw_counts(run, how, len);
	if (listed(platform, N(platform), ref))
		return platform_counts(run, ref, how, len);
	if ((fw = tp_refsource(ref)) != NULL) {	/* common/refsource.c, as the stub says of it */
		snprintf(how, len, "%s: %s", ref, fw->why);
		return fw->counts;
	}
	if (!strcmp(ref, "kvm-clock")) {
		snprintf(how, len, "kvm-clock: the hypervisor's figure of the host's TSC "
			 "(kvmclock, CPUID 0x40000010), by which the host's clock counts");
		return "host";
	}
	if (!strcmp(ref, "cpuid")) {
		snprintf(how, len, "%s", run->guest ?
			 "cpuid: CPUID 0x15/0x16 under a hypervisor, the host's figure" :
			 "cpuid: CPUID 0x15/0x16, the CPU's claim, measured against no counter");
		return run->guest ? "host" : "cpuid";
	}
	snprintf(how, len, "%s: not known what it counts", ref);
	return 0;
}

int tscref_counter_independent(const struct tscref_run *run, const char *counter, char *why,
			       size_t len)
{
	const char *src = tscref_counts(run, counter, why, len);
	int ind = tp_counts_independent(src);	/* common/refsource.h */

	if (src && ind < 0) {	/* the host's clock */
		char how[224];

		snprintf(how, sizeof(how), "%s", why);
		snprintf(why, len, "not known: %s", how);
	}
	return ind;
}

/* What a source of tscref_counts() is, in words. */
static const char *source_name(const char *src)
{
	static const struct { const char *src, *name; } names[] = {
		{ "host", "the host's clock (under a hypervisor or an emulator)" },
		{ "hpet", "the HPET" }, { "pmtimer", "the PM timer" }, { "pit", "the PIT" },
		{ "cpuid", "CPUID's claim" },
	};

	for (size_t i = 0; i < N(names); i++)
		if (!strcmp(src, names[i].src))
			return names[i].name;
	return src;
}

int tscref_ppm_independent(const struct tscref_run *run, const char *counter,
			   const char *figure_ref, char *why, size_t len)
{
	int ind = tscref_counter_independent(run, counter, why, len);
	char how[224];
	const char *src = tscref_counts(run, counter, how, sizeof(how));
	const char *fig = figure_ref ? tscref_counts(run, figure_ref, how, sizeof(how)) : 0;

	if (!ind)
		return 0;
	if (figure_ref && !strcmp(figure_ref, counter)) {
		snprintf(why, len, "circular: the figure compared with was itself measured against %s",
			 counter);
		return 0;
	}
	if (src && fig && !strcmp(src, fig)) {
		snprintf(why, len, "circular: %s and %s, which the figure compared with was "
			 "measured against, both count %s", counter, figure_ref, source_name(src));
		return 0;
	}
	if (ind > 0 && !figure_ref)
		snprintf(why, len, "%s; not known what the figure compared with was measured against",
			 counter);
	else if (ind > 0 && !fig)
		snprintf(why, len, "%s; not known what %s, which the figure compared with was "
			 "measured against, counts", counter, figure_ref);
	if (ind > 0 && !fig)
		return -1;
	return ind;
}

void tscref_rec(struct tp_rec *r, const char *reference, int ind, const char *why)
{
	tp_rec_str(r, "reference", reference);
	if (ind < 0)
		tp_rec_null(r, "independent");
	else
		tp_rec_bool(r, "independent", ind);
	tp_rec_str(r, "why", why);
}
