// SPDX-License-Identifier: MIT
/*
 * Probe `switch`: what a context switch costs, measured the way lmbench's
 * lat_ctx and `perf bench sched pipe` (tools/perf/bench/sched-pipe.c) do it:
 * two tasks pass a token back and forth and we time many round trips.
 *
 * Variants: a pipe between two processes, a pipe between two threads, and a
 * futex word between two threads; each with both tasks pinned to the same
 * CPU (every hand-over is a switch on that CPU) and to two different CPUs
 * (each hand-over is a wake-up of a sleeping task on the other CPU).
 *
 * A round trip is two switches. The round trip includes the cost of the
 * pipe read/write or futex calls themselves, as perf bench's does. On one
 * CPU the pipe variants also time, interleaved with the round trips, the
 * same hand-overs through a pipe of the main side's own (a write and a read,
 * no switch), and report the switch as lmbench's lat_ctx defines it: half a
 * round trip minus that overhead (switch.h: struct switch_lat_ctx).
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include "../ci.h"
#include "../emit.h"
#include "../probe.h"
#include "../stats.h"
#include "../timeutil.h"
#include "switch.h"
#include "switch_run.h"

/* ---- pure helpers (tested in tests/unit/test_yield.c) ---- */

uint64_t switch_rounds_for(int64_t warm_ns, uint64_t warm_rounds, int64_t target_ns)
{
	double r;

	if (warm_ns <= 0 || warm_rounds == 0)
		return 16;
	r = (double)target_ns * (double)warm_rounds / (double)warm_ns;
	if (r < 16)
		return 16;
	if (r > (double)(1 << 26))
		return 1 << 26;
	return (uint64_t)r;
}

int switch_pick_cpus(const cpu_set_t *set, int *a, int *b)
{
	int found = 0;

	for (int c = 0; c < CPU_SETSIZE && found < 2; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		if (found++ == 0)
			*a = c;
		else
			*b = c;
	}
	return found;
}

void switch_summarize(double *us, size_t reps, struct switch_spread *s)
{
	struct summary sum;

	stats_summarize(us, reps, &sum);
	s->reps = reps;
	s->us_min = sum.min;
	s->us_median = sum.p50;
	s->us_max = sum.max;
	s->us_stddev = sum.stddev;
	ci_quantile(us, reps, 50, &s->us_lo, &s->us_hi);	/* us is sorted now */
	s->ns_half_round_trip = sum.p50 * 1000.0 / SWITCHES_PER_ROUND_TRIP;
}

double switch_lat_ctx_ns(double us_per_round_trip, double pipe_overhead_ns)
{
	return us_per_round_trip * 1000.0 / SWITCHES_PER_ROUND_TRIP - pipe_overhead_ns;
}

/*
 * The figure is the difference of the medians, as lat_ctx subtracts one
 * overhead from one switch time. It stays within the paired differences:
 * of n repetitions, n - ceil(n/2) + 1 have a round trip at or above its
 * nearest-rank median and ceil(n/2) an overhead at or below its median, so
 * one repetition has both and its difference is at least the figure (and
 * likewise for the minimum).
 */
void switch_lat_ctx(double *us, double *ovh_ns, size_t reps, struct switch_spread *s,
		    struct switch_lat_ctx *l)
{
	double d[SWITCH_MAX_REPS];

	if (reps > SWITCH_MAX_REPS)
		reps = SWITCH_MAX_REPS;
	for (size_t i = 0; i < reps; i++)
		d[i] = switch_lat_ctx_ns(us[i], ovh_ns[i]);
	switch_summarize(us, reps, s);
	stats_summarize(ovh_ns, reps, &l->overhead_ns);
	stats_summarize(d, reps, &l->paired_ns);
	l->ns = switch_lat_ctx_ns(s->us_median, l->overhead_ns.p50);
	ci_quantile(ovh_ns, reps, 50, &l->overhead_lo, &l->overhead_hi);
	l->ns_lo = switch_lat_ctx_ns(s->us_lo, l->overhead_hi);
	l->ns_hi = switch_lat_ctx_ns(s->us_hi, l->overhead_lo);
}

/* ---- output ---- */

/* lat_ctx's switch and the overhead it subtracts, each with its spread. */
static void rec_lat_ctx(struct tp_rec *rec, const struct switch_lat_ctx *l)
{
	emit_rec_double(rec, "lat_ctx_ns", l->ns);
	ci_emit(rec, "lat_ctx_ns", l->ns_lo, l->ns_hi, l->paired_ns.n);
	emit_rec_double(rec, "lat_ctx_ns_min", l->paired_ns.min);
	emit_rec_double(rec, "lat_ctx_ns_max", l->paired_ns.max);
	emit_rec_double(rec, "lat_ctx_ns_stddev", l->paired_ns.stddev);
	emit_rec_double(rec, "pipe_overhead_ns", l->overhead_ns.p50);
	ci_emit(rec, "pipe_overhead_ns", l->overhead_lo, l->overhead_hi, l->overhead_ns.n);
	emit_rec_double(rec, "pipe_overhead_ns_min", l->overhead_ns.min);
	emit_rec_double(rec, "pipe_overhead_ns_max", l->overhead_ns.max);
	emit_rec_double(rec, "pipe_overhead_ns_stddev", l->overhead_ns.stddev);
	tp_rec_str(rec, "lat_ctx_formula",
		   "us_per_round_trip * 1000 / switches_per_round_trip - pipe_overhead_ns");
}

static void human_switch(const struct switch_cfg *cfg, const struct switch_result *r,
			 int64_t vol, int64_t invol)
{
	const struct switch_spread *s = &r->spread;
	char lat[16] = "-", ovh[16] = "-";
	double n = (double)r->counted_round_trips;

	if (r->with_overhead) {
		snprintf(lat, sizeof(lat), "%.0f", r->lat_ctx.ns);
		snprintf(ovh, sizeof(ovh), "%.0f", r->lat_ctx.overhead_ns.p50);
	}
	emit_human("%-24s %8s %8s %9.2f %9.2f %9.2f %8.2f %10.0f %7.2f %7.2f\n", cfg->name, lat, ovh,
	      s->us_median, s->us_min, s->us_max, s->us_stddev, s->ns_half_round_trip,
	      n > 0 ? (double)vol / n : 0.0, n > 0 ? (double)invol / n : 0.0);
}

static void emit_switch(const struct switch_cfg *cfg, const struct switch_result *r)
{
	const struct switch_spread *s = &r->spread;
	int64_t vol = r->vol_main + r->peer.vol_ctxsw, invol = r->invol_main + r->peer.invol_ctxsw;
	struct tp_rec rec;

	emit_result_begin(&rec, "switch", cfg->name);
	tp_rec_str(&rec, "mechanism", cfg->mech == SW_PIPE ? "pipe" : "futex");
	tp_rec_str(&rec, "peer", cfg->peer == SW_PROCESS ? "process" : "thread");
	tp_rec_str(&rec, "placement", cfg->cross ? "cross-cpu" : "same-cpu");
	tp_rec_int(&rec, "cpu_main", r->cpu_main);
	tp_rec_int(&rec, "cpu_peer", r->cpu_peer);
	if (r->with_overhead)
		rec_lat_ctx(&rec, &r->lat_ctx);
	tp_rec_uint(&rec, "round_trips", (uint64_t)s->reps * r->rounds_per_rep);
	tp_rec_uint(&rec, "round_trips_per_rep", r->rounds_per_rep);
	tp_rec_uint(&rec, "reps", s->reps);
	emit_rec_double(&rec, "us_per_round_trip", s->us_median);
	ci_emit(&rec, "us_per_round_trip", s->us_lo, s->us_hi, s->reps);
	emit_rec_double(&rec, "us_per_round_trip_min", s->us_min);
	emit_rec_double(&rec, "us_per_round_trip_max", s->us_max);
	emit_rec_double(&rec, "us_per_round_trip_stddev", s->us_stddev);
	tp_rec_int(&rec, "switches_per_round_trip", SWITCHES_PER_ROUND_TRIP);
	emit_rec_double(&rec, cfg->cross ? "ns_per_handoff" : "ns_per_half_round_trip",
		   s->ns_half_round_trip);
	if (!cfg->cross)
		ci_emit(&rec, "ns_per_half_round_trip", s->us_lo * 1000.0 / SWITCHES_PER_ROUND_TRIP,
			s->us_hi * 1000.0 / SWITCHES_PER_ROUND_TRIP, s->reps);
	tp_rec_int(&rec, "vol_ctxsw", vol);
	tp_rec_int(&rec, "invol_ctxsw", invol);
	tp_rec_int(&rec, "vol_ctxsw_main", r->vol_main);
	tp_rec_int(&rec, "vol_ctxsw_peer", r->peer.vol_ctxsw);
	tp_rec_uint(&rec, "ctxsw_round_trips", r->counted_round_trips);
	emit_rec_double(&rec, "ctxsw_per_round_trip",
		   r->counted_round_trips ? (double)(vol + invol) / (double)r->counted_round_trips : 0.0);
	tp_rec_str(&rec, "ctxsw_source", "getrusage(RUSAGE_THREAD) of each side, warm-up included");
	emit_end(&rec);
	human_switch(cfg, r, vol, invol);
}

static const struct switch_cfg variants[] = {
	{ "pipe-process-same-cpu", SW_PIPE, SW_PROCESS, 0 },
	{ "pipe-process-cross-cpu", SW_PIPE, SW_PROCESS, 1 },
	{ "pipe-thread-same-cpu", SW_PIPE, SW_THREAD, 0 },
	{ "pipe-thread-cross-cpu", SW_PIPE, SW_THREAD, 1 },
	{ "futex-thread-same-cpu", SW_FUTEX, SW_THREAD, 0 },
	{ "futex-thread-cross-cpu", SW_FUTEX, SW_THREAD, 1 },
};

/*
 * Rounds (docs/probes/switch.md, "Rounds"): a variant's repetitions from
 * every round, kept in the suite's shared memory. The run's record is
 * summarized from all of them, as one run of that many repetitions.
 */
struct switch_pool {
	int failed;			/* a round could not measure it */
	size_t reps;
	double us[SWITCH_MAX_REPS], ovh_ns[SWITCH_MAX_REPS];
	uint64_t round_trips, counted_round_trips;
	int64_t vol_main, invol_main;
	struct peer_report peer;
	int with_overhead, cpu_main, cpu_peer;
};

#define N_VARIANTS (sizeof(variants) / sizeof(variants[0]))

static void pool_add(struct switch_pool *p, const struct switch_result *r)
{
	size_t n = r->spread.reps;

	if (p->reps + n > SWITCH_MAX_REPS)
		n = SWITCH_MAX_REPS - p->reps;
	memcpy(p->us + p->reps, r->us, n * sizeof(*r->us));
	memcpy(p->ovh_ns + p->reps, r->ovh_ns, n * sizeof(*r->ovh_ns));
	p->reps += n;
	p->round_trips += (uint64_t)n * r->rounds_per_rep;
	p->counted_round_trips += r->counted_round_trips;
	p->vol_main += r->vol_main;
	p->invol_main += r->invol_main;
	p->peer.vol_ctxsw += r->peer.vol_ctxsw;
	p->peer.invol_ctxsw += r->peer.invol_ctxsw;
	p->with_overhead = r->with_overhead;
	p->cpu_main = r->cpu_main;
	p->cpu_peer = r->cpu_peer;
}

/* The run's result of a variant from its pool: every round's repetitions. */
static void pool_result(const struct switch_pool *p, struct switch_result *r)
{
	double us[SWITCH_MAX_REPS], ovh_ns[SWITCH_MAX_REPS];

	memset(r, 0, sizeof(*r));
	memcpy(us, p->us, p->reps * sizeof(*us));
	memcpy(ovh_ns, p->ovh_ns, p->reps * sizeof(*ovh_ns));
	r->cpu_main = p->cpu_main;
	r->cpu_peer = p->cpu_peer;
	r->rounds_per_rep = p->reps ? p->round_trips / p->reps : 0;	/* the rounds' mean */
	r->counted_round_trips = p->counted_round_trips;
	r->vol_main = p->vol_main;
	r->invol_main = p->invol_main;
	r->peer = p->peer;
	r->with_overhead = p->with_overhead;
	switch_result_summarize(r, us, ovh_ns, p->reps);
}

/* This round's share of REPS repetitions: they add up to REPS over the rounds. */
static int round_reps(const struct probe_ctx *ctx, int reps)
{
	int k = ctx->round > 0 ? ctx->round : 1, n = ctx->rounds > 1 ? ctx->rounds : 1;

	return reps * k / n - reps * (k - 1) / n;
}

static void table_head(void)
{
	emit_human("%-24s %8s %8s %9s %9s %9s %8s %10s %7s %7s\n", "variant", "lat_ctx", "pipe-ovh",
	      "us/rt", "min", "max", "stddev", "ns/half-rt", "vol/rt", "invol/rt");
}

static void table_foot(void)
{
	emit_human("(lat_ctx = ns/half-rt - pipe-ovh, a context switch as lmbench's lat_ctx\n"
	      " defines it: the pipe write + read the token needs, timed in one task\n"
	      " on its own pipe (pipe-ovh, ns), subtracted; pipe variants on one CPU;\n"
	      " us/rt: median round trip, min/max/stddev over the repetitions;\n"
	      " ns/half-rt = us/rt / %d, the calls included: across two CPUs a hand-over\n"
	      " (wake-up IPI, idle exit, wake-up; ns_per_handoff);\n"
	      " vol/rt, invol/rt: context switches of both sides per round trip, from\n"
	      " getrusage(RUSAGE_THREAD))\n",
	      SWITCHES_PER_ROUND_TRIP);
}

/* One variant, this round's share; 1 measured, 0 skipped, -1 failed. */
static int run_variant(const struct switch_cfg *cfg, int a, int b, int ncpus, int reps, int64_t rep_ns,
		       const cpu_set_t *orig, struct switch_pool *pool)
{
	struct switch_result r;
	const char *what = "";
	char why[160];
	int rc;

	if (cfg->cross && ncpus < 2) {
		emit_skip("switch", cfg->name, "one CPU available: the cross-CPU variant needs two");
		return 0;
	}
	rc = switch_run(cfg, a, cfg->cross ? b : a, reps, rep_ns, &r, &what);
	sched_setaffinity(0, sizeof(*orig), orig);
	if (rc == -EINVAL && !strncmp(what, "sched_setaffinity", 17)) {
		snprintf(why, sizeof(why), "%s: CPU %d not usable", what, cfg->cross ? b : a);
		emit_skip("switch", cfg->name, why);
		return 0;
	}
	if (rc) {
		snprintf(why, sizeof(why), "%s: %s", what, strerror(-rc));
		emit_error("switch", cfg->name, why);
		if (pool)
			pool->failed = 1;
		return -1;
	}
	emit_switch(cfg, &r);
	if (pool)
		pool_add(pool, &r);
	return 1;
}

/* The last round: the run's record of each variant, from every round's repetitions. */
static enum probe_status emit_pooled(const struct switch_pool *pool, int ncpus)
{
	int ok = 0, failed = 0;

	emit_set_round(0);
	table_head();
	for (size_t i = 0; i < N_VARIANTS; i++) {
		struct switch_result r;

		if (variants[i].cross && ncpus < 2) {
			emit_skip("switch", variants[i].name, "one CPU available: the cross-CPU variant needs two");
		} else if (pool[i].failed || !pool[i].reps) {
			emit_error("switch", variants[i].name, "a round could not measure it (its round records say why)");
			failed++;
		} else {
			pool_result(&pool[i], &r);
			emit_switch(&variants[i], &r);
			ok++;
		}
	}
	table_foot();
	return failed && !ok ? PROBE_FAILED : ok ? PROBE_OK : PROBE_SKIPPED;
}

enum probe_status switch_probe_run(struct probe_ctx *ctx)
{
	/* many short repetitions: a time slice of another task on the CPU
	 * lands in few of them, and the median leaves those out */
	int reps = round_reps(ctx, ctx->quick ? 21 : 31);
	int64_t rep_ns = ctx->quick ? 5 * NS_PER_MS : 50 * NS_PER_MS;
	struct switch_pool *pool = ctx->rounds > 1 ? ctx->state : 0;
	cpu_set_t orig;
	int a = 0, b = 0, ncpus, ok = 0, failed = 0;

	/* a peer that dies must give an error record, not kill us by SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	if (sched_getaffinity(0, sizeof(orig), &orig)) {
		emit_skip("switch", 0, "sched_getaffinity failed: cannot pin the two tasks");
		return PROBE_SKIPPED;
	}
	ncpus = switch_pick_cpus(&orig, &a, &b);
	table_head();
	for (size_t i = 0; i < N_VARIANTS; i++) {
		int got = run_variant(&variants[i], a, b, ncpus, reps, rep_ns, &orig, pool ? &pool[i] : 0);

		ok += got > 0;
		failed += got < 0;
	}
	table_foot();
	if (pool && probe_round_last(ctx))
		return emit_pooled(pool, ncpus);
	if (failed && !ok)
		return PROBE_FAILED;
	return ok ? PROBE_OK : PROBE_SKIPPED;
}

static size_t state_bytes(const struct probe_ctx *ctx)
{
	(void)ctx;
	return N_VARIANTS * sizeof(struct switch_pool);
}

/* The run's estimate (probe.h): its repetitions of every variant, measured
 * (full under QEMU TCG: 9.6 s quiet, 3.9 s beside stress-ng --cpu 2). */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	return ctx->quick ? probe_expect(ctx, 900, 1000) : probe_expect(ctx, 12300, 9000);
}

/* ---- the registry's row (probes/registry.c) ---- */

/* Every key of a switch record (struct probe_key). */
static const struct probe_key switch_keys[] = {
	PKEY_ID("mechanism", 0, "pipe or futex"),
	PKEY_ID("peer", 0, "process or thread"),
	PKEY_ID("placement", 0, "same-cpu or cross-cpu"),
	PKEY_BUDGET("round_trips*", "count", "round trips timed (in all, per repetition)"),
	PKEY_FIG("us_per_round_trip", "us", PK_LOWER,
		 "cost of a round trip: median; across CPUs bimodal, so compared through "
		 "ns_per_half_round_trip and lat_ctx_ns", .ci = PK_CI_UNSTABLE),
	PKEY_FIG("us_per_round_trip_min", "us", PK_LOWER, "cost of a round trip: the cheapest repetition",
		 .ci = PK_CI_NONE),
	PKEY_FIG("us_per_round_trip_max", "us", PK_LOWER, "cost of a round trip: the dearest repetition",
		 .ci = PK_CI_NONE, .kind = PK_KIND_MAX),
	PKEY_FIG("us_per_round_trip_stddev", "us", PK_LOWER, "spread of the repetitions",
		 .ci = PK_CI_NONE),
	PKEY_FIG("switches_per_round_trip", "count", PK_NEITHER, "context switches a round trip needs",
		 .ci = PK_CI_NONE),
	PKEY_FIG("lat_ctx_ns", "ns", PK_LOWER,
		 "lmbench lat_ctx: half a round trip minus pipe_overhead_ns (pipe, one CPU): median",
		 .ci = PK_CI_INTERVAL),
	PKEY_FIG("lat_ctx_ns_max", "ns", PK_LOWER, "lat_ctx_ns: the dearest repetition",
		 .ci = PK_CI_NONE, .kind = PK_KIND_MAX),
	PKEY_FIG("lat_ctx_ns_*", "ns", PK_LOWER, "lat_ctx_ns: min, max, stddev over the repetitions",
		 .ci = PK_CI_NONE),
	PKEY_FIG("pipe_overhead_ns", "ns", PK_LOWER, "a pipe write + read in one task, no switch: median",
		 .ci = PK_CI_INTERVAL),
	PKEY_FIG("pipe_overhead_ns_max", "ns", PK_LOWER, "pipe_overhead_ns: the dearest repetition",
		 .ci = PK_CI_NONE, .kind = PK_KIND_MAX),
	PKEY_FIG("pipe_overhead_ns_*", "ns", PK_LOWER, "pipe_overhead_ns: min, max, stddev",
		 .ci = PK_CI_NONE),
	PKEY_FIG("ns_per_half_round_trip", "ns", PK_LOWER, "one CPU: half a round trip, the token's calls included",
		 .ci = PK_CI_INTERVAL),
	PKEY_CTX("lat_ctx_formula", 0, "how lat_ctx_ns is computed"),
	PKEY_FIG("ns_per_switch", "ns", PK_LOWER, "older records: half a round trip on one CPU",
		 .ci = PK_CI_NONE),
	PKEY_FIG("ns_per_handoff", "ns", PK_LOWER,
		 "two CPUs: half a round trip (IPI, idle exit, wake-up); bimodal: the waiting side "
		 "spins or sleeps", .ci = PK_CI_UNSTABLE),
	PKEY_FIG("vol_ctxsw*", "count", PK_NEITHER, "voluntary context switches", .ci = PK_CI_NONE,
		 .kind = PK_KIND_CONTEXT),
	PKEY_FIG("invol_ctxsw", "count", PK_LOWER, "involuntary context switches",
		 .ci = PK_CI_NONE, .kind = PK_KIND_COUNT),
	PKEY_BUDGET("ctxsw_round_trips", "count", "round trips the counts cover"),
	PKEY_FIG("ctxsw_per_round_trip", "count", PK_NEITHER, "switches counted per round trip",
		 .ci = PK_CI_NONE),
	PKEY_CTX("cpu_main", 0, "the CPU the main side ran on"),
	PKEY_CTX("cpu_peer", 0, "the CPU the peer ran on"),
	PKEY_CTX("reps", "count", "repetitions"),
	PKEY_CTX("ctxsw_source", 0, "where the counts came from"),
};

const struct probe switch_probe = {
	.name = "switch", .summary = "context-switch cost: pipe and futex ping-pong, same and cross CPU",
	.run = switch_probe_run, .limit_quick_s = 30, .limit_full_s = 120, .expect_ms = expect_ms,
	PROBE_FIGURES("lat_ctx_ns", "pipe_overhead_ns", "us_per_round_trip", "ns_per_half_round_trip",
		      "ns_per_handoff"),
	PROBE_KEYS(switch_keys),
	.rounds = { .min_round_ms = 150, .state_bytes = state_bytes },
};
