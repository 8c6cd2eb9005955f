// SPDX-License-Identifier: MIT
/*
 * Probe `wakeup`: how late a thread wakes after the time it asked for, for
 * every way Linux offers to wait for a time, the measurement cyclictest
 * (rt-tests) made the standard.
 *
 * Absolute mechanisms (clock_nanosleep TIMER_ABSTIME, POSIX timers, timerfd)
 * wait for deadlines on a fixed grid, start + k x period, like cyclictest's
 * timerthread(): latency = wake-up time - deadline, and a wake-up later than
 * a whole period counts the grid points it missed as overruns instead of
 * letting the grid drift. Relative mechanisms (nanosleep, usleep, select,
 * poll, epoll_wait, ...) can only be told "this long from now":
 * latency = wake-up time - (time read just before the call + period), so it
 * includes the cost of entering the call; overruns are counted the same way,
 * floor(latency / period).
 *
 * All times are CLOCK_MONOTONIC but for clock_nanosleep TIMER_ABSTIME's
 * rows on CLOCK_REALTIME, CLOCK_BOOTTIME and CLOCK_TAI (the clocks the
 * kernel's selftests sleep on too, nsleep-lat.c): their deadlines and
 * wake-ups are read on the clock slept on. The SCHED_FIFO priority, mlockall, CPU
 * pinning and the timer slack in force are written into every record: a
 * normal (SCHED_OTHER) task's sleeps may end up to its timer slack late
 * (50 us by default, prctl(2) PR_SET_TIMERSLACK; kernel/time/hrtimer.c,
 * hrtimer_nanosleep(); fs/select.c, select_estimate_accuracy()); an RT
 * task has none (Linux 6.1.192 kernel/sched/core.c, __setscheduler_params(),
 * sets it to 0), and POSIX timers and timerfd never use it. The slack is
 * reported, not changed: cyclictest runs SCHED_FIFO and leaves it alone too.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../affinity.h"
#include "../emit.h"
#include "../probe.h"
#include "../stats.h"
#include "../timeutil.h"
#include "wakeup.h"
#include "wakeup_mech.h"

#define MAX_PERIODS OPT_LIST_MAX
#define HIST_BUCKETS 10000	/* 1 us each: 0 .. 10 ms, beyond is overflow */
#define HIST_WIDTH_NS NS_PER_US
#define FIFO_DEFAULT_PRIO 90	/* cyclictest's usual -p90 */

static struct int_list periods_us;	/* --wakeup-us=; empty: 1000 and 100 */
static int fifo_prio = -1;		/* --wakeup-priority=; -1: the default for where it runs */
static int pin_cpu = -1;		/* --wakeup-cpu=; -1: not pinned */
static int asked_samples;		/* --wakeup-samples=; 0: by the profile */
static int asked_seconds;		/* --wakeup-seconds=; 0: by the profile */

/* ---- arithmetic (wakeup.h) ---- */

void wakeup_lat_summarize(const int64_t *lat_ns, size_t n, double *scratch, struct lat_summary *s)
{
	struct summary sm;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		scratch[i] = (double)lat_ns[i];
	stats_summarize(scratch, n, &sm);
	s->samples = n;
	s->min_ns = (int64_t)sm.min;
	s->max_ns = (int64_t)sm.max;
	s->avg_ns = sm.mean;
	s->p50_ns = sm.p50;
	s->p99_ns = sm.p99;
	s->p999_ns = sm.p999;
}

uint64_t wakeup_missed_periods(int64_t latency_ns, int64_t period_ns)
{
	if (period_ns <= 0 || latency_ns < period_ns)
		return 0;
	return (uint64_t)(latency_ns / period_ns);
}

size_t wakeup_periods(const struct int_list *asked, int64_t *us, size_t max)
{
	static const int64_t dflt[] = { 1000, 100 };

	return int_list_or(asked, dflt, sizeof(dflt) / sizeof(*dflt), us, max);
}

size_t wakeup_samples(int quick, int64_t period_us)
{
	int64_t n;

	if (quick)
		return 200;
	n = 3 * 1000000 / (period_us > 0 ? period_us : 1);
	return (size_t)(n < 1000 ? 1000 : n > 30000 ? 30000 : n);
}

size_t wakeup_length(int samples, int seconds, size_t slots, int quick, int64_t period_us)
{
	int64_t n;

	if (samples > 0)
		n = samples;
	else if (seconds > 0)
		n = (int64_t)seconds * 1000000 / (int64_t)(slots ? slots : 1) /
		    (period_us > 0 ? period_us : 1);
	else
		return wakeup_samples(quick, period_us);
	return (size_t)(n < 1 ? 1 : n > WAKEUP_SAMPLES_MAX ? WAKEUP_SAMPLES_MAX : n);
}

int wakeup_priority(int asked, int appliance)
{
	if (asked >= 0)
		return asked;
	return appliance ? FIFO_DEFAULT_PRIO : 0;
}

/* ---- set-up: what cyclictest users ask for ---- */

struct wsetup {
	int prio_requested;
	int prio;		/* in force; 0: SCHED_OTHER */
	char prio_error[80];
	int mlocked;
	char mlock_error[64];
	int cpu;		/* pinned to, -1: not */
	char cpu_error[64];
	long timerslack_ns;
};

static void setup(const struct probe_ctx *ctx, struct wsetup *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	s->prio_requested = wakeup_priority(fifo_prio, ctx->appliance);
	if (s->prio_requested > 0) {
		struct sched_param sp = { .sched_priority = s->prio_requested };

		int rc;

		/* musl's sched_setscheduler() is a stub returning ENOSYS
		 * (POSIX means a process, Linux sets a thread); this one
		 * sets the calling thread, the only one measuring. */
		rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (rc == 0)
			s->prio = s->prio_requested;
		else
			snprintf(s->prio_error, sizeof(s->prio_error), "pthread_setschedparam(SCHED_FIFO, %d): %s",
				 s->prio_requested, strerror(rc));
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
		s->mlocked = 1;
	else
		snprintf(s->mlock_error, sizeof(s->mlock_error), "mlockall: %s", strerror(errno));
	if (pin_cpu >= 0) {
		int rc = affinity_pin_self(pin_cpu, 0);

		if (rc >= 0)
			s->cpu = pin_cpu;
		else
			snprintf(s->cpu_error, sizeof(s->cpu_error), "sched_setaffinity(%d): %s",
				 pin_cpu, strerror(-rc));
	}
	/* Reported as found, not changed: see the comment at the top. */
	s->timerslack_ns = (long)prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
}

/* ---- output ---- */

static void rec_setup(struct tp_rec *r, const struct wsetup *s)
{
	tp_rec_int(r, "priority", s->prio);
	tp_rec_int(r, "priority_requested", s->prio_requested);
	if (s->prio_error[0])
		tp_rec_str(r, "priority_error", s->prio_error);
	tp_rec_bool(r, "mlockall", s->mlocked);
	if (s->mlock_error[0])
		tp_rec_str(r, "mlockall_error", s->mlock_error);
	tp_rec_int(r, "cpu", s->cpu);
	if (s->cpu_error[0])
		tp_rec_str(r, "cpu_error", s->cpu_error);
	tp_rec_int(r, "timerslack_ns", s->timerslack_ns);
}

/* Writes the result record; the histogram is cut short (the rest counted
 * as overflow, "hist_range_ns" says where) only if it would not fit. */
static void emit_result(const struct mech *m, const struct wcfg *c, const struct wsetup *s,
			const struct wout *o, const struct lat_summary *ls, const struct hist *h)
{
	char name[64];
	size_t nb = h->nbuckets;
	struct hist view;
	struct tp_rec r;

	snprintf(name, sizeof(name), "%s %lldus", m->name, (long long)(c->period_ns / NS_PER_US));
	for (;;) {
		emit_result_begin(&r, "wakeup", name);
		tp_rec_str(&r, "mechanism", m->name);
		tp_rec_int(&r, "period_us", c->period_ns / NS_PER_US);
		tp_rec_str(&r, "latency_from", m->absolute ? "deadline" : "call+interval");
		tp_rec_str(&r, "clock", m->clock);
		tp_rec_uint(&r, "samples", ls->samples);
		tp_rec_uint(&r, "n", ls->samples);	/* behind p50, p99, p99.9 (stats.h) */
		tp_rec_int(&r, "min_ns", ls->min_ns);
		emit_rec_double(&r, "avg_ns", round(ls->avg_ns));
		tp_rec_int(&r, "p50_ns", llround(ls->p50_ns));
		tp_rec_int(&r, "p99_ns", llround(ls->p99_ns));
		tp_rec_int(&r, "p999_ns", llround(ls->p999_ns));
		tp_rec_int(&r, "max_ns", ls->max_ns);
		tp_rec_uint(&r, "overruns", o->overruns);
		if (o->stopped_early)
			tp_rec_bool(&r, "stopped_early", 1);
		rec_setup(&r, s);
		stats_hist_truncate(h, nb, &view);
		tp_rec_int(&r, "hist_range_ns", (int64_t)view.nbuckets * view.width_ns);
		stats_hist_record(&r, "hist", &view);
		/* room for the closing brace and the CRC */
		if (!r.overflow && r.len + 16 < TP_REC_MAX)
			break;
		if (nb < 8)
			break;	/* cannot happen with <8 buckets; emit_end reports it */
		nb = nb * 3 / 4;
	}
	emit_end(&r);
}

static void human_us(int64_t ns)
{
	emit_human(" %8.1f", (double)ns / NS_PER_US);
}

/* Percentile P of N samples in us, or "-" when too few samples lie beyond it. */
static void human_pct(double ns, double p, size_t n)
{
	char v[24];

	/* bracketed: too few samples beyond it to stand apart from the max */
	snprintf(v, sizeof(v), stats_percentile_shown(p, n) ? "%.1f" : "(%.1f)", ns / NS_PER_US);
	emit_human(" %8s", v);
}

#define NMECH WAKEUP_NMECH

/* Samples per mechanism at period_us, of np periods, as the options ask (wakeup_length()). */
static size_t samples_at(const struct probe_ctx *ctx, int64_t period_us, size_t np)
{
	return wakeup_length(asked_samples, asked_seconds, np * NMECH, ctx->quick, period_us);
}

/*
 * Rounds (docs/probes/wakeup.md, "Rounds"): what each mechanism at each
 * period gave over the rounds, in the suite's shared memory; its latencies
 * follow the slots (struct wakeup_state's lat, maxs per slot).
 */
struct wakeup_slot {
	size_t n;
	uint64_t overruns;
	int stopped_early;
	int outcome;		/* 0 measured, 1 skipped, -1 failed (why) */
	char why[128];
};

struct wakeup_state {
	size_t maxs;
	struct wakeup_slot slot[MAX_PERIODS * NMECH];
	int64_t lat[];
};

/* This round's share of n samples: the rounds' shares add up to n. */
static size_t round_samples(const struct probe_ctx *ctx, size_t n)
{
	size_t k = ctx->round > 0 ? (size_t)ctx->round : 1, r = ctx->rounds > 1 ? (size_t)ctx->rounds : 1;

	return n * k / r - n * (k - 1) / r;
}

static void human_head(const struct wsetup *s)
{
	char cpu[16], policy[24];

	snprintf(cpu, sizeof(cpu), s->cpu < 0 ? "any" : "%d", s->cpu);
	snprintf(policy, sizeof(policy), s->prio ? "SCHED_FIFO %d" : "SCHED_OTHER", s->prio);
	emit_human("%s%s%s%s, mlockall %s, cpu %s, timer slack %ld ns\n", policy,
	      s->prio_error[0] ? " (refused: " : "", s->prio_error, s->prio_error[0] ? ")" : "",
	      s->mlocked ? "on" : "off", cpu, s->timerslack_ns);
	emit_human("latency in us: wake-up - deadline (absolute) or - (call + period) (relative);\n"
	      "a percentile with fewer than %d samples above it is in brackets: it is nearly the max\n",
	      PCT_MIN_BEYOND);
	emit_human("%-44s %7s %7s %8s %8s %8s %8s %8s %8s %8s\n", "mechanism", "period", "samples",
	      "min", "avg", "p50", "p99", "p99.9", "max", "overruns");
}

/* The record and the table's row of o's samples (buckets and scratch: room for them). */
static void report(const struct mech *m, const struct wcfg *c, const struct wsetup *s, const struct wout *o,
		   uint64_t *buckets, double *scratch)
{
	struct lat_summary ls;
	struct hist h;

	stats_hist_init(&h, buckets, HIST_BUCKETS, HIST_WIDTH_NS);
	for (size_t i = 0; i < o->n; i++)
		stats_hist_add(&h, o->lat[i]);
	wakeup_lat_summarize(o->lat, o->n, scratch, &ls);
	emit_result(m, c, s, o, &ls, &h);
	emit_human("%-44s %7lld %7zu", m->name, (long long)(c->period_ns / NS_PER_US), ls.samples);
	human_us(ls.min_ns);
	emit_human(" %8.1f", ls.avg_ns / NS_PER_US);
	human_pct(ls.p50_ns, 50, ls.samples);
	human_pct(ls.p99_ns, 99, ls.samples);
	human_pct(ls.p999_ns, 99.9, ls.samples);
	human_us(ls.max_ns);
	emit_human(" %8llu%s\n", (unsigned long long)o->overruns, o->stopped_early ? " (stopped early)" : "");
}

/* A mechanism's outcome kept for the last round; its samples after the earlier rounds'. */
static void keep(struct wakeup_state *st, size_t slot, int outcome, const char *why, const struct wout *o)
{
	struct wakeup_slot *w = &st->slot[slot];
	size_t room = st->maxs - w->n, n = o && o->n < room ? o->n : room;

	if (outcome) {
		w->outcome = outcome;
		snprintf(w->why, sizeof(w->why), "%s", why);
		return;
	}
	memcpy(st->lat + slot * st->maxs + w->n, o->lat, n * sizeof(*o->lat));
	w->n += n;
	w->overruns += o->overruns;
	w->stopped_early |= o->stopped_early;
}

/* The last round: each mechanism's run record over every round's samples. */
static int report_pooled(struct wakeup_state *st, const int64_t *periods, size_t np, const struct wsetup *s,
			 uint64_t *buckets, double *scratch, int *failed)
{
	int measured = 0;

	emit_set_round(0);
	human_head(s);
	*failed = 0;
	for (size_t p = 0; p < np; p++)
		for (size_t m = 0; m < NMECH; m++) {
			struct wakeup_slot *w = &st->slot[p * NMECH + m];
			struct wcfg c = { .period_ns = periods[p] * NS_PER_US, .samples = w->n };
			struct wout o = { .lat = st->lat + (p * NMECH + m) * st->maxs, .n = w->n,
					  .overruns = w->overruns, .stopped_early = w->stopped_early };
			char name[64];

			snprintf(name, sizeof(name), "%s %lldus", wakeup_mechs[m].name, (long long)periods[p]);
			if (w->outcome == 1) {
				emit_skip("wakeup", name, w->why);
			} else if (w->outcome < 0 || !w->n) {
				emit_error("wakeup", name, w->why[0] ? w->why : "no samples");
				(*failed)++;
			} else {
				report(&wakeup_mechs[m], &c, s, &o, buckets, scratch);
				measured++;
			}
		}
	return measured;
}

enum probe_status wakeup_probe_run(struct probe_ctx *ctx)
{
	int64_t periods[MAX_PERIODS];
	size_t np = wakeup_periods(&periods_us, periods, MAX_PERIODS);
	size_t maxs = 0;
	uint64_t *buckets;
	int64_t *lat;
	double *scratch;
	struct wsetup s;
	struct wakeup_state *st = ctx->rounds > 1 ? ctx->state : 0;
	int measured = 0, failed = 0;

	setup(ctx, &s);
	for (size_t p = 0; p < np; p++)
		if (samples_at(ctx, periods[p], np) > maxs)
			maxs = samples_at(ctx, periods[p], np);
	lat = calloc(maxs, sizeof(*lat));
	scratch = calloc(maxs, sizeof(*scratch));
	buckets = calloc(HIST_BUCKETS, sizeof(*buckets));
	if (!lat || !scratch || !buckets) {
		emit_error("wakeup", 0, "out of memory for samples");
		return PROBE_FAILED;
	}
	if (st)
		st->maxs = maxs;
	human_head(&s);
	for (size_t p = 0; p < np; p++) {
		for (size_t m = 0; m < NMECH; m++) {
			struct wcfg c = { .period_ns = periods[p] * NS_PER_US,
					  .samples = round_samples(ctx, samples_at(ctx, periods[p], np)) };
			struct wout o = { .lat = lat };
			char why[128] = "", name[64];
			int rc;

			/* ample for a slow emulator; a stuck timer must not
			 * use up the probe's whole time limit */
			c.wall_cap_ns = (int64_t)c.samples * (c.period_ns + 2 * NS_PER_MS) * 2 + NS_PER_S;
			snprintf(name, sizeof(name), "%s %lldus", wakeup_mechs[m].name, (long long)periods[p]);
			rc = wakeup_mechs[m].run(&c, &o, why, sizeof(why));
			if (rc == 1) {
				emit_skip("wakeup", name, why);
				if (st)
					keep(st, p * NMECH + m, 1, why, 0);
				continue;
			}
			if (rc < 0 || o.n == 0) {
				emit_error("wakeup", name, why[0] ? why : "no samples");
				if (st)
					keep(st, p * NMECH + m, -1, why[0] ? why : "no samples", 0);
				failed++;
				continue;
			}
			report(&wakeup_mechs[m], &c, &s, &o, buckets, scratch);
			if (st)
				keep(st, p * NMECH + m, 0, "", &o);
			measured++;
		}
	}
	if (st && probe_round_last(ctx))
		measured = report_pooled(st, periods, np, &s, buckets, scratch, &failed);
	free(lat);
	free(scratch);
	free(buckets);
	if (!measured)
		return failed ? PROBE_FAILED : PROBE_SKIPPED;
	return PROBE_OK;
}

/* The rounds' shared state: the slots, and room for every sample of each. */
static size_t state_bytes(const struct probe_ctx *ctx)
{
	int64_t periods[MAX_PERIODS];
	size_t np = wakeup_periods(&periods_us, periods, MAX_PERIODS), maxs = 0;

	for (size_t p = 0; p < np; p++)
		if (samples_at(ctx, periods[p], np) > maxs)
			maxs = samples_at(ctx, periods[p], np);
	return sizeof(struct wakeup_state) + np * NMECH * maxs * sizeof(int64_t);
}

/*
 * The run's estimate (probe.h): every mechanism's samples at each period,
 * each sample its period and the wake-up's own cost and lateness: about
 * 60 us on a host and under QEMU TCG alike (TCG, measured: profile full
 * 106 s quiet and 149 s beside stress-ng --cpu 2, quick 3.9 s).
 */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	int64_t periods[MAX_PERIODS], us = 0, extra_us = 60;
	size_t np = wakeup_periods(&periods_us, periods, MAX_PERIODS);

	for (size_t p = 0; p < np; p++)
		us += (int64_t)samples_at(ctx, periods[p], np) * (periods[p] + extra_us);
	return us * (int64_t)WAKEUP_NMECH / 1000;
}

/* The length asked through --wakeup-samples or --wakeup-seconds: the estimate; else 0. */
static int64_t asked_ms(const struct probe_ctx *ctx)
{
	return asked_samples > 0 || asked_seconds > 0 ? expect_ms(ctx) : 0;
}

/* ---- the registry's row (probes/registry.c) ---- */

/*
 * In a comparison both sides wait as SCHED_FIFO 90, the appliance's way,
 * where this host may (root, or RLIMIT_RTPRIO allows 90); else neither does.
 */
static int64_t wakeup_compare_priority(void)
{
	struct rlimit rl;

	if (sched_get_priority_max(SCHED_FIFO) < 90)
		return 0;
	if (!geteuid() || (!getrlimit(RLIMIT_RTPRIO, &rl) && rl.rlim_cur >= 90))
		return 90;
	return 0;
}

static const struct probe_opt wakeup_opts[] = {
	{ .w = {
		.name = "wakeup-us", .type = TP_WT_INTS, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = 10,
		.hi = 10000000, .dflt = "1000,100", .bounds = "10..10000000 each",
		.help = "`wakeup`: periods",
	  }, .store = &periods_us },
	{ .w = {
		.name = "wakeup-priority", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = -1,
		.hi = 99, .def = -1, .dflt = "90", .dflt_host = "0 (none)",
		.help = "`wakeup`: SCHED_FIFO priority (0: none; -1: the default for where it runs)",
	  }, .store = &fifo_prio, .was = "priority", .by_env = 1, .env_def = { 90, 0 },
	  .compare = wakeup_compare_priority },
	{ .w = {
		.name = "wakeup-cpu", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = -1,
		.hi = 4095, .def = -1, .dflt = "-1 (not pinned)",
		.help = "`wakeup`: CPU to pin the measuring thread to",
	  }, .store = &pin_cpu },
	{ .w = {
		.name = "wakeup-samples", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = 0,
		.hi = WAKEUP_SAMPLES_MAX, .def = 0, .dflt = "0 (quick 200; full 3 s worth, 1000..30000)",
		.help = "`wakeup`: samples per mechanism and period (cyclictest's -l); over --wakeup-seconds",
	  }, .store = &asked_samples },
	{ .w = {
		.name = "wakeup-seconds", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = 0,
		.hi = 86400, .def = 0, .dflt = "0 (by the profile)",
		.help = "`wakeup`: seconds the probe measures, shared by its mechanisms and periods (cyclictest's -D)",
	  }, .store = &asked_seconds },
};

/*
 * Every key of a wakeup record (struct probe_key). A percentile of fewer
 * wake-ups than it needs is the latest one (nearest rank, stats.h).
 */
static const struct probe_key wakeup_keys[] = {
	PKEY_ID("mechanism", 0, "the call that sleeps"),
	PKEY_ID("period_us", "us", "the interval asked for"),
	PKEY_ID("clock", 0, "the clock slept on"),
	PKEY_ID("priority", 0, "SCHED_FIFO priority in effect (0: none)"),
	PKEY_ID("priority_requested", 0, "the priority asked for"),
	PKEY_ID("cpu", 0, "the CPU it was pinned to (-1: none)"),
	PKEY_CTX("latency_from", 0, "deadline or call+interval"),
	PKEY_FIG("min_ns", "ns", PK_LOWER, "latency: min"),
	PKEY_FIG("avg_ns", "ns", PK_LOWER, "latency: mean"),
	PKEY_FIG("p50_ns", "ns", PK_LOWER, "latency: median"),
	PKEY_FIG("p99_ns", "ns", PK_LOWER, "latency: p99", .same_as = "max_ns", .same_below_n = 100,
		 .kind = PK_KIND_MAX),
	PKEY_FIG("p999_ns", "ns", PK_LOWER, "latency: p99.9", .same_as = "max_ns",
		 .same_below_n = 1000, .kind = PK_KIND_MAX),
	PKEY_FIG("max_ns", "ns", PK_LOWER, "latency: max", .kind = PK_KIND_MAX),
	PKEY_FIG("timerslack_ns", "ns", PK_NEITHER, "the timer slack in effect"),
	PKEY_BUDGET("hist_range_ns", "ns", "the histogram's range, chosen to fit the record"),
	PKEY_FIG("*_ns", "ns", PK_LOWER, "latency: other statistics"),
	PKEY_FIG("overruns", "count", PK_LOWER, "periods missed", .kind = PK_KIND_COUNT),
	PKEY_CTX("samples", "count", "wake-ups measured"),
	PKEY_CTX("n", "count", "wake-ups behind the percentiles"),
	PKEY_CTX("stopped_early", 0, "the time limit cut the run"),
	PKEY_CTX("mlockall", 0, "memory locked"),
	PKEY_CTX("*_error", 0, "why a setting could not be made"),
	PKEY_CTX("hist", 0, "latency histogram (nested)"),
};

/*
 * The verdict's item (struct probe_verdict; docs/verdict.md): the worst
 * wake-up of cyclictest's way of sleeping, with its own p99.9 and n.
 */
static const struct probe_verdict wakeup_verdict[] = {
	{ .lim = { "wakeup_max_ns", "worst wake-up latency (cyclictest's clock_nanosleep)", "ns",
		   100000, 1000000, "PREEMPT_RT practice (OSADL): max under 100 us" },
	  .place = 6, .key = "max_ns", .pick = PP_LARGEST,
	  .where = { RW_IS("mechanism", "clock_nanosleep TIMER_ABSTIME") },
	  .p999_key = "p999_ns", .n_key = "n" },
};

const struct probe wakeup_probe = {
	.name = "wakeup", .summary = "wake-up latency of every sleep and timer mechanism (cyclictest)",
	.run = wakeup_probe_run, .limit_quick_s = 60, .limit_full_s = 900, .expect_ms = expect_ms,
	.asked_ms = asked_ms,
	PROBE_OPTS(wakeup_opts), PROBE_FIGURES("p99_ns", "samples"),
	PROBE_KEYS(wakeup_keys),
	PROBE_VERDICT(wakeup_verdict),
	.rounds = { .min_round_ms = 200, .state_bytes = state_bytes },
};
