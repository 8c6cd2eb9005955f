// SPDX-License-Identifier: MIT
/*
 * Probe `tscsync`: the offset of the CPU's counter (timeutil.h: the TSC on
 * x86, CNTVCT_EL0 on arm64) of every online CPU relative to every other,
 * after boot, with bounds proven by round trips through one shared cache
 * line (method and its assumptions: tscsync.h, docs/probes/tscsync.md).
 *
 * The kernel's check_tsc_warp() (arch/x86/kernel/tsc_sync.c) answers
 * "did a TSC read on one CPU ever come out before one on another" (probe
 * `tsc`); this answers "how far apart are they, give or take how much".
 * The stub's pre-OS offsets and each CPU's IA32_TSC_ADJUST (x86), before
 * and after, are in tscsync_preos.c (tscsync_impl.h).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../affinity.h"
#include "../emit.h"
#include "../probe.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "tscsync_impl.h"

#define P TSCSYNC_PROBE
#define SPIN_TIMEOUT_NS (2 * NS_PER_S)
#define ANSWER_STOP UINT64_MAX

/* ------------------------------------------------------------------ */
/* Pure part (tscsync.h)                                               */

int tscsync_estimate(const struct tscsync_bounds *s, struct tscsync_estimate *e)
{
	struct tscsync_interval iv;

	memset(e, 0, sizeof(*e));
	if (tscsync_interval(s, &iv))
		return -1;
	e->consistent = iv.consistent;
	e->excludes_zero = iv.excludes_zero;
	/* in double: lo + hi may overflow int64_t for far-apart counters */
	e->offset_ticks = ((double)iv.lo_ticks + (double)iv.hi_ticks) / 2;
	e->bound_ticks = ((double)iv.hi_ticks - (double)iv.lo_ticks) / 2;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The round trips                                                     */

/*
 * One cache line for both directions: A's call (seq odd, a0 beside it, as
 * the method says A writes its counter) and B's answer (seq even, b). Each
 * counter read is tp_counter_ordered(): it executes after the load that saw
 * the other side's store, and before this side's next store is visible.
 * x86, lfence; rdtsc: Intel SDM vol. 2B, RDTSC; vol. 3A 8.2.2, stores are
 * not reordered with older loads or made visible before they retire.
 * arm64, isb; mrs cntvct_el0: an ISB after the load of a signal makes the
 * counter read follow it (Arm ARM D12.1.2, "Reads of CNTVCT_EL0 can occur
 * speculatively and out of order"); the value read is stored into the
 * line before seq's store-release, which cannot be seen before it.
 */
struct line {
	uint64_t seq;
	uint64_t a0, b;
	int ready, fail;
} __attribute__((aligned(64)));

struct pair_job {
	struct line *ln;
	int cpu;
	int pin_error;
};

/* Spins until *p == want; 0, or -ETIMEDOUT (the other side is gone). */
static int wait_for(uint64_t *p, uint64_t want)
{
	int64_t end = 0;

	for (unsigned int i = 1;; i++) {
		uint64_t v = __atomic_load_n(p, __ATOMIC_ACQUIRE);

		if (v == want)
			return 0;
		if (v == ANSWER_STOP)
			return -ECANCELED;
		cpu_relax();
		if (!(i & 1023)) {
			int64_t now = mono_ns();

			if (!end)
				end = now + SPIN_TIMEOUT_NS;
			else if (now > end)
				return -ETIMEDOUT;
		}
	}
}

/* 0, or the errno of pinning this thread to cpu. */
static int pin(int cpu)
{
	int rc = affinity_pin_self(cpu, 0);

	return rc < 0 ? -rc : 0;
}

/* B: answers every call with its own counter. */
static void *answer_main(void *arg)
{
	struct pair_job *j = arg;
	struct line *ln = j->ln;

	j->pin_error = pin(j->cpu);
	if (j->pin_error)
		__atomic_store_n(&ln->fail, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&ln->ready, 1, __ATOMIC_RELEASE);
	if (j->pin_error)
		return 0;
	for (uint64_t k = 1;; k += 2) {
		if (wait_for(&ln->seq, k))
			return 0;
		ln->b = tp_counter_ordered();
		__atomic_store_n(&ln->seq, k + 1, __ATOMIC_RELEASE);
	}
}

/*
 * A (this thread, pinned to cpu_a): calls until the time is up and at
 * least MIN_ROUNDS counted, or the rounds run out, or hard_ns has gone (a
 * peer that is mostly descheduled, as on a loaded host or TCG). The
 * first WARMUP_ROUNDS are not counted: B is still being scheduled in.
 */
#define WARMUP_ROUNDS 16
#define MIN_ROUNDS 200
static int call_rounds(struct line *ln, int64_t duration_ns, int64_t hard_ns,
		       uint64_t max_rounds, struct tscsync_bounds *s)
{
	int64_t start = mono_ns(), end = start + duration_ns, hard_end = start + hard_ns;
	uint64_t k = 1;

	for (uint64_t i = 0; i < max_rounds + WARMUP_ROUNDS; i++, k += 2) {
		uint64_t a0, a1;
		int64_t now;
		int rc;

		a0 = tp_counter_ordered();
		ln->a0 = a0;
		__atomic_store_n(&ln->seq, k, __ATOMIC_RELEASE);
		rc = wait_for(&ln->seq, k + 1);
		a1 = tp_counter_ordered();
		if (rc)
			return rc;
		if (i >= WARMUP_ROUNDS)
			tscsync_add(s, a0, __atomic_load_n(&ln->b, __ATOMIC_RELAXED), a1);
		if (i & 15)
			continue;
		now = mono_ns();
		if (now > hard_end || (now > end && s->samples >= MIN_ROUNDS))
			break;
	}
	return 0;
}

/* The round trips of one ordered pair; 0 or -errno. */
static int measure_pair(int cpu_a, int cpu_b, int64_t duration_ns, int64_t hard_ns,
			uint64_t max_rounds, struct tscsync_bounds *s)
{
	static struct line ln;
	struct pair_job j = { .ln = &ln, .cpu = cpu_b };
	pthread_t tid;
	int rc = -pin(cpu_a);

	tscsync_init(s);
	if (rc)
		return rc;
	memset(&ln, 0, sizeof(ln));
	if (pthread_create(&tid, 0, answer_main, &j))
		return -EAGAIN;
	while (!__atomic_load_n(&ln.ready, __ATOMIC_ACQUIRE))
		cpu_relax();
	if (!__atomic_load_n(&ln.fail, __ATOMIC_ACQUIRE))
		rc = call_rounds(&ln, duration_ns, hard_ns, max_rounds, s);
	__atomic_store_n(&ln.seq, ANSWER_STOP, __ATOMIC_RELEASE);
	pthread_join(tid, 0);
	return j.pin_error ? -j.pin_error : rc;
}

/* ------------------------------------------------------------------ */
/* Records and the matrix                                              */

double tscsync_ns(double ticks, double hz)
{
	return hz > 0 ? ticks * 1e9 / hz : NAN;
}

static void pair_name(const struct pair_id *id, char *name, size_t len)
{
	if (id->a >= 0 && id->b >= 0)
		snprintf(name, len, "offset cpu%d cpu%d", id->a, id->b);
	else
		snprintf(name, len, "offset %s%lld %s%lld", HWID_KEY, (long long)id->hw_a,
			 HWID_KEY, (long long)id->hw_b);
}

void tscsync_emit_pair(const struct pair_id *id, const struct cell *c, double hz, int64_t rejected)
{
	struct tp_rec r;
	char name[64];

	pair_name(id, name, sizeof(name));
	emit_result_begin(&r, P, name);
	tp_rec_str(&r, "when", id->when);
	tp_rec_int(&r, "cpu_a", id->a);
	tp_rec_int(&r, "cpu_b", id->b);
	if (id->hw_a >= 0 && id->hw_b >= 0) {
		tp_rec_int(&r, HWID_KEY "_a", id->hw_a);
		tp_rec_int(&r, HWID_KEY "_b", id->hw_b);
	}
	tp_rec_str(&r, "counter", TP_COUNTER_NAME);
	emit_rec_double(&r, "offset_ns", tscsync_ns(c->e.offset_ticks, hz));
	emit_rec_double(&r, "bound_ns", tscsync_ns(c->e.bound_ticks, hz));
	emit_rec_double(&r, "round_trip_ns", tscsync_ns((double)c->s.min_rtt_ticks, hz));
	tp_rec_uint(&r, "samples", c->s.samples);
	if (rejected >= 0)
		tp_rec_int(&r, "rejected", rejected);
	emit_rec_exact(&r, "offset_ticks", c->e.offset_ticks);
	emit_rec_exact(&r, "bound_ticks", c->e.bound_ticks);
	tp_rec_int(&r, "round_trip_ticks", c->s.min_rtt_ticks);
	tp_rec_bool(&r, "consistent", c->e.consistent);
	tp_rec_bool(&r, "excludes_zero", c->e.excludes_zero);
	emit_end(&r);
}

void tscsync_emit_skip(const char *name, const char *when, const char *reason)
{
	struct tp_rec r;

	emit_begin(&r, "skip");
	tp_rec_str(&r, "probe", P);
	tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "when", when);
	tp_rec_str(&r, "reason", reason);
	emit_end(&r);
	emit_human("  %-40s skipped (%s): %s\n", name, when, reason);
}

static void human_matrix(const char *title, const int *cpus, int n, struct cell *m, double hz,
			 int bound)
{
	emit_human("\n  %s (ns; row A, column B: %s_B - %s_A)\n  %6s", title, TSCSYNC_COUNTER,
		   TSCSYNC_COUNTER, "A \\ B");
	for (int j = 0; j < n; j++)
		emit_human(" %9d", cpus[j]);
	emit_human("\n");
	for (int i = 0; i < n; i++) {
		emit_human("  %6d", cpus[i]);
		for (int j = 0; j < n; j++) {
			const struct cell *c = &m[i * n + j];

			if (i == j || !c->done)
				emit_human(" %9s", "-");
			else
				emit_human(" %9.1f", tscsync_ns(bound ? c->e.bound_ticks : c->e.offset_ticks, hz));
		}
		emit_human("\n");
	}
}

/*
 * Pairs whose two directions contradict each other: B - A measured from A
 * and A - B measured from B (counter values) must agree with opposite signs
 * within the two bounds; if not, the offset moved between the two
 * measurements or a round trip broke the method's assumptions.
 */
static int reverse_disagreements(int n, const struct cell *m)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			const struct cell *ab = &m[i * n + j], *ba = &m[j * n + i];

			if (ab->done && ba->done &&
			    fabs(ab->e.offset_ticks + ba->e.offset_ticks) >
				    ab->e.bound_ticks + ba->e.bound_ticks)
				bad++;
		}
	return bad;
}

static void emit_summary(const int *cpus, int n, int online, const struct cell *m, double hz,
			 const struct probe_ctx *ctx, const struct preos *p, int changed)
{
	double worst = 0, worst_bound = 0;
	int pairs = 0, proven = 0, inconsistent = 0, wa = -1, wb = -1;
	struct tp_rec r;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			const struct cell *c = &m[i * n + j];

			if (!c->done)
				continue;
			pairs++;
			proven += c->e.excludes_zero;
			inconsistent += !c->e.consistent;
			if (fabs(c->e.offset_ticks) >= worst) {
				worst = fabs(c->e.offset_ticks);
				wa = cpus[i];
				wb = cpus[j];
			}
			if (c->e.bound_ticks > worst_bound)
				worst_bound = c->e.bound_ticks;
		}
	emit_result_begin(&r, P, "tscsync summary");
	tp_rec_str(&r, "counter", TP_COUNTER_NAME);
	tp_rec_int(&r, "cpus", online);
	tp_rec_int(&r, "cpus_measured", n);
	tp_rec_bool(&r, "sampled", n < online);
	tp_rec_int(&r, "pairs", pairs);
	if (pairs) {
		emit_rec_double(&r, "max_abs_offset_ns", tscsync_ns(worst, hz));
		tp_rec_int(&r, "max_abs_offset_cpu_a", wa);
		tp_rec_int(&r, "max_abs_offset_cpu_b", wb);
		emit_rec_double(&r, "max_bound_ns", tscsync_ns(worst_bound, hz));
	} else {
		/* no pair behind them: no headline figure, not a 0 */
		tp_rec_null(&r, "max_abs_offset_ns");
		tp_rec_null(&r, "max_abs_offset_cpu_a");
		tp_rec_null(&r, "max_abs_offset_cpu_b");
		tp_rec_null(&r, "max_bound_ns");
	}
	tp_rec_int(&r, "pairs_excluding_zero", proven);
	tp_rec_bool(&r, "any_excludes_zero", proven > 0);
	tp_rec_int(&r, "pairs_inconsistent", inconsistent);
	tp_rec_int(&r, "reverse_disagreements", reverse_disagreements(n, m));
	emit_rec_exact(&r, "tsc_hz", hz);
	tp_rec_str(&r, "tsc_hz_source", ctx->tsc.source ? ctx->tsc.source : "none");
	tscsync_summary_preos(&r, p, changed, hz);
	emit_end(&r);
	if (!pairs) {
		emit_human("\n  no pair measured: every pair failed (see the skip and error records)\n");
		return;
	}
	emit_human("\n  largest |offset| %.1f ns (cpu%d -> cpu%d), largest bound %.1f ns; "
	      "%d of %d pairs prove an offset (interval excludes 0)%s\n",
	      tscsync_ns(worst, hz), wa, wb, tscsync_ns(worst_bound, hz), proven, pairs,
	      inconsistent ? ", some pairs inconsistent (see records)" : "");
}

/* ------------------------------------------------------------------ */
/* Entry                                                               */

int tscsync_pick(const int *all, int n, int *out, int max)
{
	if (n <= max) {
		memcpy(out, all, (size_t)n * sizeof(*out));
		return n;
	}
	for (int i = 0; i < max; i++)
		out[i] = all[(int64_t)i * (n - 1) / (max - 1)];
	return max;
}

/* The CPUs to measure (tscsync_pick() of the allowed ones); -errno. */
static int pick_cpus(int *cpus, int *online)
{
	static int all[CPU_SETSIZE];
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			all[n++] = c;
	*online = n;
	return tscsync_pick(all, n, cpus, TSCSYNC_MAX_CPUS);
}

/*
 * How long one pair may take when its peer is mostly descheduled: half of
 * its share of the time left before the suite's deadline, at least the
 * planned duration, at most HARD_MAX_NS.
 */
#define HARD_MAX_NS NS_PER_S
static int64_t hard_limit(const struct probe_ctx *ctx, int64_t duration_ns, int pairs_left)
{
	int64_t share = HARD_MAX_NS;

	if (ctx->deadline_ns > 0 && pairs_left > 0)
		share = (ctx->deadline_ns - mono_ns()) / pairs_left / 2;
	return share < duration_ns ? duration_ns : share > HARD_MAX_NS ? HARD_MAX_NS : share;
}

/* Every ordered pair of cpus[] after boot: a record or a skip each. */
static void measure_all(const struct probe_ctx *ctx, const int *cpus, int n, int online,
			struct cell *m, double hz)
{
	int64_t duration_ns = (ctx->quick ? 20 : 200) * NS_PER_MS;
	uint64_t max_rounds = ctx->quick ? 20000 : 200000;
	int left = n * (n - 1);

	emit_human("  %d of %d CPUs, %lld ms or %llu round trips per ordered pair, %s at %.0f Hz (%s)\n",
	      n, online, (long long)(duration_ns / NS_PER_MS), (unsigned long long)max_rounds,
	      TSCSYNC_COUNTER, hz, ctx->tsc.source ? ctx->tsc.source : "none");
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			struct pair_id id = { TSCSYNC_POSTBOOT, cpus[i], cpus[j], -1, -1 };
			struct cell *c = &m[i * n + j];
			char name[64], why[96];
			int rc;

			if (i == j)
				continue;
			rc = measure_pair(cpus[i], cpus[j], duration_ns,
					  hard_limit(ctx, duration_ns, left--), max_rounds, &c->s);
			if (!rc && !tscsync_estimate(&c->s, &c->e)) {
				c->done = 1;
				tscsync_emit_pair(&id, c, hz, (int64_t)c->s.rejected);
				continue;
			}
			pair_name(&id, name, sizeof(name));
			snprintf(why, sizeof(why), "pair not measured: %s",
				 rc ? strerror(-rc) : "no round trip completed");
			tscsync_emit_skip(name, TSCSYNC_POSTBOOT, why);
		}
}

/*
 * One CPU has no pair to measure, but its IA32_TSC_ADJUST (pre-OS and now)
 * is still read and told: then the pairs are one skip, and no summary. The
 * counter's frequency for ns: the stub's or the user calibration's
 * (tsccal_probe()), else what the counter claims (arm64's CNTFRQ_EL0).
 */
static enum probe_status run(struct probe_ctx *ctx)
{
	static struct cell m[TSCSYNC_MAX_CPUS * TSCSYNC_MAX_CPUS];
	static struct cpu_names names;
	static struct preos pre;
	const struct preos *p;
	struct adj now[TSCSYNC_MAX_CPUS];
	int cpus[TSCSYNC_MAX_CPUS], online = 0, n, changed;
	double hz;

	if (tsccal_no_counter()) {
		emit_skip(P, 0, tsccal_no_counter());
		return PROBE_SKIPPED;
	}
	n = pick_cpus(cpus, &online);
	if (n < 0) {
		emit_skip(P, 0, "sched_getaffinity failed: cannot pin threads");
		return PROBE_SKIPPED;
	}
	hz = tsccal_probe_or_claim(ctx);
	hwid_names_read(&names);
	if (n >= 2)
		measure_all(ctx, cpus, n, online, m, hz);
	else
		tscsync_emit_skip("offset", TSCSYNC_POSTBOOT,
				  "one CPU online (or allowed to this process): no pair to compare");
	p = tscsync_preos_records(ctx->stub, &names, &pre, hz);
	tscsync_adjust_now(cpus, n, &names.cpuinfo, now);
	if (n >= 2) {
		human_matrix("offset", cpus, n, m, hz, 0);
		human_matrix("bound (half-width)", cpus, n, m, hz, 1);
	}
	changed = tscsync_human_preos(p, cpus, n, n >= 2 ? m : NULL, now, hz);
	if (n >= 2)
		emit_summary(cpus, n, online, m, hz, ctx, p, changed);
	return PROBE_OK;
}

/* The run's estimate (probe.h): its round trips for every pair of CPUs, measured. */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	return ctx->quick ? probe_expect(ctx, 600, 2000) : probe_expect(ctx, 1600, 2500);
}

/* ---- the registry's row (probes/registry.c) ---- */

/*
 * Every key of a tscsync record (struct probe_key). An offset is the
 * centre of an interval each iteration proves (bound is its half-width):
 * iterations combine by intersecting them. ns is the primary unit; ticks
 * are the counter's (the TSC's, or CNTVCT_EL0's on arm64).
 */
static const struct probe_key tscsync_keys[] = {
	PKEY_ID("when", 0, "pre-os (the stub: MP services on x86, PSCI CPU_ON on arm64) or post-boot"),
	PKEY_ID("cpu_a", 0, "the CPU that calls (A)"),
	PKEY_ID("cpu_b", 0, "the CPU that answers (B)"),
	PKEY_CTX("counter", 0, "the counter compared: tsc (x86) or cntvct (arm64)"),
	PKEY_FIG("offset_ns", "ns", PK_ZERO, "counter_B - counter_A, middle of the proven interval"),
	PKEY_FIG("offset_ticks", "ticks", PK_ZERO, "the offset in counter ticks", .same_as = "offset_ns"),
	PKEY_FIG("bound_ns", "ns", PK_LOWER, "half-width of the interval", .half_of = "offset_ns"),
	PKEY_FIG("bound_ticks", "ticks", PK_LOWER, "the half-width in counter ticks",
		 .same_as = "bound_ns", .half_of = "offset_ticks"),
	PKEY_FIG("round_trip_ns", "ns", PK_LOWER, "tightest round trip"),
	PKEY_FIG("round_trip_ticks", "ticks", PK_LOWER, "tightest round trip in counter ticks",
		 .same_as = "round_trip_ns"),
	PKEY_BUDGET("samples", "count", "round trips counted (as many as fit the time)"),
	PKEY_FIG("rejected", "count", PK_LOWER, "round trips where A's counter went back"),
	PKEY_CTX("consistent", 0, "the round trips' intervals intersect"),
	PKEY_CTX("excludes_zero", 0, "an offset is proven"),
	PKEY_CTX("cpus", "count", "CPUs online"),
	PKEY_CTX("cpus_measured", "count", "CPUs in the matrix"),
	PKEY_CTX("sampled", 0, "more CPUs than the matrix holds"),
	PKEY_BUDGET("pairs", "count", "ordered pairs measured"),
	PKEY_FIG("max_abs_offset_ns", "ns", PK_LOWER, "largest |offset| of the pairs"),
	PKEY_CTX("max_abs_offset_cpu_*", 0, "the pair it came from"),
	PKEY_FIG("max_bound_ns", "ns", PK_LOWER, "widest bound of the pairs", .max_of = "bound_ns"),
	PKEY_FIG("pairs_excluding_zero", "count", PK_LOWER, "pairs with a proven offset"),
	PKEY_CTX("any_excludes_zero", 0, "some pair has a proven offset"),
	PKEY_FIG("pairs_inconsistent", "count", PK_LOWER, "pairs whose intervals did not intersect"),
	PKEY_FIG("reverse_disagreements", "count", PK_LOWER, "pairs whose two directions contradict"),
	PKEY_FIG("tsc_hz", "Hz", PK_NEITHER, "the counter's frequency used for ns"),
	PKEY_CTX("tsc_hz_source", 0, "whose figure: stub, user, or cntfrq (CNTFRQ_EL0's claim)"),
	PKEY_CTX("apic_*", 0, "x86: the APIC IDs the stub named the pair by"),
	PKEY_CTX("mpidr_*", 0, "arm64: the MPIDRs the stub named the pair by (tp_mpidr_pack())"),
	PKEY_ID("cpu", 0, "the CPU whose IA32_TSC_ADJUST this is"),
	PKEY_CTX("apic", 0, "its APIC ID"),
	PKEY_FIG("tsc_adjust", "ticks", PK_ZERO, "IA32_TSC_ADJUST (MSR 0x3b), signed ticks"),
	PKEY_FIG("tsc_adjust_changed", "count", PK_LOWER, "CPUs whose IA32_TSC_ADJUST moved between the stub and now"),
	PKEY_BUDGET("preos_pairs", "count", "the stub's pairs"),
	PKEY_FIG("preos_pairs_*", "count", PK_LOWER, "the stub's pairs that prove an offset"),
	PKEY_FIG("preos_max_abs_offset_ns", "ns", PK_LOWER, "largest |offset| of the stub's pairs"),
};

/* The verdict's item (struct probe_verdict; docs/verdict.md): the pairs' worst |offset| + bound. */
static const struct probe_verdict tscsync_verdict[] = {
	{ .lim = { "tsc_offset_ns", "counter: cross-CPU offset, upper bound", "ns", 100, 1000,
		   "below a cache line's trip between CPUs no one sees it" },
	  .place = 3, .key = "max_abs_offset_ns", .plus_key = "max_bound_ns",
	  .from = " (|offset| + bound)" },
};

/*
 * What tscsync's summary tells the tsc_readiness record (struct
 * probe_fact, struct probe_reason; docs/readiness.md): the offsets after
 * boot and before the OS, IA32_TSC_ADJUST's moves; and the run's CPUs (one
 * has no pair to disagree).
 */
static const struct probe_fact tscsync_facts[] = {
	{ .fact = RF_CPUS, .record = "run", .key = "cpus" },
	{ .fact = RF_OFFSET_NS, .key = "max_abs_offset_ns" },
	{ .fact = RF_BOUND_NS, .key = "max_bound_ns" },
	{ .fact = RF_PREOS_OFFSET_NS, .key = "preos_max_abs_offset_ns" },
	{ .fact = RF_ADJUST_CHANGED, .key = "tsc_adjust_changed" },
};

#define SUMMARY "tscsync: tscsync summary"
#define NO_SUMMARY "no tscsync summary (probe tscsync)"

static const struct probe_reason tscsync_reasons[] = {
	{ .rule = { "offset_ns", "cross-CPU offset after boot, |offset| + bound", "ns", 1000,
		    RD_REQUIRED,
		    "any time going back between CPUs is a fault (arch/x86/kernel/tsc_sync.c)", 0 },
	  .place = 4, .fact = RF_OFFSET_NS, .plus = RF_BOUND_NS, .from = SUMMARY,
	  .absent = NO_SUMMARY, .one_cpu = "run: one CPU, no pair" },
	{ .rule = { "preos_offset_ns", "cross-CPU offset before the OS, largest |offset|", "ns",
		    1000, RD_CHECKED,
		    "any time going back between CPUs is a fault (x86 tsc_sync.c)", 0 },
	  .place = 5, .fact = RF_PREOS_OFFSET_NS, .from = SUMMARY, .needs = RF_OFFSET_NS,
	  .needs_absent = NO_SUMMARY,
	  .absent = "no pre-OS pairs (not booted through the stub, or one CPU)" },
	{ .rule = { "tsc_adjust_changed", "CPUs whose IA32_TSC_ADJUST moved after the stub",
		    "count", 0, RD_CHECKED,
		    "firmware writing it hides time (tsc_store_and_check_tsc_adjust)", 0 },
	  .place = 8, .fact = RF_ADJUST_CHANGED, .from = SUMMARY, .no_tsc = "x86 only",
	  .needs = RF_OFFSET_NS, .needs_absent = NO_SUMMARY,
	  .absent = "no stub figures to compare with" },
};

/* Its plot: each post-boot pair's offset, the proven bound as error bars (pre-OS pairs not). */
static const struct show_pairs tscsync_pairs = {
	.base = "tscsync", .a_key = "cpu_a", .b_key = "cpu_b", .key = "offset_ns",
	.bound_key = "bound_ns", .when_key = "when", .when = "post-boot",
	.title = "Counter offset between CPUs (TSC, or CNTVCT on arm64): B - A, error bars: the "
		 "proven bound",
	.xlabel = "ordered pair A>B", .ylabel = "offset (ns)",
	.caption = "The counter offset of each ordered CPU pair (the TSC, or CNTVCT_EL0 on arm64, "
		   "of B minus that of A, in ns) with the bound the round trips prove as error "
		   "bars; runs side by side.",
};

const struct probe tscsync_probe = {
	.name = "tscsync",
	.summary = "counter (TSC, CNTVCT_EL0) offset of every CPU against every other, bounded by round trips",
	.run = run, .limit_quick_s = 30, .limit_full_s = 300, .expect_ms = expect_ms,
	PROBE_FIGURES("max_abs_offset_ns", "offset_ns", "bound_ns", "round_trip_ns", "samples"),
	PROBE_KEYS(tscsync_keys),
	PROBE_VERDICT(tscsync_verdict),
	PROBE_FACTS(tscsync_facts),
	PROBE_REASONS(tscsync_reasons),
	.rounds = { .whole = "each pair bounds its offset from every round trip of one "
			    "window: a shorter window only widens the bound" },
	.show = { .pairs = &tscsync_pairs },
};
