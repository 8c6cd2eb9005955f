// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`, the measurement kernel: batches of reads timed with the
 * TSC (or CLOCK_MONOTONIC_RAW without one), sized to outlast the timer's
 * own cost, taken by all sources in turns; runs of consecutive reads for
 * the granularity; and whether libc's call entered the kernel, counted
 * under ptrace (userland/trace_entry.c) or judged by cost. No records here:
 * clocks_out.c writes them. See clocks_impl.h for the probe's other files.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "../affinity.h"
#include "../stats.h"
#include "../timeutil.h"
#include "../trace_entry.h"
#include "clocks_impl.h"

#define MAX_ITERS (1L << 24)		/* iterations of UNROLL calls per batch */
#define STEP_CHUNK 512			/* consecutive reads per granularity chunk */
#define VDSO_CHECK_CALLS 8		/* calls per libc source under the tracer */
#define TSC_MAXSEC 600			/* cyc2ns range, as the kernel's 600 s */

static const struct plan plan_quick = {
	.batch_min_ns = 50 * NS_PER_US, .budget_ns = 40 * NS_PER_MS, .hard_ns = 1000 * NS_PER_MS,
	.min_batches = 12, .max_batches = 4000, .rounds = 4,
	.step_budget_ns = 30 * NS_PER_MS, .step_min_reads = 4096, .step_min_forward = 4,
};
static const struct plan plan_full = {
	.batch_min_ns = 200 * NS_PER_US, .budget_ns = 500 * NS_PER_MS, .hard_ns = 5000 * NS_PER_MS,
	.min_batches = 100, .max_batches = 20000, .rounds = 10,
	.step_budget_ns = 300 * NS_PER_MS, .step_min_reads = 65536, .step_min_forward = 4,
};

const struct plan *clocks_plan(int quick)
{
	return quick ? &plan_quick : &plan_full;
}

/* Batches are timed with lfence;rdtsc where the TSC works: it does not
 * depend on the clocksource being measured (an acpi_pm read costs 2.5 us). */
static inline uint64_t timer_now(const struct env *e)
{
	return e->have_tsc ? tp_counter_ordered() : (uint64_t)now_ns(CLOCK_MONOTONIC_RAW);
}

double clocks_timer_cost_ns(const struct env *e)
{
	double d[101];

	for (int i = 0; i < 101; i++) {
		uint64_t a = timer_now(e), b = timer_now(e);

		d[i] = (double)(b - a) * e->ns_per_unit;
	}
	return stats_median(d, 101);
}

static int64_t tv_us(const struct timeval *t)
{
	return (int64_t)t->tv_sec * 1000000 + t->tv_usec;
}

/* Grows the batch until it lasts at least batch_min; returns iterations. */
static long size_batch(const struct env *e, const struct source *src)
{
	batch_fn run = clocks_batch_for(src);
	int64_t batch_min = e->plan->batch_min_ns;
	long iters = 1;

	/* the timer's own read must cost under 1 % of a batch */
	if (batch_min < (int64_t)(100 * e->timer_ns))
		batch_min = (int64_t)(100 * e->timer_ns);
	for (;;) {
		double ns = INFINITY;
		long next;

		/* the fastest of three: one interrupted batch must not stop
		 * the sizing at a batch far too short */
		for (int k = 0; k < 3; k++) {
			uint64_t t0 = timer_now(e);

			run(src, iters);
			ns = fmin(ns, (double)(timer_now(e) - t0) * e->ns_per_unit);
		}
		if (ns >= (double)batch_min || iters >= MAX_ITERS)
			return iters;
		next = ns > 0 ? (long)((double)iters * 1.25 * (double)batch_min / ns) + 1 : 2 * iters;
		if (next < 2 * iters)
			next = 2 * iters;
		if (next > 64 * iters)
			next = 64 * iters;
		iters = next < MAX_ITERS ? next : MAX_ITERS;
	}
}

/*
 * One slice of a source's measurement: batches until the slice's share of
 * the budget is spent. The sources take turns slice by slice (plan->rounds),
 * so a slow spell of the machine (a busy sibling thread, a host's
 * neighbour) falls on all of them instead of on whichever ran then.
 */
static void measure_slice(const struct env *e, struct clk_result *res)
{
	const struct plan *p = e->plan;
	batch_fn run = clocks_batch_for(&res->src);
	int min_batches = (p->min_batches + p->rounds - 1) / p->rounds;
	double budget = (double)p->budget_ns / p->rounds, hard = (double)p->hard_ns / p->rounds;
	struct rusage r0, r1;
	uint64_t start;
	int n = 0;

	getrusage(RUSAGE_SELF, &r0);
	start = timer_now(e);
	while (res->batches < p->max_batches) {
		uint64_t t0 = timer_now(e), t1;
		double elapsed;

		res->last = run(&res->src, res->iters);
		t1 = timer_now(e);
		res->batch[res->batches++] = (double)(t1 - t0);
		n++;
		elapsed = (double)(t1 - start) * e->ns_per_unit;
		if ((n >= min_batches && elapsed >= budget) || elapsed >= hard)
			break;
	}
	getrusage(RUSAGE_SELF, &r1);
	res->user_us += tv_us(&r1.ru_utime) - tv_us(&r0.ru_utime);
	res->sys_us += tv_us(&r1.ru_stime) - tv_us(&r0.ru_stime);
	res->vol_ctxsw += r1.ru_nvcsw - r0.ru_nvcsw;
	res->invol_ctxsw += r1.ru_nivcsw - r0.ru_nivcsw;
}

/* The figures of batches [first, batches): this round's (all of them when whole). */
static void finish_cost(const struct env *e, struct clk_result *res)
{
	res->calls_per_batch = (uint64_t)res->iters * UNROLL;
	per_call_figures(res->batch + res->first, (size_t)(res->batches - res->first), res->calls_per_batch,
			 e->ns_per_unit, &res->ns);
	res->batch_ns = res->ns.p50 * (double)res->calls_per_batch;
	res->ticks_p50 = e->have_tsc ? res->ns.p50 / e->ns_per_unit : NAN;
}

/* Consecutive reads until a few steps were seen, or the budget is spent
 * (a coarse clock steps once a tick; time() once a second). */
static void measure_steps(const struct env *e, struct clk_result *res)
{
	int64_t buf[STEP_CHUNK];
	uint64_t start = timer_now(e);
	int64_t elapsed;

	memset(&res->steps, 0, sizeof(res->steps));
	do {
		clocks_fill_reads(&res->src, buf, STEP_CHUNK);
		step_acc_add(&res->steps, buf, STEP_CHUNK);
		elapsed = (int64_t)((double)(timer_now(e) - start) * e->ns_per_unit);
	} while (!(res->steps.reads >= e->plan->step_min_reads &&
		   res->steps.forward >= e->plan->step_min_forward) &&
		 elapsed < e->plan->step_budget_ns);
	res->step_window_ns = elapsed;
}

/* ---- does libc's call enter the kernel? ---- */

/* The traced child's read of source i: libc's call, for libc sources only. */
static void read_libc(void *arg, size_t i)
{
	const struct clk_result *res = arg;
	int64_t v;

	if (!res[i].skipped && res[i].src.via == VIA_LIBC)
		clocks_read_once(&res[i].src, &v);
}

/*
 * Runs every libc source VDSO_CHECK_CALLS times in a traced child and
 * counts the time syscalls each makes: exact, whatever libc and the vDSO
 * decide (musl falls back to the syscall for clocks the vDSO refuses; the
 * vDSO itself falls back when the clocksource cannot be read in user
 * space, e.g. hpet or acpi_pm). 0, or -errno when tracing is not possible
 * here.
 */
static int vdso_check(struct clk_result *res, size_t n)
{
	uint64_t count[MAX_SOURCES];
	int rc = trace_time_syscalls(read_libc, res, n, VDSO_CHECK_CALLS, count);

	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (res[i].skipped || res[i].src.via != VIA_LIBC)
			continue;
		res[i].kernel_entries = (double)count[i] / VDSO_CHECK_CALLS;
		res[i].vdso = count[i] == 0;
	}
	return 0;
}

/* Without the tracer: the libc call against the raw syscall of the same call. */
static void vdso_by_cost_all(struct clk_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (res[i].skipped || res[i].src.via != VIA_LIBC)
			continue;
		for (size_t k = 0; k < n; k++)
			if (!res[k].skipped && res[k].src.via == VIA_SYSCALL &&
			    res[k].src.kind == res[i].src.kind && res[k].src.id == res[i].src.id)
				res[i].vdso = vdso_by_cost(res[i].ns.p50, res[k].ns.p50);
	}
}

/* ---- a block's set-up and its measurements ---- */

void clocks_pin_to_cpu(struct env *e)
{
	e->cpu = sched_getcpu();
	if (e->cpu < 0)
		return;
	/* one CPU: no migration between the reads of a batch, one TSC */
	affinity_pin_self(e->cpu, 0);
}

void clocks_setup_tsc_clock(struct env *e)
{
	struct timespec t;
	uint64_t a, b;

	if (!e->have_tsc || !(e->tsc_hz > 0))
		return;
	clocks_calc_mult_shift(&e->tclk.conv, (uint64_t)llround(e->tsc_hz), NS_PER_S, TSC_MAXSEC);
	a = tp_counter_ordered();
	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	b = tp_counter_ordered();
	e->tclk.base_tsc = a + (b - a) / 2;
	e->tclk.base_ns = ts_ns(&t);
}

void clocks_finish_costs(struct env *e, struct clk_result *res, size_t n)
{
	for (size_t i = 0; i <= n; i++)
		if (!res[i].skipped)
			finish_cost(e, &res[i]);
	e->overhead_ns = res[n].ns.p50;
	if (!e->traced)
		vdso_by_cost_all(res, n);
}

/* Batches in slices; a source's batch is sized once (in rounds: by round 1, iters kept). */
void clocks_measure_costs(struct env *e, struct clk_result *res, size_t n)
{
	for (size_t i = 0; i <= n; i++)
		if (!res[i].skipped && !res[i].iters)
			res[i].iters = size_batch(e, &res[i].src);
	for (int round = 0; round < e->plan->rounds; round++)
		for (size_t i = 0; i <= n; i++)
			if (!res[i].skipped)
				measure_slice(e, &res[i]);
	for (size_t i = 0; i <= n; i++)
		if (!res[i].skipped)
			finish_cost(e, &res[i]);
	e->overhead_ns = res[n].ns.p50;
}

/* The vDSO check, once a run: in rounds, round 1's answer (its slots keep each source's). */
static int vdso_once(struct env *e, struct clk_result *res, size_t n)
{
	int rc;

	if (e->st && e->st->vdso_done)
		return e->st->trace_rc;
	rc = vdso_check(res, n);
	if (e->st) {
		e->st->vdso_done = 1;
		e->st->trace_rc = rc;
	}
	return rc;
}

int clocks_measure_all(struct env *e, struct clk_result *res, size_t n, size_t *measured)
{
	int rc = vdso_once(e, res, n);

	e->traced = rc == 0;
	clocks_measure_costs(e, res, n);
	for (size_t i = 0; i < n; i++) {
		if (res[i].skipped)
			continue;
		measure_steps(e, &res[i]);
		(*measured)++;
	}
	if (!e->traced)
		vdso_by_cost_all(res, n);
	return rc;
}

/* count results, each with room for the plan's batches after them, in one
 * allocation (the table sorts the results: one free() needs no order). */
struct clk_result *clocks_alloc_results(const struct env *e, size_t count)
{
	size_t nb = e->st ? 0 : (size_t)e->plan->max_batches;	/* rounds: in the state */
	struct clk_result *res = calloc(1, count * (sizeof(*res) + nb * sizeof(double)));
	double *buf = (double *)(res + count);

	for (size_t i = 0; res && i < count; i++)
		res[i].batch = buf + i * nb;
	return res;
}
