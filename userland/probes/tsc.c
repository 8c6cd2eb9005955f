// SPDX-License-Identifier: MIT
/*
 * Probe `tsc`: how fast the TSC runs, by three hands, and whether it is one
 * clock across the CPUs.
 *
 *  1. the stub's calibrations against HPET, ACPI PM timer, PIT, UEFI Stall,
 *     CPUID 0x15/0x16 and leaf 0x40000010, handed over on the command line
 *     (timeprobe.tsc_hz, tsc_ref, tsc_calib; docs/stub.md);
 *  2. the kernel's, from its log (arch/x86/kernel/tsc.c: "Detected ... MHz",
 *     "Refined TSC clocksource calibration", "Marking TSC unstable");
 *  3. our own against CLOCK_MONOTONIC_RAW (tsccal.c);
 *
 * then their differences in ppm, the CPU's TSC flags, and a cross-CPU check
 * in the manner of the kernel's check_tsc_warp() (arch/x86/kernel/tsc_sync.c).
 */
#include <cpuid.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/handoff.h"
#include "../../common/words.h"
#include "../../common/x86clock.h"
#include "../emit.h"
#include "../kmsg.h"
#include "../probe.h"
#include "../stats.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "tsc.h"

#define P "tsc"
#define KMSG_NOTES_MAX 16
#define SYNC_PAIRS_QUICK 8
#define SYNC_PAIRS_FULL 32


/* ------------------------------------------------------------------ */
/* Pure parts (tsc.h)                                                  */

static void calib_error(struct tsc_calib_entry *e, const char *why)
{
	snprintf(e->error, sizeof(e->error), "%s", why);
	e->ref[0] = 0;
	e->hz = 0;
	e->spread_ppm = 0;
}

/* One "ref:hz:spread_ppm" of LEN bytes at P, by the one parser (common/handoff.c). */
static void calib_one(const char *p, size_t len, struct tsc_calib_entry *e)
{
	struct tp_calib_item it;
	const char *why;

	memset(e, 0, sizeof(*e));
	snprintf(e->text, sizeof(e->text), "%.*s",
		 (int)(len < sizeof(e->text) - 1 ? len : sizeof(e->text) - 1), p);
	why = tp_calib_item_parse(p, len, &it);
	if (why)
		return calib_error(e, why);
	snprintf(e->ref, sizeof(e->ref), "%s", it.ref);
	e->hz = it.hz;
	e->spread_ppm = (double)it.spread_mppm / 1000;
}

size_t tsc_calib_parse(const char *s, struct tsc_calib_entry *e, size_t max)
{
	size_t n = 0;

	if (!s || !max)
		return 0;
	while (*s) {
		size_t len = strcspn(s, ",");

		if (n == max) {
			calib_error(&e[max - 1], "too many entries, the rest dropped");
			break;
		}
		if (len) /* tolerate ",," and a trailing comma */
			calib_one(s, len, &e[n++]);
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

/* "2893.012" (the kernel's %lu.%03lu) -> 2893012 kHz; -1 if not that form. */
static int64_t parse_mhz3(const char *p)
{
	int64_t mhz = 0, frac = 0;
	int digits = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		mhz = mhz * 10 + (*p - '0');
	if (*p++ != '.')
		return -1;
	for (; isdigit((unsigned char)*p) && digits < 3; p++, digits++)
		frac = frac * 10 + (*p - '0');
	if (digits != 3)
		return -1;
	return mhz * 1000 + frac;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* What follows PREFIX in S, or NULL. */
static const char *after(const char *s, const char *prefix)
{
	return starts(s, prefix) ? s + strlen(prefix) : 0;
}

static void set_reason(struct tsc_kmsg *m, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (n >= sizeof(m->reason))
		n = sizeof(m->reason) - 1;
	memcpy(m->reason, s, n);
	m->reason[n] = 0;
}

/* One figure, ref at khz: a TSC_KMSG_FREQ. */
static enum tsc_kmsg_kind kmsg_figure(struct tsc_kmsg *m, const char *ref, int64_t khz)
{
	m->ref[0] = ref;
	m->khz[0] = khz;
	m->nfreq = 1;
	return TSC_KMSG_FREQ;
}

/* "PIT calibration deviates from HPET: <pit kHz> <ref kHz>" (after the prefix). */
static enum tsc_kmsg_kind kmsg_pit_deviation(const char *q, struct tsc_kmsg *m)
{
	long long a, b;
	char refname[16];

	if (sscanf(q, "%15[A-Z]: %lld %lld", refname, &a, &b) != 3)
		return TSC_KMSG_NOTE;
	m->ref[0] = "pit";
	m->khz[0] = a;
	m->ref[1] = !strcmp(refname, "HPET") ? "hpet" : "pmtimer";
	m->khz[1] = b;
	m->nfreq = 2;
	return TSC_KMSG_FREQ;
}

/* tsc.c's calibration lines (pr_fmt "tsc: "); TSC_KMSG_NONE when s is none. */
static enum tsc_kmsg_kind kmsg_freq(const char *s, struct tsc_kmsg *m)
{
	const char *p, *q;
	int64_t khz;

	if ((q = after(s, "tsc: Detected ")) && (khz = parse_mhz3(q)) >= 0) {
		p = strstr(s, " MHz ");
		/* cpu_khz: equals tsc_khz unless the next line says otherwise */
		if (p && starts(p, " MHz processor"))
			return kmsg_figure(m, "detected", khz);
		/* tsc_khz, printed when it differs from cpu_khz */
		if (p && starts(p, " MHz TSC"))
			return kmsg_figure(m, "detected_tsc", khz);
		return TSC_KMSG_NOTE;
	}
	if ((q = after(s, "tsc: Refined TSC clocksource calibration: ")) &&
	    (khz = parse_mhz3(q)) >= 0) /* tsc_refine_calibration_work(), against HPET/PM timer */
		return kmsg_figure(m, "refined", khz);
	if ((q = after(s, "tsc: PIT calibration deviates from ")))
		return kmsg_pit_deviation(q, m);
	return TSC_KMSG_NONE;
}

/* The kernel giving up on the TSC, or a warp; TSC_KMSG_NONE when s is neither. */
static enum tsc_kmsg_kind kmsg_unstable(const char *s, struct tsc_kmsg *m)
{
	const char *p, *q;

	if ((q = after(s, "tsc: Marking TSC unstable due to "))) {
		set_reason(m, q);
		return TSC_KMSG_UNSTABLE;
	}
	/* clocksource.c's watchdog: "timekeeping watchdog on CPU1: Marking
	 * clocksource 'tsc' as unstable because the skew is too large:" */
	if (starts(s, "clocksource: timekeeping watchdog on CPU") &&
	    strstr(s, "'tsc' as unstable")) {
		set_reason(m, "clocksource watchdog: skew too large");
		return TSC_KMSG_UNSTABLE;
	}
	if (starts(s, "clocksource: timekeeping watchdog on CPU") &&
	    strstr(s, ": tsc read-back delay") && strstr(s, "marking unstable")) {
		set_reason(m, "clocksource watchdog: read-back delay");
		return TSC_KMSG_UNSTABLE;
	}
	/* tsc_sync.c: "Measured %Ld cycles TSC warp between CPUs, turning off TSC clock." */
	if ((p = strstr(s, "Measured ")) && strstr(s, " cycles TSC warp between CPUs")) {
		m->warp_ticks = strtoll(p + 9, 0, 10);
		set_reason(m, s);
		return TSC_KMSG_WARP;
	}
	return TSC_KMSG_NONE;
}

enum tsc_kmsg_kind tsc_kmsg_parse(const char *line, struct tsc_kmsg *m)
{
	const char *s;
	enum tsc_kmsg_kind kind;

	memset(m, 0, sizeof(*m));
	s = kmsg_message(line, &m->usec);
	m->msg = s;
	if (!s)
		return m->kind = TSC_KMSG_NONE;
	kind = kmsg_freq(s, m);
	if (kind == TSC_KMSG_NONE)
		kind = kmsg_unstable(s, m);
	if (kind == TSC_KMSG_NONE && (starts(s, "tsc: ") || strstr(s, "TSC") ||
				      starts(s, "clocksource: Switched to clocksource")))
		kind = TSC_KMSG_NOTE;
	return m->kind = kind;
}

int64_t cmdline_int(const char *cmdline, const char *key)
{
	size_t klen = strlen(key);
	int64_t v = -1;

	/* the last one wins, as in the kernel's parse_args() */
	for (const char *p = cmdline; p && *p; p += strcspn(p, " \t\n")) {
		char *end;
		long long x;

		p += strspn(p, " \t\n");
		if (strncmp(p, key, klen) || p[klen] != '=')
			continue;
		errno = 0;
		x = strtoll(p + klen + 1, &end, 10);
		v = (!errno && end != p + klen + 1 && (!*end || isspace((unsigned char)*end))) ? x
											       : -1;
	}
	return v;
}

double ppm_offset(double a, double b)
{
	if (!(a > 0) || !(b > 0))
		return NAN;
	return (a - b) / b * 1e6;
}

double spread_ppm(double *v, size_t n, double *median_out)
{
	double med = median(v, n); /* sorts v */

	if (median_out)
		*median_out = med;
	if (n < 2 || !(med > 0))
		return 0;
	return (v[n - 1] - v[0]) / med * 1e6;
}

const char *const tsc_fig_name[TSC_FIGS] = {"stub", "kernel", "user"};

void tsc_derivation(const struct tsc_deps_in *in, const char *derived[TSC_FIGS])
{
	const char *cs = in->clocksource ? in->clocksource : "";

	derived[TSC_FIG_STUB] = 0;
	derived[TSC_FIG_KERNEL] = in->kernel_is_early ? "stub" : in->kvm_clock ? "kvm-clock" : 0;
	derived[TSC_FIG_USER] = !strcmp(cs, "tsc")	   ? "kernel"
				: !strcmp(cs, "kvm-clock") ? "kvm-clock"
							   : 0;
}

const char *tsc_origin(const char *const derived[TSC_FIGS], int i)
{
	/* at most TSC_FIGS steps: user -> kernel -> stub */
	for (int step = 0; step < TSC_FIGS && derived[i]; step++) {
		int next = -1;

		for (int j = 0; j < TSC_FIGS; j++)
			if (!strcmp(derived[i], tsc_fig_name[j]))
				next = j;
		if (next < 0)
			return derived[i]; /* outside: "kvm-clock" */
		i = next;
	}
	return tsc_fig_name[i];
}

int tsc_by_construction(const char *const derived[TSC_FIGS], int a, int b)
{
	return !strcmp(tsc_origin(derived, a), tsc_origin(derived, b));
}

/* ------------------------------------------------------------------ */
/* Stub, kernel and user figures                                       */

struct figures {
	double stub_hz, kernel_hz, user_hz;
	const char *stub_ref, *kernel_ref;
	int kernel_is_early; /* the kernel's figure is tsc_early_khz=, i.e. the stub's */
	const char *derived[TSC_FIGS]; /* tsc_derivation() */
};

/* Hz as an integer: "%.9g" would round a 10-digit frequency. */
static void rec_hz(struct tp_rec *r, const char *key, double hz)
{
	if (hz > 0 && isfinite(hz))
		tp_rec_int(r, key, llround(hz));
	else
		tp_rec_null(r, key);
}

/* "derived_from" when figure FIG was taken from another, and always
 * "independent_of": the figures that do not share its origin. */
static void rec_deps(struct tp_rec *r, const struct figures *f, int fig)
{
	if (f->derived[fig])
		tp_rec_str(r, "derived_from", f->derived[fig]);
	tp_rec_arr_begin(r, "independent_of");
	for (int j = 0; j < TSC_FIGS; j++)
		if (j != fig && !tsc_by_construction(f->derived, fig, j))
			tp_rec_str(r, 0, tsc_fig_name[j]);
	tp_rec_arr_end(r);
}

static void emit_calib(const struct figures *f, const char *ref, double hz, double spread,
		       int chosen)
{
	struct tp_rec r;

	emit_begin(&r, "calib");
	tp_rec_str(&r, "probe", P);
	tp_rec_str(&r, "source", "stub");
	tp_rec_str(&r, "ref", ref);
	rec_hz(&r, "tsc_hz", hz);
	rec_exact(&r, "spread_ppm", spread);
	if (chosen >= 0)
		tp_rec_bool(&r, "chosen", chosen);
	rec_deps(&r, f, TSC_FIG_STUB);
	emit_end(&r);
}

static void human_calib(const char *source, const char *ref, double hz, double spread)
{
	if (isfinite(spread))
		human("  %-7s %-20s %14.0f Hz  %10.1f\n", source, ref, hz, spread);
	else
		human("  %-7s %-20s %14.0f Hz  %10s\n", source, ref, hz, "-");
}

static void stub_figures(const struct options *o, struct figures *f)
{
	static struct tsc_calib_entry e[TSC_CALIB_MAX];
	size_t n = tsc_calib_parse(o->tsc_calib, e, TSC_CALIB_MAX);
	const char *chosen = o->tsc_ref[0] ? o->tsc_ref : 0;
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		char why[160];
		int is_chosen;

		if (e[i].error[0]) {
			snprintf(why, sizeof(why), "timeprobe.tsc_calib entry \"%s\": %s",
				 e[i].text, e[i].error);
			emit_error(P, "stub calibration", why);
			continue;
		}
		is_chosen = chosen && !strcmp(chosen, e[i].ref);
		emit_calib(f, e[i].ref, (double)e[i].hz, e[i].spread_ppm, is_chosen);
		human_calib("stub", e[i].ref, (double)e[i].hz, e[i].spread_ppm);
		if (is_chosen || (!f->stub_hz && !chosen)) {
			f->stub_hz = (double)e[i].hz;
			f->stub_ref = e[i].ref;
		}
		any = 1;
	}
	/* timeprobe.tsc_hz is the figure the stub chose; it wins over the list */
	if (o->tsc_hz > 0) {
		f->stub_hz = (double)o->tsc_hz;
		f->stub_ref = chosen ? chosen : "unknown";
		if (!any) {
			emit_calib(f, f->stub_ref, f->stub_hz, NAN, 1);
			human_calib("stub", f->stub_ref, f->stub_hz, NAN);
		}
		any = 1;
	}
	if (!any)
		emit_skip(P, "stub calibration",
			  o->tsc_calib[0] ? "timeprobe.tsc_calib held no valid entry"
					  : "no timeprobe.tsc_hz/tsc_calib on the command line "
					    "(not booted through the stub)");
}

/* The kernel's final word: refined, else the TSC line, else the processor
 * line (printed alone when cpu_khz == tsc_khz). */
static void kernel_final(int64_t khz_refined, int64_t khz_tsc, int64_t khz_detected,
			 struct figures *f)
{
	if (khz_refined) {
		f->kernel_hz = (double)khz_refined * 1000;
		f->kernel_ref = "refined";
	} else if (khz_tsc) {
		f->kernel_hz = (double)khz_tsc * 1000;
		f->kernel_ref = "detected_tsc";
	} else if (khz_detected) {
		f->kernel_hz = (double)khz_detected * 1000;
		f->kernel_ref = "detected";
	}
}

/*
 * Before any record: which figures will be derived from which
 * (tsc_derivation()), so every calib record can say so. Reads the kernel's
 * final figure as kernel_figures() will, tsc_early_khz= from /proc/cmdline,
 * and the clocksources.
 */
static void derivation_scan(struct figures *f)
{
	static char cs[64], avail[256];
	char *text = 0, *line, *save = 0, cmdline[4096];
	const char *how;
	size_t len;
	int64_t refined = 0, detected_tsc = 0, detected = 0, early_khz = -1;
	struct figures k = {0};
	struct tsc_deps_in in = {0};

	if (!kmsg_read_all(&text, &len, &how)) {
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(0, "\n", &save)) {
			struct tsc_kmsg m;

			if (tsc_kmsg_parse(line, &m) != TSC_KMSG_FREQ)
				continue;
			if (!strcmp(m.ref[0], "refined"))
				refined = m.khz[0];
			else if (!strcmp(m.ref[0], "detected_tsc"))
				detected_tsc = m.khz[0];
			else if (!strcmp(m.ref[0], "detected"))
				detected = m.khz[0];
		}
		free(text);
	}
	kernel_final(refined, detected_tsc, detected, &k);
	if (read_text("/proc/cmdline", cmdline, sizeof(cmdline)) > 0)
		early_khz = cmdline_int(cmdline, "tsc_early_khz");
	in.kernel_is_early = early_khz > 0 && k.kernel_hz == (double)early_khz * 1000;
	if (read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail)) > 0)
		in.kvm_clock = strstr(avail, "kvm-clock") != 0;
	if (current_clocksource(cs, sizeof(cs)) >= 0)
		in.clocksource = cs;
	tsc_derivation(&in, f->derived);
}

/* What the kernel log said about the TSC. */
struct kmsg_seen {
	char notes[KMSG_NOTES_MAX][120];
	size_t nnotes, dropped;
	int64_t warp, khz_detected, khz_tsc, khz_refined;
	char unstable[96];	/* "": not marked unstable */
	int nfreq;
};

/* One "tsc: Detected/Refined ..." line: a calib record per figure in it. */
static void kernel_freq(const struct tsc_kmsg *m, struct figures *f, struct kmsg_seen *k)
{
	struct tp_rec r;

	for (size_t i = 0; i < m->nfreq; i++) {
		emit_begin(&r, "calib");
		tp_rec_str(&r, "probe", P);
		tp_rec_str(&r, "source", "kernel");
		tp_rec_str(&r, "ref", m->ref[i]);
		tp_rec_int(&r, "tsc_hz", m->khz[i] * 1000);
		tp_rec_int(&r, "resolution_hz", 1000);
		if (m->usec >= 0)
			tp_rec_int(&r, "log_us", m->usec);
		tp_rec_strn(&r, "message", m->msg, 100);
		rec_deps(&r, f, TSC_FIG_KERNEL);
		emit_end(&r);
		human_calib("kernel", m->ref[i], (double)m->khz[i] * 1000, NAN);
		k->nfreq++;
	}
	/* a later line of a kind wins: a re-calibration replaces the first */
	if (!strcmp(m->ref[0], "detected"))
		k->khz_detected = m->khz[0];
	else if (!strcmp(m->ref[0], "detected_tsc"))
		k->khz_tsc = m->khz[0];
	else if (!strcmp(m->ref[0], "refined"))
		k->khz_refined = m->khz[0];
}

/* Every line of the log through tsc_kmsg_parse(). */
static void kernel_scan(char *text, struct figures *f, struct kmsg_seen *k)
{
	char *line, *save = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(0, "\n", &save)) {
		struct tsc_kmsg m;

		switch (tsc_kmsg_parse(line, &m)) {
		case TSC_KMSG_FREQ:
			kernel_freq(&m, f, k);
			break;
		case TSC_KMSG_UNSTABLE:
		case TSC_KMSG_WARP:
		case TSC_KMSG_NOTE:
			if (m.kind == TSC_KMSG_UNSTABLE)
				snprintf(k->unstable, sizeof(k->unstable), "%s", m.reason);
			if (m.kind == TSC_KMSG_WARP)
				k->warp = m.warp_ticks;
			/* every one of them is also shown as it was written */
			if (k->nnotes < KMSG_NOTES_MAX)
				snprintf(k->notes[k->nnotes++], sizeof(k->notes[0]), "%s", m.msg);
			else
				k->dropped++;
			break;
		case TSC_KMSG_NONE:
			break;
		}
	}
}

/* The "kernel tsc messages" record and its lines. */
static void kernel_summary(struct figures *f, const struct kmsg_seen *k, const char *how,
			   int64_t early_khz)
{
	struct tp_rec r;

	emit_result_begin(&r, P, "kernel tsc messages");
	tp_rec_str(&r, "log", how);
	tp_rec_bool(&r, "unstable", k->unstable[0] != 0);
	if (k->unstable[0])
		tp_rec_str(&r, "unstable_reason", k->unstable);
	if (k->warp >= 0)
		tp_rec_int(&r, "boot_warp_ticks", k->warp);
	if (f->kernel_ref)
		tp_rec_str(&r, "kernel_ref", f->kernel_ref);
	if (early_khz > 0) {
		f->kernel_is_early = f->kernel_hz == (double)early_khz * 1000;
		tp_rec_int(&r, "tsc_early_khz", early_khz);
		tp_rec_bool(&r, "detected_is_early",
			    early_khz == (k->khz_tsc ? k->khz_tsc : k->khz_detected));
	}
	tp_rec_arr_begin(&r, "messages");
	for (size_t i = 0; i < k->nnotes; i++)
		tp_rec_str(&r, 0, k->notes[i]);
	tp_rec_arr_end(&r);
	if (k->dropped)
		tp_rec_uint(&r, "messages_dropped", k->dropped);
	emit_end(&r);
	if (k->unstable[0])
		human("  kernel marked the TSC unstable: %s\n", k->unstable);
	if (k->warp >= 0)
		human("  kernel measured a %lld-tick TSC warp at boot\n", (long long)k->warp);
	if (early_khz > 0)
		human("  kernel was given tsc_early_khz=%lld: its \"detected\" figure is the "
		      "stub's\n",
		      (long long)early_khz);
}

static void kernel_figures(struct figures *f)
{
	static struct kmsg_seen k;
	char *text = 0, cmdline[4096];
	const char *how;
	size_t len;
	int64_t early_khz = -1;
	int rc = kmsg_read_all(&text, &len, &how);

	if (rc) {
		char why[96];

		snprintf(why, sizeof(why), "kernel log unreadable: %s", strerror(-rc));
		emit_skip(P, "kernel calibration", why);
		return;
	}
	memset(&k, 0, sizeof(k));
	k.warp = -1;
	kernel_scan(text, f, &k);
	free(text);

	kernel_final(k.khz_refined, k.khz_tsc, k.khz_detected, f);
	/* With tsc_early_khz= the kernel's "Detected" figure is the stub's,
	 * not a measurement (determine_cpu_tsc_frequencies()). */
	if (read_text("/proc/cmdline", cmdline, sizeof(cmdline)) > 0)
		early_khz = cmdline_int(cmdline, tp_words[TPW_TSC_EARLY_KHZ].name);
	if (!k.nfreq)
		emit_skip(P, "kernel calibration",
			  "no \"tsc: Detected/Refined\" line in the kernel log (ring buffer "
			  "wrapped, or no TSC calibration)");
	kernel_summary(f, &k, how, early_khz);
}

/* Our own calibration: the one every probe shares (tsccal.h), pinned to
 * the CPU we are on, failed rounds left out and counted. */
static void user_figures(struct probe_ctx *ctx, struct figures *f)
{
	int64_t round_ms = ctx->quick ? USER_CALIB_QUICK_MS : USER_CALIB_FULL_MS;
	struct user_calib c;
	struct tp_rec r;

	f->user_hz = user_calib_run(user_calib_rounds, round_ms * NS_PER_MS, &c);
	emit_begin(&r, "calib");
	tp_rec_str(&r, "probe", P);
	tp_rec_str(&r, "source", "user");
	tp_rec_str(&r, "ref", "CLOCK_MONOTONIC_RAW");
	rec_hz(&r, "tsc_hz", c.hz);
	rec_exact(&r, "spread_ppm", c.hz > 0 ? c.spread_ppm : NAN);
	rec_hz(&r, "min_hz", c.min_hz);
	rec_hz(&r, "max_hz", c.max_hz);
	tp_rec_int(&r, "rounds", c.rounds);
	tp_rec_int(&r, "failed_rounds", c.failed);
	tp_rec_int(&r, "round_ms", round_ms);
	tp_rec_int(&r, "cpu", c.cpu);
	rec_deps(&r, f, TSC_FIG_USER);
	emit_end(&r);
	human_calib("user", "CLOCK_MONOTONIC_RAW", c.hz, c.hz > 0 ? c.spread_ppm : NAN);
	if (c.failed)
		human("  user calibration: %d of %d rounds failed, left out\n", c.failed, c.rounds);
}

static void agreement(const struct figures *f)
{
	static const struct {
		const char *key, *label;
		int a, b; /* 0 stub, 1 kernel, 2 user */
	} pairs[] = {
	    {"stub_vs_kernel_ppm", "stub vs kernel", 0, 1},
	    {"stub_vs_user_ppm", "stub vs user", 0, 2},
	    {"kernel_vs_user_ppm", "kernel vs user", 1, 2},
	};
	double hz[3] = {f->stub_hz, f->kernel_hz, f->user_hz};
	char detail[96];
	struct tp_rec r;

	emit_result_begin(&r, P, "tsc agreement");
	rec_hz(&r, "stub_hz", hz[0]);
	rec_hz(&r, "kernel_hz", hz[1]);
	rec_hz(&r, "user_hz", hz[2]);
	/* Which figures, as free text ("detail"): `report` would take a
	 * "ref" string as part of the result's identity, and a host (no stub,
	 * kernel "detected") would never line up with the appliance. */
	snprintf(detail, sizeof(detail), "stub %s, kernel %s, user CLOCK_MONOTONIC_RAW",
		 f->stub_ref ? f->stub_ref : "none", f->kernel_ref ? f->kernel_ref : "none");
	tp_rec_str(&r, "detail", detail);
	/* then stub vs kernel compares the stub with itself, to 1 kHz */
	tp_rec_bool(&r, "kernel_is_early", f->kernel_is_early);
	human("\n  %-16s %12s\n", "agreement", "ppm");
	/* A pair whose figures share an origin agrees by construction: its
	 * 0 ppm is no evidence. It is listed, and marked in the table. */
	tp_rec_arr_begin(&r, "by_construction");
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (tsc_by_construction(f->derived, pairs[i].a, pairs[i].b))
			tp_rec_str(&r, 0, pairs[i].key);
	tp_rec_arr_end(&r);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		double d = ppm_offset(hz[pairs[i].a], hz[pairs[i].b]);
		char note[64] = "";

		if (tsc_by_construction(f->derived, pairs[i].a, pairs[i].b))
			snprintf(note, sizeof(note), "   by construction: both from %s",
				 tsc_origin(f->derived, pairs[i].a));
		rec_double(&r, pairs[i].key, d); /* null where a figure is missing */
		if (isfinite(d))
			human("  %-16s %12.1f%s\n", pairs[i].label, d, note);
		else
			human("  %-16s %12s%s\n", pairs[i].label, "-", note);
	}
	emit_end(&r);
}

/* ------------------------------------------------------------------ */
/* Flags                                                               */

/* The kernel's TSC flags (/proc/cpuinfo), each a key; the set ones appended to line. */
static size_t flags_kernel(struct tp_rec *r, char *line, size_t size)
{
	static const char *const names[] = {"constant_tsc", "nonstop_tsc", "tsc_known_freq",
					    "tsc_reliable", "rdtscp",	   "tsc_deadline_timer"};
	size_t len = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int on = cpu_has_flag(names[i]);

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
	current_clocksource(cs, sizeof(cs));
	read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail));
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "available_clocksources", avail);
	emit_end(&r);
	human("\n  flags:%s\n  clocksource: %s (available: %s)%s%s\n", line, cs, avail,
	      hv[0] ? ", hypervisor " : "", hv);
}

/* ------------------------------------------------------------------ */
/* Cross-CPU synchronisation (tsc_sync.c check_tsc_warp())            */

struct warp_shared {
	unsigned int next, owner; /* ticket lock */
	int ready, go_fail;
	int last_cpu;
	uint64_t last_tsc;
	uint64_t max_warp;
	uint64_t nr_warps, random_warps, handoffs;
	int64_t duration_ns;
};

struct warp_thread {
	pthread_t tid;
	struct warp_shared *sh;
	int cpu;
	int pin_error; /* errno of sched_setaffinity, 0 if pinned */
	uint64_t iterations;
};

/*
 * A ticket lock: fair, so two CPUs that both want it take turns, and every
 * turn compares the TSC of one CPU with the other's. (A test-and-set lock
 * mostly stays with the CPU that has the cache line: here it changed hands
 * in 0.3 % of the rounds.) The kernel's arch_spinlock_t is fair too (ticket,
 * then queued spinlocks).
 */
static inline void warp_lock(struct warp_shared *sh)
{
	unsigned int me = __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&sh->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static inline void warp_unlock(struct warp_shared *sh)
{
	__atomic_store_n(&sh->owner, sh->owner + 1, __ATOMIC_RELEASE);
}

/*
 * Pins the thread to its CPU and waits for the other thread (both start
 * together, the kernel's start_count). 1 when the pair may run, 0 when
 * either could not be pinned or the other never came.
 */
static int warp_start(struct warp_thread *t)
{
	struct warp_shared *sh = t->sh;
	int64_t wait_end;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(t->cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		t->pin_error = errno;
	if (t->pin_error)
		__atomic_store_n(&sh->go_fail, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
	wait_end = mono_ns() + 2 * NS_PER_S;
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < 2) {
		cpu_relax();
		if (mono_ns() > wait_end) {
			__atomic_store_n(&sh->go_fail, 1, __ATOMIC_RELEASE);
			return 0;
		}
	}
	return !__atomic_load_n(&sh->go_fail, __ATOMIC_ACQUIRE);
}

/* A backward step prev > now seen by this thread; *cur_warps is its count so far. */
static void warp_note(struct warp_shared *sh, uint64_t prev, uint64_t now, uint64_t *cur_warps)
{
	warp_lock(sh);
	if (prev - now > sh->max_warp)
		sh->max_warp = prev - now;
	/* warps seen by both CPUs in turn: "TSC warped randomly" */
	if (*cur_warps != sh->nr_warps)
		sh->random_warps++;
	sh->nr_warps++;
	*cur_warps = sh->nr_warps;
	warp_unlock(sh);
}

static void *warp_main(void *arg)
{
	struct warp_thread *t = arg;
	struct warp_shared *sh = t->sh;
	uint64_t prev, now, cur_warps = 0, i;
	int64_t end;

	if (!warp_start(t))
		return 0;
	end = mono_ns() + sh->duration_ns;
	for (i = 0;; i++) {
		int other;

		warp_lock(sh);
		prev = sh->last_tsc;
		now = rdtsc_ordered();
		sh->last_tsc = now;
		other = sh->last_cpu != t->cpu;
		sh->last_cpu = t->cpu;
		sh->handoffs += other;
		warp_unlock(sh);

		/* the kernel checks its deadline every 8 rounds against the TSC
		 * itself; the TSC is what is on trial here, so use the clock */
		if (!(i & 63) && mono_ns() > end)
			break;
		if (prev > now)
			warp_note(sh, prev, now, &cur_warps);
	}
	t->iterations = i;
	return 0;
}

/* Runs one pair; 0, or -errno (pinning failed: the CPU is not ours). */
static int warp_pair(int cpu_a, int cpu_b, int64_t duration_ns, struct warp_shared *sh,
		     uint64_t *iterations)
{
	struct warp_thread t[2] = {{.cpu = cpu_a}, {.cpu = cpu_b}};
	int rc = 0;

	memset(sh, 0, sizeof(*sh));
	sh->duration_ns = duration_ns;
	sh->last_cpu = -1;
	for (int i = 0; i < 2; i++) {
		t[i].sh = sh;
		if (pthread_create(&t[i].tid, 0, warp_main, &t[i])) {
			if (i == 1) {
				__atomic_store_n(&sh->go_fail, 1, __ATOMIC_RELEASE);
				__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
				pthread_join(t[0].tid, 0);
			}
			return -EAGAIN;
		}
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i].tid, 0);
		if (t[i].pin_error)
			rc = -t[i].pin_error;
	}
	if (!rc && sh->go_fail)
		rc = -ETIMEDOUT;
	*iterations = t[0].iterations + t[1].iterations;
	return rc;
}

/* The CPUs we may run on, into cpus[CPU_SETSIZE]; their number, or -1. */
static int sync_cpus(int *cpus)
{
	cpu_set_t set;
	int ncpus = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;
	return ncpus;
}

/* One pair's record and table row. */
static void sync_pair_result(const char *name, int cpu_a, int cpu_b, uint64_t iterations,
			     const struct warp_shared *sh, double hz, int64_t duration_ns)
{
	struct tp_rec r;

	emit_result_begin(&r, P, name);
	tp_rec_int(&r, "cpu_a", cpu_a);
	tp_rec_int(&r, "cpu_b", cpu_b);
	tp_rec_uint(&r, "iterations", iterations);
	tp_rec_uint(&r, "handoffs", sh->handoffs);
	tp_rec_uint(&r, "warps", sh->nr_warps);
	tp_rec_uint(&r, "random_warps", sh->random_warps);
	tp_rec_uint(&r, "max_warp_ticks", sh->max_warp);
	rec_double(&r, "max_warp_ns", hz > 0 ? (double)sh->max_warp * 1e9 / hz : NAN);
	tp_rec_int(&r, "duration_ms", duration_ns / NS_PER_MS);
	emit_end(&r);
	human("  %-12s %12llu %8llu %14llu %12.1f %10llu\n", name + 5,
	      (unsigned long long)iterations, (unsigned long long)sh->nr_warps,
	      (unsigned long long)sh->max_warp, hz > 0 ? (double)sh->max_warp * 1e9 / hz : NAN,
	      (unsigned long long)sh->handoffs);
}

static void sync_check(struct probe_ctx *ctx, double hz)
{
	int64_t duration_ns = (ctx->quick ? 200 : 1000) * NS_PER_MS;
	int max_pairs = ctx->quick ? SYNC_PAIRS_QUICK : SYNC_PAIRS_FULL;
	int cpus[CPU_SETSIZE], ncpus = sync_cpus(cpus), npairs, with_warps = 0, done = 0;
	uint64_t worst = 0;
	struct tp_rec r;

	if (ncpus < 0) {
		emit_skip(P, "tsc sync", "sched_getaffinity failed");
		return;
	}
	if (ncpus < 2) {
		emit_skip(P, "tsc sync", "one CPU: nothing to compare");
		return;
	}
	/* The first CPU against every other, as the kernel checks each CPU
	 * coming up against the boot CPU; on big machines a spread sample. */
	npairs = ncpus - 1 < max_pairs ? ncpus - 1 : max_pairs;
	human("\n  %-12s %12s %8s %14s %12s %10s\n", "tsc sync", "iterations", "warps",
	      "max_warp_ticks", "max_warp_ns", "handoffs");
	for (int k = 0; k < npairs; k++) {
		int other = cpus[1 + (int)((int64_t)k * (ncpus - 1) / npairs)];
		struct warp_shared sh;
		uint64_t iterations = 0;
		char name[40], why[80];
		int rc;

		snprintf(name, sizeof(name), "sync cpu%d-cpu%d", cpus[0], other);
		rc = warp_pair(cpus[0], other, duration_ns, &sh, &iterations);
		if (rc) {
			snprintf(why, sizeof(why), "pair not run: %s", strerror(-rc));
			emit_skip(P, name, why);
			continue;
		}
		done++;
		with_warps += sh.nr_warps > 0;
		if (sh.max_warp > worst)
			worst = sh.max_warp;
		sync_pair_result(name, cpus[0], other, iterations, &sh, hz, duration_ns);
	}
	emit_result_begin(&r, P, "tsc sync");
	tp_rec_int(&r, "cpus", ncpus);
	tp_rec_int(&r, "pairs", done);
	tp_rec_int(&r, "pairs_with_warps", with_warps);
	tp_rec_uint(&r, "max_warp_ticks", worst);
	rec_double(&r, "max_warp_ns", hz > 0 ? (double)worst * 1e9 / hz : NAN);
	emit_end(&r);
}

enum probe_status probe_tsc(struct probe_ctx *ctx)
{
	struct figures f = {0};

	if (!TP_HAVE_TSC || !cpu_has_flag("tsc")) {
		emit_skip(P, 0, "no TSC on this CPU");
		return PROBE_SKIPPED;
	}
	human("  %-7s %-20s %17s  %10s\n", "source", "ref", "tsc_hz", "spread_ppm");
	derivation_scan(&f);
	stub_figures(ctx->opt, &f);
	kernel_figures(&f);
	user_figures(ctx, &f);
	agreement(&f);
	flags();
	sync_check(ctx, f.stub_hz > 0 ? f.stub_hz : f.user_hz);
	return PROBE_OK;
}

/* ---- the registry's row (probes/registry.c) ---- */

static const struct probe_opt tsc_opts[] = {
	{ .w = {
		.name = "tsc-calib-rounds", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.lo = 1, .hi = USER_CALIB_ROUNDS_MAX, .def = USER_CALIB_ROUNDS_DEFAULT, .dflt = "5",
		.help = "rounds of the shared user-space TSC calibration (`tsc`, `clocks`, `noise`)",
	  }, .store = &user_calib_rounds, .was = "calib-rounds" },
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
	PKEY_FIG("tsc_early_khz", "kHz", PK_NEITHER, "the stub's tsc_early_khz="),
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

const struct probe tsc_probe = {
	.name = "tsc", .summary = "TSC frequency by stub, kernel and user space; flags; cross-CPU sync",
	.run = probe_tsc, .limit_quick_s = 30, .limit_full_s = 120,
	PROBE_OPTS(tsc_opts), PROBE_FIGURES("max_warp_ns", "tsc_hz"),
	PROBE_KEYS(tsc_keys),
};
