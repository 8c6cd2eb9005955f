// SPDX-License-Identifier: MIT
/*
 * Probe `drift`: the TSC against each platform counter user space can read
 * directly (CLOCK_MONOTONIC_RAW always; HPET and the ACPI PM timer where
 * the machine lets us: platclock.h), sampled every TAU0 with each counter
 * read between two TSC reads. Per counter: the TSC's rate measured against
 * it, in ppm from the stub's figure; its trend in ppm per minute; the
 * overlapping Allan deviation (adev.h, NIST SP 1065) at tau = 0.1, 1, 10 s
 * and a third of the run. Then what one read of each counter costs.
 * docs/probes/drift.md.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../adev.h"
#include "../adevci.h"
#include "../affinity.h"
#include "../emit.h"
#include "../kmsg.h"
#include "../platclock.h"
#include "../probe.h"
#include "../skewopt.h"
#include "../stats.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "../tscref.h"
#include "drift.h"
#include "drift_impl.h"

#define P "drift"
#define QUICK_S 10
#define FULL_S 300
#define MARGIN_NS (4 * NS_PER_S)	/* kept before the deadline for analysis and costs */
#define NREFS 3
#define DRIFT_SAME_CRYSTAL "not known: on most PCs the HPET and the PM timer count one " \
	"14.318 MHz crystal, under a hypervisor both the host's clock; agreement says they are " \
	"consistent, not that either is right"

static int drift_s;	/* --drift-s=; 0: the profile's */

/* What the figures are against: the clocksource over the run, the kernel's figure. */
struct refs {
	char cs[64];		/* "": unread, or it changed during the run */
	char cs_why[128];	/* why cs is "" */
	int guest;		/* under a hypervisor or an emulator (tscref.h) */
	struct ktsc k;		/* k.khz 0: none, kmsg_why says why */
	char kmsg_why[256];
};

struct series {
	struct platclock c;
	int open;
	uint64_t last, acc;	/* unwrapping the counter */
	uint64_t *tsc;		/* bracket midpoints */
	uint64_t *ticks;	/* counter ticks since the first sample */
	double *width_ns;	/* bracket widths */
};

/* ------------------------------------------------------------------ */
/* Sampling                                                            */

/* One sample of s: the tightest of three TSC-counter-TSC brackets. */
static void take(struct series *s, size_t i, double hz)
{
	uint64_t best = UINT64_MAX, mid = 0, v = 0;

	for (int k = 0; k < 3; k++) {
		uint64_t a = tp_counter_ordered(), x = s->c.read(&s->c), b = tp_counter_ordered();

		if (b >= a && b - a < best) {
			best = b - a;
			mid = a + (b - a) / 2;
			v = x;
		}
	}
	if (i)
		s->acc = drift_unwrap(s->acc, s->last, v, s->c.bits);
	s->last = v;
	s->tsc[i] = mid;
	s->ticks[i] = s->acc;
	s->width_ns[i] = (double)best * 1e9 / hz;
}

/*
 * Samples every DRIFT_TAU0_NS to absolute deadlines, pinned to the CPU it
 * starts on (a migration between CPUs whose TSCs differ would show as a
 * phase step: probe `tscsync` measures that); returns how many were taken.
 */
static size_t sample(struct series *s, size_t max, double hz, uint64_t *missed)
{
	int64_t start = mono_ns();
	size_t i;

	affinity_pin_self(-1, 0);	/* best effort */

	for (i = 0; i < max; i++) {
		int64_t due = start + (int64_t)i * DRIFT_TAU0_NS;
		struct timespec ts = ns_ts(due);

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, 0);
		if (mono_ns() - due > DRIFT_TAU0_NS)
			(*missed)++;	/* woke a whole period late */
		for (int k = 0; k < NREFS; k++)
			if (s[k].open)
				take(&s[k], i, hz);
	}
	return i;
}

/* ------------------------------------------------------------------ */
/* Analysis                                                            */

/* The TSC rate over windows of the run, and the line through them in ppm/min. */
static void trend(const double *ref_s, const double *tsc_t, size_t n, double stub_hz,
		  struct drift_fit *f)
{
	size_t per = (size_t)(NS_PER_S / DRIFT_TAU0_NS), nw;
	double t[DRIFT_WINDOWS_MAX], ppm[DRIFT_WINDOWS_MAX], icept;

	if (n / per < 10)
		per = n / 10 ? n / 10 : 1;
	nw = (n - 1) / per < DRIFT_WINDOWS_MAX ? (n - 1) / per : DRIFT_WINDOWS_MAX;
	per = nw ? (n - 1) / nw : 1;
	f->win_min_ppm = INFINITY;
	f->win_max_ppm = -INFINITY;
	for (size_t w = 0; w < nw; w++) {
		size_t a = w * per, b = a + per;
		double hz_w = (tsc_t[b] - tsc_t[a]) / (ref_s[b] - ref_s[a]);

		t[w] = (ref_s[a] + ref_s[b]) / 2 / 60;
		ppm[w] = (hz_w - stub_hz) / stub_hz * 1e6;
		f->win_min_ppm = fmin(f->win_min_ppm, ppm[w]);
		f->win_max_ppm = fmax(f->win_max_ppm, ppm[w]);
	}
	f->windows = nw;
	f->win_s = nw ? ref_s[per] - ref_s[0] : NAN;
	if (adev_line_fit(t, ppm, nw, &f->trend_ppm_min, &icept))
		f->trend_ppm_min = NAN;
}

int drift_analyse(const uint64_t *tsc, const uint64_t *ticks, size_t n, double ref_hz,
		  double stub_hz, struct drift_fit *f, double *x)
{
	double *ref_s = calloc(n, sizeof(double)), *tsc_t = calloc(n, sizeof(double)), icept = 0;
	int rc = -1;

	memset(f, 0, sizeof(*f));
	if (n < 3 || !ref_s || !tsc_t || !ticks[n - 1])
		goto out;
	for (size_t i = 0; i < n; i++) {
		ref_s[i] = (double)ticks[i] / ref_hz;
		tsc_t[i] = (double)(tsc[i] - tsc[0]);
	}
	if (adev_line_fit(ref_s, tsc_t, n, &f->tsc_hz, &icept))
		goto out;
	f->ppm = (f->tsc_hz - stub_hz) / stub_hz * 1e6;
	trend(ref_s, tsc_t, n, stub_hz, f);
	/* phase: the TSC's time error against the counter, the mean rate
	 * removed, so uneven sample times do not turn it into noise */
	for (size_t i = 0; i < n; i++)
		x[i] = (tsc_t[i] - icept) / f->tsc_hz - ref_s[i];
	rc = 0;
out:
	free(ref_s);
	free(tsc_t);
	return rc;
}

size_t drift_taus(size_t n, size_t *ms)
{
	static const double fixed_s[] = { 0.1, 1, 10 };
	size_t m_third = n ? (n - 1) / 3 : 0, nm = 0;

	for (size_t i = 0; i < 3; i++) {
		size_t m = (size_t)llround(fixed_s[i] * NS_PER_S / DRIFT_TAU0_NS);

		if (m <= m_third)
			ms[nm++] = m;
	}
	if (m_third && (!nm || ms[nm - 1] != m_third))
		ms[nm++] = m_third;
	return nm;
}

/* ------------------------------------------------------------------ */
/* Records                                                             */

/* The log-log slope of adev against tau around i, from its neighbours; NaN alone. */
static double adev_slope(const double *tau, const double *a, size_t nm, size_t i)
{
	size_t lo = i ? i - 1 : 0, hi = i + 1 < nm ? i + 1 : i;

	if (lo == hi || !(a[lo] > 0) || !(a[hi] > 0))
		return NAN;
	return log(a[hi] / a[lo]) / log(tau[hi] / tau[lo]);
}

/*
 * Is the TSC's rate against counter independent of the TSC on this run
 * (tscref.h, the one place that decides)? compared: as compared with a
 * figure measured against figure_ref (NULL: not known); else by the
 * counter alone. 1, 0, -1; why.
 */
static int independence(const struct refs *rf, const char *counter, int compared,
			const char *figure_ref, char *why, size_t len)
{
	struct tscref_run run = { rf->cs, rf->cs_why, rf->guest };

	return compared ? tscref_ppm_independent(&run, counter, figure_ref, why, len)
			  : tscref_counter_independent(&run, counter, why, len);
}

/* One record and one line per tau: the deviation, its edf and 68 % interval. */
static void emit_adev(const char *ref, const struct refs *rf, const double *x, size_t n)
{
	char why[320];
	int ind = independence(rf, ref, 0, 0, why, sizeof(why));
	double tau0 = (double)DRIFT_TAU0_NS / NS_PER_S, tau[DRIFT_TAUS_MAX], a[DRIFT_TAUS_MAX];
	size_t ms[DRIFT_TAUS_MAX], terms[DRIFT_TAUS_MAX], nm = drift_taus(n, ms);

	for (size_t i = 0; i < nm; i++) {
		tau[i] = (double)ms[i] * tau0;
		a[i] = adev_overlapping(x, n, tau0, ms[i], &terms[i]);
	}
	for (size_t i = 0; i < nm; i++) {
		enum adev_noise noise;
		double slope = adev_slope(tau, a, nm, i), lo, hi;
		double edf = adev_edf_for_slope(n, ms[i], slope, &noise);
		struct tp_rec r;
		char name[64];

		adev_interval(a[i], edf, &lo, &hi);
		snprintf(name, sizeof(name), "adev %s tau %gs", ref, tau[i]);
		emit_result_begin(&r, P, name);
		tp_rec_str(&r, "ref", ref);
		emit_rec_double(&r, "tau_s", tau[i]);
		tp_rec_uint(&r, "m", ms[i]);
		emit_rec_double(&r, "adev", a[i]);
		emit_rec_double(&r, "adev_lo", lo);
		emit_rec_double(&r, "adev_hi", hi);
		emit_rec_double(&r, "edf", edf);
		tp_rec_str(&r, "noise", adev_noise_name(noise));
		emit_rec_double(&r, "slope", slope);
		tp_rec_uint(&r, "n", terms[i]);
		tscref_rec(&r, ref, ind, why);
		emit_end(&r);
		emit_human("    tau %8.2f s   adev %10.3e  (68 %%: %9.3e .. %9.3e, edf %6.1f, %s)\n",
		      tau[i], a[i], lo, hi, edf, adev_noise_name(noise));
	}
}

/* What the nominal figure was measured against; NULL: not known. */
static const char *nominal_ref(const struct probe_ctx *ctx)
{
	const char *ref = ctx->tsc.ref;

	return ref && strcmp(ref, "unknown") ? ref : 0;
}

static void emit_fit(const struct series *s, size_t n, const struct drift_fit *f,
		     const struct probe_ctx *ctx, const struct refs *rf, uint64_t missed)
{
	struct tp_rec r;
	char name[64], why[320];
	int ind = independence(rf, s->c.name, 1, nominal_ref(ctx), why, sizeof(why));
	double *w = malloc(n * sizeof(double));
	struct summary sw = { 0 };

	if (w) {
		memcpy(w, s->width_ns, n * sizeof(double));
		stats_summarize(w, n, &sw);	/* sorts: a copy */
		free(w);
	}
	snprintf(name, sizeof(name), "drift vs %s", s->c.name);
	emit_result_begin(&r, P, name);
	tp_rec_str(&r, "ref", s->c.name);
	tp_rec_str(&r, "via", s->c.where);
	emit_rec_exact(&r, "ref_hz", s->c.hz);
	tp_rec_int(&r, "counter_bits", s->c.bits);
	emit_rec_exact(&r, "tsc_hz", f->tsc_hz);
	emit_rec_exact(&r, "stub_hz", ctx->tsc.hz);
	tp_rec_str(&r, "tsc_hz_source", ctx->tsc.source ? ctx->tsc.source : "none");
	emit_rec_exact(&r, "freq_ppm", f->ppm);
	emit_rec_exact(&r, "trend_ppm_per_min", f->trend_ppm_min);
	tp_rec_uint(&r, "windows", f->windows);
	emit_rec_double(&r, "window_s", f->win_s);
	emit_rec_exact(&r, "window_ppm_min", f->win_min_ppm);
	emit_rec_exact(&r, "window_ppm_max", f->win_max_ppm);
	emit_rec_double(&r, "duration_s", (double)(s->ticks[n - 1]) / s->c.hz);
	tp_rec_uint(&r, "samples", n);
	tp_rec_uint(&r, "missed", missed);
	emit_rec_double(&r, "tau0_s", (double)DRIFT_TAU0_NS / NS_PER_S);
	emit_rec_double(&r, "bracket_median_ns", sw.p50);
	emit_rec_double(&r, "bracket_max_ns", sw.max);
	tp_rec_str(&r, "clocksource", rf->cs[0] ? rf->cs : "unknown");
	tscref_rec(&r, s->c.name, ind, why);
	emit_end(&r);
	emit_human("  %-20s %14.0f Hz %+10.2f ppm %+10.3f ppm/min  (windows %+.2f..%+.2f ppm, "
	      "bracket %.0f ns)\n", s->c.name, f->tsc_hz, f->ppm, f->trend_ppm_min,
	      f->win_min_ppm, f->win_max_ppm, sw.p50);
	if (ind <= 0)
		emit_human("    %s%s\n", ind ? "not known whether independent: " : "", why);
}

/*
 * What the kernel's figure was measured against: with tsc_early_khz= it is
 * the stub's, measured against the stub's reference; NULL: not known.
 */
static const char *kernel_ref(const struct refs *rf, const struct probe_ctx *ctx)
{
	if (!rf->k.ref || strcmp(rf->k.ref, "stub"))
		return rf->k.ref;
	return ctx->tsc.source && !strcmp(ctx->tsc.source, "stub") ? nominal_ref(ctx) : 0;
}

/* The TSC's rate against this counter and the kernel's figure, in ppm. */
static void emit_kernel(const struct series *s, const struct drift_fit *f, const struct refs *rf,
			const struct probe_ctx *ctx)
{
	struct tp_rec r;
	char name[96], why[320];
	double kernel_hz = (double)rf->k.khz * 1000, ppm = (f->tsc_hz - kernel_hz) / kernel_hz * 1e6;
	int ind = independence(rf, s->c.name, 1, kernel_ref(rf, ctx), why, sizeof(why));

	snprintf(name, sizeof(name), "drift %s vs kernel", s->c.name);
	emit_result_begin(&r, P, name);
	tp_rec_str(&r, "ref", s->c.name);
	emit_rec_exact(&r, "tsc_hz", f->tsc_hz);
	emit_rec_exact(&r, "kernel_hz", kernel_hz);
	tp_rec_str(&r, "kernel_hz_from", rf->k.from);
	tp_rec_str(&r, "kernel_line", rf->k.line);
	emit_rec_exact(&r, "kernel_ppm", ppm);
	tscref_rec(&r, "kernel", ind, why);
	emit_end(&r);
	/* a circular CLOCK_MONOTONIC_RAW was said under its rate already */
	emit_human("    against the kernel's %.3f MHz (%s): %+.2f ppm (the log's kHz is %.2f ppm)%s%s\n",
	      kernel_hz / 1e6, rf->k.from, ppm, 1e9 / kernel_hz, ind > 0 ? "" : "; ",
	      ind > 0 ? "" : tscref_circular_raw(why) ? "circular" : why);
}

double drift_counter_ppm(double tsc_hz_a, double tsc_hz_b)
{
	if (!(tsc_hz_a > 0) || !(tsc_hz_b > 0))
		return NAN;
	return (tsc_hz_b / tsc_hz_a - 1) * 1e6;
}

/*
 * Counter a against counter b (both counters of their own, not the
 * clocksource's clock), through the TSC's rate against each: a check of
 * the references on each other, which the TSC cannot bias.
 */
static void emit_between(const struct series *a, const struct drift_fit *fa,
			 const struct series *b, const struct drift_fit *fb)
{
	double ppm = drift_counter_ppm(fa->tsc_hz, fb->tsc_hz);
	double spread = (fa->win_max_ppm - fa->win_min_ppm + fb->win_max_ppm - fb->win_min_ppm) / 2;
	struct tp_rec r;
	char name[96];

	snprintf(name, sizeof(name), "drift %s vs %s", a->c.name, b->c.name);
	emit_result_begin(&r, P, name);
	tp_rec_str(&r, "ref", a->c.name);
	tp_rec_str(&r, "against", b->c.name);
	emit_rec_exact(&r, "counter_ppm", ppm);
	emit_rec_exact(&r, "counter_spread_ppm", spread);
	tscref_rec(&r, b->c.name, -1, DRIFT_SAME_CRYSTAL);
	emit_end(&r);
	emit_human("  %s against %s: %+.3f ppm (windows' spread %.3f ppm; %s)\n", a->c.name,
		   b->c.name, ppm, spread, "often one crystal: consistency, not truth");
}

/* Rate, trend and Allan deviation of the TSC against one counter, into *f. */
static int analyse(const struct series *s, size_t n, const struct probe_ctx *ctx,
		   const struct refs *rf, uint64_t missed, struct drift_fit *f)
{
	double *x = calloc(n, sizeof(double));
	int rc = -1;
	struct tp_skew k;	/* timeprobe.inject=skew:REF:PPM reads REF that much fast */
	double ref_hz = skewopt_get(ctx->opt, &k) ? tp_skew_ref_hz(&k, s->c.name, s->c.hz) : s->c.hz;

	if (x && !drift_analyse(s->tsc, s->ticks, n, ref_hz, ctx->tsc.hz, f, x)) {
		emit_fit(s, n, f, ctx, rf, missed);
		if (rf->k.khz)
			emit_kernel(s, f, rf, ctx);
		emit_adev(s->c.name, rf, x, n);
		rc = 0;
	}
	free(x);
	return rc;
}

/* Every two counters of their own that were both fitted, one against the other. */
static void between_all(const struct series *s, const struct drift_fit *f, const int *fitted)
{
	for (int a = 0; a < NREFS; a++)
		for (int b = a + 1; b < NREFS; b++)
			if (fitted[a] && fitted[b] && strcmp(s[a].c.name, "CLOCK_MONOTONIC_RAW") &&
			    strcmp(s[b].c.name, "CLOCK_MONOTONIC_RAW"))
				emit_between(&s[a], &f[a], &s[b], &f[b]);
}

/* ------------------------------------------------------------------ */
/* Read costs                                                          */

#define COST_BATCH 32
#define COST_ROUNDS 64

static void read_cost(const struct platclock *c, double hz)
{
	double per[COST_ROUNDS], empty[COST_ROUNDS];
	struct summary s, e;
	struct tp_rec r;
	char name[64];

	for (int k = 0; k < COST_ROUNDS; k++) {
		uint64_t a = tp_counter_ordered();

		for (int i = 0; i < COST_BATCH; i++)
			(void)c->read(c);
		per[k] = (double)(tp_counter_ordered() - a) / COST_BATCH;
		a = tp_counter_ordered();
		for (int i = 0; i < COST_BATCH; i++)
			__asm__ volatile("" ::: "memory");
		empty[k] = (double)(tp_counter_ordered() - a) / COST_BATCH;
	}
	stats_summarize(per, COST_ROUNDS, &s);
	stats_summarize(empty, COST_ROUNDS, &e);
	snprintf(name, sizeof(name), "read cost %s", c->name);
	emit_result_begin(&r, P, name);
	tp_rec_str(&r, "counter", c->name);
	tp_rec_str(&r, "via", c->where);
	tp_rec_int(&r, "reads", COST_BATCH * COST_ROUNDS);
	emit_rec_exact(&r, "ticks_per_read", s.p50);
	emit_rec_double(&r, "ns_per_read", s.p50 * 1e9 / hz);
	emit_rec_double(&r, "min_ns_per_read", s.min * 1e9 / hz);
	emit_rec_double(&r, "max_ns_per_read", s.max * 1e9 / hz);
	emit_rec_double(&r, "loop_overhead_ns", e.p50 * 1e9 / hz);
	emit_end(&r);
	emit_human("  %-20s %10.1f ns %10.1f ticks  (min %.1f, max %.1f ns; loop %.1f ns)\n", c->name,
	      s.p50 * 1e9 / hz, s.p50, s.min * 1e9 / hz, s.max * 1e9 / hz, e.p50 * 1e9 / hz);
}

static void costs(const struct series *s, double hz)
{
	struct platclock pit = { .name = "pit" };

	emit_human("\n  %-20s %13s %16s   (median of %d batches of %d)\n", "read cost", "per read",
	      "TSC ticks", COST_ROUNDS, COST_BATCH);
	for (int k = 0; k < NREFS; k++)
		if (s[k].open)
			read_cost(&s[k].c, hz);
	/* the PIT is not a reference here (the kernel may be using channel 0),
	 * only its latch-and-read cost; 1193182 Hz, 8254 */
	if (platclock_open(&pit)) {
		emit_skip(P, "read cost pit", pit.why);
		return;
	}
	read_cost(&pit, hz);
}

/* ------------------------------------------------------------------ */
/* Entry                                                               */

/* Samples to take: the option or the profile's, cut to the time left. */
static size_t plan(const struct probe_ctx *ctx, int *cut)
{
	int64_t want = (int64_t)(drift_s ? drift_s : ctx->quick ? QUICK_S : FULL_S) * NS_PER_S;
	int64_t left = ctx->deadline_ns > 0 ? ctx->deadline_ns - mono_ns() - MARGIN_NS : want;

	*cut = left < want;
	if (*cut)
		want = left > NS_PER_S ? left : NS_PER_S;
	return (size_t)(want / DRIFT_TAU0_NS) + 1;
}

static int open_all(struct series *s, size_t max)
{
	static const char *const names[NREFS] = { "CLOCK_MONOTONIC_RAW", "hpet", "pmtimer" };
	int any = 0;

	for (int k = 0; k < NREFS; k++) {
		char name[64];

		s[k].c.name = names[k];
		if (platclock_open(&s[k].c)) {
			snprintf(name, sizeof(name), "drift vs %s", names[k]);
			emit_skip(P, name, s[k].c.why);
			continue;
		}
		s[k].tsc = calloc(max, sizeof(uint64_t));
		s[k].ticks = calloc(max, sizeof(uint64_t));
		s[k].width_ns = calloc(max, sizeof(double));
		s[k].open = s[k].tsc && s[k].ticks && s[k].width_ns;
		any |= s[k].open;
	}
	return any;
}

/* The kernel's TSC figure from its log, or why there is none. */
static void kernel_figure(struct refs *rf, int64_t stub_hz)
{
	char *log = 0;
	size_t len;
	const char *how;
	int rc = kmsg_read_all(&log, &len, &how);

	if (rc)
		snprintf(rf->kmsg_why, sizeof(rf->kmsg_why), "the kernel log (%s): %s", how,
			 strerror(-rc));
	else if (!tscref_ktsc_parse(log, stub_hz, &rf->k))
		snprintf(rf->kmsg_why, sizeof(rf->kmsg_why), "%s", TSCREF_NO_KERNEL_FIGURE);
	free(log);
}

/* The clocksource after the run: cs stays only if it is the one before. */
static void clocksource_after(struct refs *rf)
{
	char now[64] = "";

	if (!rf->cs[0] || (sysinfo_current_clocksource(now, sizeof(now)) > 0 && !strcmp(now, rf->cs)))
		return;	/* unread before: tscref.h says so */
	snprintf(rf->cs_why, sizeof(rf->cs_why),
		 "the clocksource changed during the run (%s, then %s): not known what "
		 "CLOCK_MONOTONIC_RAW counted", rf->cs[0] ? rf->cs : "unread", now[0] ? now : "unread");
	rf->cs[0] = 0;
}

static enum probe_status run(struct probe_ctx *ctx)
{
	struct refs rf = { 0 };
	struct series s[NREFS] = { 0 };
	struct drift_fit fit[NREFS];
	int fitted[NREFS] = { 0 };
	uint64_t missed = 0;
	struct drift_mono_mark mono0, mono1;
	size_t max, n;
	double hz;
	int cut;

	if (tsccal_no_counter()) {
		emit_skip(P, 0, tsccal_no_counter());
		return PROBE_SKIPPED;
	}
	hz = tsccal_probe(ctx);
	max = plan(ctx, &cut);
	if (!(hz > 0) || !open_all(s, max)) {
		emit_error(P, 0, hz > 0 ? "out of memory for the samples" : "no TSC frequency");
		return PROBE_FAILED;
	}
	emit_human("  %zu samples every %lld ms%s; TSC nominal %.0f Hz (%s)\n", max,
	      (long long)(DRIFT_TAU0_NS / NS_PER_MS), cut ? " (cut to the probe's time limit)" : "",
	      hz, ctx->tsc.source ? ctx->tsc.source : "none");
	if (sysinfo_current_clocksource(rf.cs, sizeof(rf.cs)) <= 0)
		rf.cs[0] = 0;
	rf.guest = sysinfo_cpu_has_flag("hypervisor");
	kernel_figure(&rf, ctx->stub->tsc_hz);
	if (!rf.k.khz)
		emit_skip(P, "drift vs kernel", rf.kmsg_why);
	drift_mono_mark(&mono0);
	n = sample(s, max, hz, &missed);
	drift_mono_mark(&mono1);
	clocksource_after(&rf);
	emit_human("\n  %-20s %17s %14s %18s\n", "TSC against", "tsc_hz", "vs nominal",
	      "trend");
	for (int k = 0; k < NREFS; k++)
		fitted[k] = s[k].open && n >= 3 && !analyse(&s[k], n, ctx, &rf, missed, &fit[k]);
	between_all(s, fit, fitted);
	drift_mono_emit(&mono0, &mono1);
	costs(s, hz);
	for (int k = 0; k < NREFS; k++) {
		free(s[k].tsc);
		free(s[k].ticks);
		free(s[k].width_ns);
	}
	return PROBE_OK;
}

/* The run's estimate (probe.h): its window and about 0.4 s of set-up and analysis (measured). */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	return (int64_t)(drift_s ? drift_s : ctx->quick ? QUICK_S : FULL_S) * 1000 + probe_expect(ctx, 400, 0);
}

/* ---- the registry's row (probes/registry.c) ---- */

static const struct probe_opt drift_opts[] = {
	{ .w = {
		.name = "drift-s", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.hi = 86400, .dflt = "10 quick, 300 full",
		.help = "`drift`: seconds of sampling (cut to the probe's time limit)",
	  }, .store = &drift_s },
};

/*
 * Every key of a drift record (struct probe_key). A rate's deviation and
 * its trend are signed: nearer zero is better.
 */
static const struct probe_key drift_keys[] = {
	PKEY_ID("ref", 0, "the reference counter"),
	PKEY_ID("tau_s", "s", "the Allan deviation's averaging time"),
	PKEY_ID("counter", 0, "the counter whose read cost this is"),
	PKEY_CTX("via", 0, "how the counter was reached"),
	PKEY_FIG("*_hz", "Hz", PK_NEITHER, "the reference's nominal rate, the TSC's against it, the stub's"),
	PKEY_CTX("tsc_hz_source", 0, "whose figure freq_ppm is against"),
	PKEY_CTX("reference", 0, "what the TSC is compared with: a counter, or kernel (its figure)"),
	PKEY_CTX("independent", 0, "whether that reference is independent of the TSC (null: not known); "
		 "false never leads a comparison"),
	PKEY_CTX("why", 0, "why it is or is not independent (\"circular: ...\")"),
	PKEY_CTX("clocksource", 0, "the kernel's clocksource over the run (what CLOCK_MONOTONIC_RAW counts)"),
	PKEY_FIG("kernel_ppm", "ppm", PK_ZERO, "TSC rate against the kernel's figure (its log's kHz)"),
	PKEY_CTX("kernel_hz_from", 0, "how the kernel derived its figure (its log)"),
	PKEY_CTX("kernel_line", 0, "the kernel's log line of its figure"),
	PKEY_CTX("counter_bits", "bits", "the counter's width"),
	PKEY_ID("against", 0, "the second counter of a counter-against-counter result"),
	PKEY_FIG("counter_ppm", "ppm", PK_ZERO,
		 "ref's rate against the second counter, through the TSC's rate against each"),
	PKEY_CTX("counter_spread_ppm", "ppm", "half the windows' ranges of both rates, added"),
	PKEY_FIG("freq_ppm", "ppm", PK_ZERO, "TSC rate against the stub's figure"),
	PKEY_FIG("mono_raw_ppm", "ppm", PK_ZERO,
		 "CLOCK_MONOTONIC's rate against CLOCK_MONOTONIC_RAW: the adjustment in force (NTP)"),
	PKEY_CTX("mono_raw_bound_ppm", "ppm", "the bound of mono_raw_ppm from the reads' brackets"),
	PKEY_CTX("ntp_*", 0, "what adjtimex() says the kernel was told: frequency, tick (ppm), synced"),
	PKEY_FIG("trend_ppm_per_min", "ppm/min", PK_ZERO, "slope of the windows' rates"),
	PKEY_FIG("window_ppm_*", "ppm", PK_ZERO, "slowest and fastest window"),
	PKEY_CTX("windows", "count", "windows behind the trend"),
	PKEY_CTX("window_s", "s", "length of a window"),
	PKEY_BUDGET("duration_s", "s", "time sampled"),
	PKEY_CTX("samples", "count", "samples taken"),
	PKEY_FIG("missed", "count", PK_LOWER, "wake-ups a whole period late"),
	PKEY_CTX("tau0_s", "s", "the sampling period"),
	PKEY_FIG("bracket_*_ns", "ns", PK_LOWER, "width of the TSC brackets around the reads"),
	PKEY_CTX("m", "count", "tau in sampling periods"),
	PKEY_FIG("adev", 0, PK_LOWER, "overlapping Allan deviation"),
	PKEY_CTX("n", "count", "second differences behind it (not its degrees of freedom)"),
	PKEY_CTX("adev_lo", 0, "the 68 % interval's lower end (chi-squared, edf)"),
	PKEY_CTX("adev_hi", 0, "the 68 % interval's upper end"),
	PKEY_CTX("edf", 0, "equivalent degrees of freedom (NIST SP 1065 Table 5)"),
	PKEY_CTX("noise", 0, "the noise type the edf assumes (from the slope, least confident if unclear)"),
	PKEY_CTX("slope", 0, "log-log slope of adev against tau around this tau"),
	PKEY_CTX("reads", "count", "reads timed"),
	PKEY_FIG("ns_per_read", "ns", PK_LOWER, "cost of one read: median"),
	PKEY_FIG("ticks_per_read", "ticks", PK_LOWER, "cost of one read in TSC ticks",
		 .same_as = "ns_per_read"),
	PKEY_FIG("*ns_per_read", "ns", PK_LOWER, "cost of one read: min, max"),
	PKEY_FIG("loop_overhead_ns", "ns", PK_LOWER, "cost of the empty loop, not subtracted"),
};

/*
 * The verdict's item (struct probe_verdict; docs/verdict.md): the TSC's
 * rate against a reference, the first independent one's (else the first
 * one's, whose `why` says why it cannot be judged).
 */
static const struct probe_verdict drift_verdict[] = {
	{ .lim = { "tsc_drift_ppm", "counter: rate against an independent counter", "ppm", 15, 200,
		   "RFC 5905 tolerance 15 ppm; watchdog skew 100 us per 0.5 s" },
	  .place = 4, .key = "freq_ppm", .pick = PP_INDEPENDENT, .independent_key = "independent",
	  .why_key = "why" },
};

/*
 * What drift's records tell the tsc_readiness record (struct probe_fact,
 * struct probe_reason; docs/readiness.md): the TSC's rate against each
 * counter after boot, with half its windows' range as its uncertainty, the
 * stub's figure where tsc gave none, and why a platform counter has none
 * (its skip's reason).
 */
static const struct probe_fact drift_facts[] = {
	{ .fact = RF_CLOCK_POSTBOOT, .key = "tsc_hz", .where = { RW_HAS("freq_ppm") },
	  .name_key = "ref", .lo_key = "window_ppm_min", .hi_key = "window_ppm_max",
	  .independent_key = "independent", .why_key = "why" },
	{ .fact = RF_STUB_HZ, .key = "stub_hz", .where = { RW_HAS("freq_ppm") }, .pick = PP_FIRST },
	{ .fact = RF_POSTBOOT_WHY, .record = "skip", .key = "reason", .name_key = "name",
	  .name_prefix = "drift vs " },
};

static const struct probe_reason drift_reasons[] = {
	{ .rule = { "drift_ppm", "TSC rate against an independent reference", "ppm", 200,
		    RD_REQUIRED,
		    "WATCHDOG_MAX_SKEW 100 us per 0.5 s (kernel/time/clocksource.c)", 1 },
	  .place = 11, .per_clock = 1, .from = "drift",
	  .absent = "no counter independent of the TSC (probe drift not run, or none open)" },
};

/*
 * Its "adev REF tau Ts" results: one line per reference and run, each tau
 * with its 68 % interval where the capture has one (adev_lo, adev_hi).
 */
static const struct show_series drift_series = {
	"adev", "Allan deviation of the TSC against each reference (68 % intervals)",
	"tau (s)", "overlapping Allan deviation (dimensionless)", "tau_s", "adev", { "ref" }, 1, 1,
	"adev_lo", "adev_hi",
	"Overlapping Allan deviation of the TSC's rate against each reference over the averaging "
	"time tau, log-log; error bars: 68 % intervals where the capture has them.",
};

const struct probe drift_probe = {
	.name = "drift",
	.summary = "TSC against CLOCK_MONOTONIC_RAW, HPET and PM timer: ppm, trend, Allan deviation; "
		   "read costs",
	.run = run, .limit_quick_s = 40, .limit_full_s = 420, .expect_ms = expect_ms,
	PROBE_OPTS(drift_opts), PROBE_FIGURES("adev", "tau_s", "freq_ppm", "trend_ppm_per_min",
					      "ns_per_read"),
	PROBE_KEYS(drift_keys),
	PROBE_VERDICT(drift_verdict),
	PROBE_FACTS(drift_facts),
	PROBE_REASONS(drift_reasons),
	.rounds = { .whole = "rates, trends and Allan deviation need one long window: its "
			    "longest tau is a quarter of it" },
	.show = { .series = &drift_series },
};
