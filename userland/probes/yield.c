// SPDX-License-Identifier: MIT
/*
 * Probe `yield`: how much sched_yield() work N threads get done together
 * (seed 004, Willy Tarreau's and Davide Libenzi's threads.c, lkml 1999-06-10,
 * "More new schedule() results"). For each N of a sweep, N threads loop on
 * sched_yield() and count over one common window of fixed time; the
 * result carries the seed's columns <nb_threads> <total work/s> <avg work>
 * <zero-work threads> <normalized variance>.
 *
 * Not copied from the seed: syscall(158) (sched_yield on i386 only; on x86-64
 * it is arch_prctl), counters in one shared array (false sharing; here each
 * thread has its own cache line), and time(2) at one-second resolution (here
 * CLOCK_MONOTONIC around the common window). Kept from the seed: one window
 * for all threads, opened once every thread runs, and a count taken only
 * while it is open, before each yield.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../ci.h"
#include "../emit.h"
#include "../probe.h"
#include "../stats.h"
#include "../timeutil.h"
#include "yield.h"

#define CACHE_LINE 64
#define STACK_BYTES (64 * 1024)	/* 450 threads x 64 KiB: small for the appliance */
#define QUICK_NS (200 * NS_PER_MS)
#define FULL_NS (3 * NS_PER_S)

static struct int_list thread_counts;	/* --yield-threads=; empty: the default sweep */
static int gnuplot;			/* --yield-gnuplot= */

/* ---- pure helpers (tested in tests/unit/test_yield.c) ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

size_t yield_sweep(int *out, size_t max, const struct int_list *user, int ncpu, int quick)
{
	const int full_set[] = { 1, 2, ncpu, 10, 50, 450 };
	size_t n = 0, k = 0;

	if (user && user->n) {
		for (size_t i = 0; i < user->n && n < max; i++)
			out[n++] = (int)user->v[i];
	} else {
		/* the seed's lkml post compared schedulers at 2, 10 and 450 */
		size_t want = quick ? 4 : sizeof(full_set) / sizeof(full_set[0]);

		for (size_t i = 0; i < want && n < max; i++)
			if (full_set[i] > 0)
				out[n++] = full_set[i];
	}
	qsort(out, n, sizeof(*out), cmp_int);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || out[i] != out[k - 1])
			out[k++] = out[i];
	return k;
}

/* R's rates and spread from its total_yields and window_ns, the N threads'
 * counts in SCRATCH (reordered) and the CPU time of the window. */
static void rates(struct yield_result *r, uint64_t *scratch, size_t n, int64_t cpu_ns)
{
	if (r->window_ns > 0)
		r->total_per_s = (double)r->total_yields * 1e9 / (double)r->window_ns;
	r->avg_per_thread_per_s = r->total_per_s / (double)n;
	r->zero_work_threads = stats_count_zero(scratch, n);
	r->normalized_variance = stats_normalized_variance(scratch, n);
	if (r->total_yields)
		r->ns_per_yield = (double)cpu_ns / (double)r->total_yields;
}

void yield_summarize(const struct yield_sample *s, size_t n, const struct yield_window *w,
		     uint64_t *scratch, struct yield_result *r)
{
	memset(r, 0, sizeof(*r));
	r->threads = (int)n;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		r->total_yields += s[i].count;
		scratch[i] = s[i].count;
		if (s[i].start_ns == 0 || s[i].start_ns > w->open_ns)
			r->late_threads++;
	}
	/* Every counted call began between open and close: the seed divided
	 * the same counts by a time(2) difference, off by up to a second. */
	r->window_ns = w->close_ns - w->open_ns;
	r->start_spread_ns = w->open_ns - w->created_ns;
	rates(r, scratch, n, w->cpu_ns);
}

size_t yield_subwindow_rates(const int64_t *t_ns, const uint64_t *count, size_t k, double *rate,
			     size_t n, size_t max)
{
	for (size_t i = 0; i < k && n < max; i++) {
		if (t_ns[i + 1] <= t_ns[i] || count[i + 1] < count[i])
			continue;
		rate[n++] = (double)(count[i + 1] - count[i]) * 1e9 / (double)(t_ns[i + 1] - t_ns[i]);
	}
	return n;
}

/* total_per_s's interval, relative to the mean, from m sub-window rates. */
static void rates_ci(const double *rate, size_t m, struct yield_result *r)
{
	double sum = 0, ss = 0, mean, lo, hi;

	r->subwindows = 0;
	for (size_t i = 0; i < m; i++)
		sum += rate[i];
	if (m < 2 || !(sum > 0))
		return;
	mean = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (rate[i] - mean) * (rate[i] - mean);
	ci_mean(mean, sqrt(ss / (double)(m - 1)), m, &lo, &hi);
	r->rel_lo = lo > 0 ? lo / mean : 0;
	r->rel_hi = hi / mean;
	r->subwindows = m;
}

void yield_subwindow_ci(const int64_t *t_ns, const uint64_t *count, size_t k,
			struct yield_result *r)
{
	double rate[YIELD_SUBWINDOWS];

	rates_ci(rate, yield_subwindow_rates(t_ns, count, k, rate, 0, YIELD_SUBWINDOWS), r);
}

void yield_pool_add(struct yield_pool *p, uint64_t *counts, const struct yield_sample *s, size_t n,
		    const struct yield_window *w, const int64_t *mark_ns, const uint64_t *mark_count,
		    const struct yield_result *r)
{
	p->threads = (int)n;
	p->rounds++;
	for (size_t i = 0; i < n; i++)
		counts[i] += s[i].count;
	p->total_yields += r->total_yields;
	p->window_ns += w->close_ns - w->open_ns;
	p->cpu_ns += w->cpu_ns;
	if (r->start_spread_ns > p->start_spread_ns)
		p->start_spread_ns = r->start_spread_ns;
	p->vol_ctxsw += r->vol_ctxsw;
	p->invol_ctxsw += r->invol_ctxsw;
	p->late_threads += r->late_threads;
	p->creator_fifo = r->creator_fifo;
	p->nrates = yield_subwindow_rates(mark_ns, mark_count, YIELD_SUBWINDOWS, p->rate, p->nrates,
					  sizeof(p->rate) / sizeof(p->rate[0]));
}

void yield_pool_result(const struct yield_pool *p, const uint64_t *counts, uint64_t *scratch,
		       struct yield_result *r)
{
	size_t n = p->threads > 0 ? (size_t)p->threads : 0;

	memset(r, 0, sizeof(*r));
	r->threads = (int)n;
	if (!n)
		return;
	memcpy(scratch, counts, n * sizeof(*counts));
	r->total_yields = p->total_yields;
	r->window_ns = p->window_ns;
	r->start_spread_ns = p->start_spread_ns;
	r->late_threads = p->late_threads;
	rates(r, scratch, n, p->cpu_ns);
	rates_ci(p->rate, p->nrates, r);
	r->vol_ctxsw = p->vol_ctxsw;
	r->invol_ctxsw = p->invol_ctxsw;
	r->creator_fifo = p->creator_fifo;
}

/* ---- the measurement ---- */

#define START_WAIT_NS (2 * NS_PER_S)

/* The window's phases, one word every thread reads before each yield. */
enum { PHASE_WARM, PHASE_COUNT, PHASE_STOP };

/* What the threads share: each line read by all on a line of its own. */
struct yield_shared {
	_Alignas(CACHE_LINE) atomic_int started;	/* threads running their loop */
	_Alignas(CACHE_LINE) atomic_int phase;		/* read before every yield */
};

/* Each thread's count on its own cache line: the seed's totalwork[] array
 * put eight counters in one line, and every ++ bounced it between CPUs. */
struct yield_worker {
	_Alignas(CACHE_LINE) struct yield_sample s;
	struct yield_shared *sh;
	pthread_t tid;
};

/*
 * A thread yields from the moment it exists, as the reference in
 * tools/bench/sched.sh does: no gate to wake all threads from at once,
 * because a wake-up places the woken near the waker (two threads then
 * shared one CPU and made a third of the calls, while threads placed as
 * they are created spread over the CPUs).
 */
static void *worker(void *arg)
{
	struct yield_worker *w = arg;
	struct yield_shared *sh = w->sh;
	int phase;

	w->s.start_ns = mono_ns();
	atomic_fetch_add(&sh->started, 1);
	/*
	 * The seed's loop: count only while the shared window is open, and
	 * count before the yield, so a thread the scheduler starves through
	 * the whole window scores 0 (threads.c's `if (count) totalwork[thr]++`).
	 */
	while ((phase = atomic_load_explicit(&sh->phase, memory_order_relaxed)) != PHASE_STOP) {
		if (phase == PHASE_COUNT)	/* read by the main thread at each sub-window */
			__atomic_store_n(&w->s.count, w->s.count + 1, __ATOMIC_RELAXED);
		sched_yield();
	}
	return 0;
}

/* Every thread's count so far, summed (each read whole while it counts on). */
static uint64_t counted(struct yield_worker *w, int n)
{
	uint64_t sum = 0;

	for (int i = 0; i < n; i++)
		sum += __atomic_load_n(&w[i].s.count, __ATOMIC_RELAXED);
	return sum;
}

/*
 * The main thread's policy while it starts and stops the threads. A thread
 * yields from the moment it exists, so while k of them yield a fairly
 * scheduled main thread waits for their turns before each next step: under
 * QEMU TCG starting and stopping 450 threads took minutes, growing with the
 * square of the threads. Raised to SCHED_FIFO it is never kept waiting by
 * them, and with SCHED_RESET_ON_FORK every new thread is SCHED_OTHER at
 * nice 0 from its first instant, placed by the fork's own balancing as
 * before. Only from SCHED_OTHER at nice 0 (the reset would change another
 * nice), and only where allowed (CAP_SYS_NICE or RLIMIT_RTPRIO); else
 * nothing changes. The window itself runs at the policy the probe had.
 */
struct creator {
	int policy;			/* as it was, SCHED_RESET_ON_FORK included */
	struct sched_param param;
	int fifo;			/* 1: raised to SCHED_FIFO 1 */
};

static void creator_raise(struct creator *c)
{
	struct sched_param fifo = { .sched_priority = 1 };

	c->fifo = 0;
	/* musl's sched_setscheduler() is a stub (ENOSYS); these set the calling thread */
	if (pthread_getschedparam(pthread_self(), &c->policy, &c->param) || c->policy != SCHED_OTHER)
		return;
	errno = 0;
	if (getpriority(PRIO_PROCESS, 0) != 0 || errno)
		return;
	c->fifo = !pthread_setschedparam(pthread_self(), SCHED_FIFO | SCHED_RESET_ON_FORK, &fifo);
}

static void creator_lower(const struct creator *c)
{
	if (c->fifo)
		pthread_setschedparam(pthread_self(), c->policy, &c->param);
}

/* Creates N threads on W at SH; returns how many (fewer: *ERR says why). */
static int start_threads(struct yield_worker *w, int n, struct yield_shared *sh, int *err)
{
	pthread_attr_t attr;
	int created = 0;

	*err = 0;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_BYTES);
	for (; created < n; created++) {
		w[created].sh = sh;
		*err = pthread_create(&w[created].tid, &attr, worker, &w[created]);
		if (*err)
			break;
	}
	pthread_attr_destroy(&attr);
	return created;
}

/* Tells the N threads of W to stop (again, after a window) and joins them,
 * raised as C allows. */
static void stop_threads(struct yield_worker *w, int n, struct yield_shared *sh, struct creator *c)
{
	atomic_store(&sh->phase, PHASE_STOP);
	creator_raise(c);
	for (int i = 0; i < n; i++)
		pthread_join(w[i].tid, 0);
	creator_lower(c);
}

/*
 * One window for all, opened when the last thread runs (the seed waited
 * for actthreads == nbthreads before raising count): starting N threads
 * can take longer than a quick run's 200 ms under QEMU TCG on a loaded
 * host. Give up waiting after START_WAIT_NS; a thread not yet running
 * then counts only what it does in the window after it starts
 * (late_threads says how many there were).
 */
static void wait_started(struct yield_shared *sh, int n)
{
	int64_t give_up = mono_ns() + START_WAIT_NS;

	while (atomic_load(&sh->started) < n && mono_ns() < give_up)
		usleep(200);
}

/*
 * The common window of the N running threads of W: open, DURATION_NS in
 * YIELD_SUBWINDOWS steps (the counts summed at each step's end into MARK_NS
 * and MARK_COUNT), closed; WIN gets its times and the process's CPU time.
 * Then it tells the threads to stop.
 */
static void measure_window(struct yield_worker *w, int n, struct yield_shared *sh,
			   int64_t duration_ns, struct yield_window *win, int64_t *mark_ns,
			   uint64_t *mark_count)
{
	struct timespec until;

	win->cpu_ns = -now_ns(CLOCK_PROCESS_CPUTIME_ID);
	win->open_ns = mono_ns();
	atomic_store(&sh->phase, PHASE_COUNT);
	mark_ns[0] = win->open_ns;
	mark_count[0] = 0;
	for (int k = 1; k <= YIELD_SUBWINDOWS; k++) {
		until = ns_ts(win->open_ns + duration_ns * k / YIELD_SUBWINDOWS);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, 0) == EINTR)
			;
		mark_ns[k] = mono_ns();
		mark_count[k] = counted(w, n);
	}
	atomic_store(&sh->phase, PHASE_STOP);
	win->close_ns = mono_ns();
	win->cpu_ns += now_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/*
 * Runs N threads for DURATION_NS and fills R (and adds the round to POOL
 * and COUNTS, when given). Returns 0, or -errno with *FAILED_AT set to the
 * thread that could not be created.
 */
static int yield_run(int n, int64_t duration_ns, struct yield_result *r, int *failed_at,
		     struct yield_pool *pool, uint64_t *counts)
{
	struct yield_shared sh = { .started = 0, .phase = PHASE_WARM };
	struct yield_window win = { 0 };
	struct yield_worker *w;
	struct yield_sample *s;
	struct creator cr;
	uint64_t *scratch;
	struct rusage ru0, ru1;
	int64_t mark_ns[YIELD_SUBWINDOWS + 1];
	uint64_t mark_count[YIELD_SUBWINDOWS + 1];
	int created, err;

	w = aligned_alloc(CACHE_LINE, (size_t)n * sizeof(*w));
	s = calloc((size_t)n, sizeof(*s));
	scratch = calloc((size_t)n, sizeof(*scratch));
	if (!w || !s || !scratch) {
		err = ENOMEM;
		*failed_at = 0;
		goto out;
	}
	memset(w, 0, (size_t)n * sizeof(*w));
	win.created_ns = mono_ns();
	creator_raise(&cr);
	created = start_threads(w, n, &sh, &err);
	creator_lower(&cr);
	if (err) {
		*failed_at = created;
		stop_threads(w, created, &sh, &cr);
		goto out;
	}
	wait_started(&sh, n);
	getrusage(RUSAGE_SELF, &ru0);
	measure_window(w, n, &sh, duration_ns, &win, mark_ns, mark_count);
	stop_threads(w, n, &sh, &cr);
	getrusage(RUSAGE_SELF, &ru1);

	for (int i = 0; i < n; i++)
		s[i] = w[i].s;
	yield_summarize(s, (size_t)n, &win, scratch, r);
	yield_subwindow_ci(mark_ns, mark_count, YIELD_SUBWINDOWS, r);
	r->vol_ctxsw = ru1.ru_nvcsw - ru0.ru_nvcsw;
	r->invol_ctxsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
	r->creator_fifo = cr.fifo;
	if (pool)
		yield_pool_add(pool, counts, s, (size_t)n, &win, mark_ns, mark_count, r);
out:
	free(w);
	free(s);
	free(scratch);
	return -err;
}

/* ---- output ---- */

static void emit_yield(const struct yield_result *r, int64_t requested_ns)
{
	struct tp_rec rec;
	char name[32];

	snprintf(name, sizeof(name), "%d threads", r->threads);
	emit_result_begin(&rec, "yield", name);
	tp_rec_int(&rec, "threads", r->threads);
	emit_rec_double(&rec, "total_per_s", r->total_per_s);
	emit_rec_double(&rec, "avg_per_thread_per_s", r->avg_per_thread_per_s);
	if (r->subwindows) {
		ci_emit(&rec, "total_per_s", r->total_per_s * r->rel_lo, r->total_per_s * r->rel_hi,
			r->subwindows);
		ci_emit(&rec, "avg_per_thread_per_s", r->avg_per_thread_per_s * r->rel_lo,
			r->avg_per_thread_per_s * r->rel_hi, r->subwindows);
		/* the process's CPU time is read once: the cost follows the rate */
		if (r->rel_lo > 0)
			ci_emit(&rec, "ns_per_yield", r->ns_per_yield / r->rel_hi,
				r->ns_per_yield / r->rel_lo, r->subwindows);
	}
	tp_rec_uint(&rec, "zero_work_threads", r->zero_work_threads);
	emit_rec_double(&rec, "normalized_variance", r->normalized_variance);
	emit_rec_double(&rec, "ns_per_yield", r->ns_per_yield);
	tp_rec_uint(&rec, "total_yields", r->total_yields);
	tp_rec_int(&rec, "vol_ctxsw", r->vol_ctxsw);
	tp_rec_int(&rec, "invol_ctxsw", r->invol_ctxsw);
	tp_rec_fixed(&rec, "duration_ms", r->window_ns / NS_PER_US, 3);
	tp_rec_int(&rec, "requested_ms", requested_ns / NS_PER_MS);
	tp_rec_fixed(&rec, "start_spread_ms", r->start_spread_ns / NS_PER_US, 3);
	tp_rec_uint(&rec, "late_threads", r->late_threads);
	tp_rec_str(&rec, "creator_policy", r->creator_fifo ? "SCHED_FIFO" : "SCHED_OTHER");
	emit_end(&rec);
	emit_human("%7d %13.0f %13.0f %9zu %10.6f %9.1f %10lld %10lld %8.1f\n",
	      r->threads, r->total_per_s, r->avg_per_thread_per_s, r->zero_work_threads,
	      r->normalized_variance, r->ns_per_yield, (long long)r->vol_ctxsw,
	      (long long)r->invol_ctxsw, (double)r->window_ns / NS_PER_MS);
}

/* Exactly the seed's line: printf("%d\t\t%lld\t\t%d\t\t%d\t\t%f\n", ...). */
static void gnuplot_line(const struct yield_result *r)
{
	emit_human("%d\t\t%lld\t\t%d\t\t%d\t\t%f\n", r->threads, (long long)r->total_per_s,
	      (int)r->avg_per_thread_per_s, (int)r->zero_work_threads, r->normalized_variance);
}

static void table_head(void)
{
	emit_human("%7s %13s %13s %9s %10s %9s %10s %10s %8s\n", "threads", "total/s",
	      "avg/thread/s", "zero-work", "norm.var", "ns/yield", "vol_ctxsw", "invol_ctxsw", "ms");
}

/* The shared state of the rounds (probe.h), or NULL when it runs whole. */
static struct yield_state *round_state(const struct probe_ctx *ctx)
{
	return ctx->rounds > 1 && ctx->state ? ctx->state : 0;
}

/* Where each thread count's per-thread sums start in st->counts. */
static void place_counts(struct yield_state *st, const int *sweep, size_t n)
{
	size_t at = 0;

	for (size_t i = 0; i < n; i++) {
		st->pool[i].counts_at = at;
		at += (size_t)sweep[i];
	}
}

/* The last round: the run's figures of each thread count from all its rounds. */
static size_t emit_pooled(const struct probe_ctx *ctx, struct yield_state *st, const int *sweep, size_t n,
			  int64_t total_ns, struct yield_result *res)
{
	uint64_t *scratch = calloc(YIELD_MAX_THREADS, sizeof(*scratch));
	size_t done = 0;
	char name[32];

	emit_set_round(0);
	table_head();
	for (size_t i = 0; i < n && scratch; i++) {
		const struct yield_pool *p = &st->pool[i];

		snprintf(name, sizeof(name), "%d threads", sweep[i]);
		if (p->failed || p->rounds != ctx->rounds) {
			emit_skip("yield", name, "a round could not create its threads (its round records say why)");
			continue;
		}
		yield_pool_result(p, st->counts + p->counts_at, scratch, &res[done]);
		emit_yield(&res[done++], total_ns);
	}
	free(scratch);
	return done;
}

enum probe_status yield_probe_run(struct probe_ctx *ctx)
{
	int sweep[YIELD_SWEEP_MAX];
	struct yield_result res[YIELD_SWEEP_MAX];
	size_t n = yield_sweep(sweep, YIELD_SWEEP_MAX, &thread_counts, ctx->ncpu, ctx->quick);
	int64_t total_ns = ctx->quick ? QUICK_NS : FULL_NS, duration_ns = probe_round_ns(ctx, total_ns);
	struct yield_state *st = round_state(ctx);
	size_t done = 0;

	if (st)
		place_counts(st, sweep, n);
	table_head();
	for (size_t i = 0; i < n; i++) {
		struct yield_pool *pool = st ? &st->pool[i] : 0;
		int failed_at = 0, rc = yield_run(sweep[i], duration_ns, &res[done], &failed_at, pool,
						  st ? st->counts + pool->counts_at : 0);
		char name[32], why[128];

		if (rc) {
			/* A thread limit (RLIMIT_NPROC, memory) is the machine's,
			 * not a failure of the measurement: skip this N. */
			snprintf(name, sizeof(name), "%d threads", sweep[i]);
			snprintf(why, sizeof(why), "cannot create thread %d of %d: %s",
				 failed_at + 1, sweep[i], strerror(-rc));
			emit_skip("yield", name, why);
			if (pool)
				pool->failed = 1;
			continue;
		}
		emit_yield(&res[done], duration_ns);
		done++;
	}
	if (st && !probe_round_last(ctx))
		return done ? PROBE_OK : PROBE_SKIPPED;
	if (st)
		done = emit_pooled(ctx, st, sweep, n, total_ns, res);
	if (gnuplot) {
		emit_human("# <nb_threads> <total work/s> <avg work> <zero-work threads> <normalized variance>\n");
		for (size_t i = 0; i < done; i++)
			gnuplot_line(&res[i]);
	}
	return done ? PROBE_OK : PROBE_SKIPPED;
}

/* ---- the registry's row (probes/registry.c) ---- */

/*
 * The run's estimate (probe.h): its window per thread count, and starting
 * and stopping the threads: about 50 ms a count on a host (450 threads
 * started in 14 ms); under QEMU TCG about 10 ms a thread, with the main
 * thread raised while it starts and stops them (creator_raise()): 4.4 s
 * from the first of 450 created to the window, the full sweep in 20 s.
 */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	int sweep[YIELD_SWEEP_MAX];
	size_t n = yield_sweep(sweep, YIELD_SWEEP_MAX, &thread_counts, ctx->ncpu, ctx->quick);
	int64_t ms = 0;

	for (size_t i = 0; i < n; i++)
		ms += (ctx->quick ? QUICK_NS : FULL_NS) / NS_PER_MS + probe_expect(ctx, 50, 50) +
		      (int64_t)sweep[i] * probe_expect(ctx, 0, 10);
	return ms;
}

/* The rounds' shared state: a pool per thread count and a sum per thread. */
static size_t state_bytes(const struct probe_ctx *ctx)
{
	int sweep[YIELD_SWEEP_MAX];
	size_t n = yield_sweep(sweep, YIELD_SWEEP_MAX, &thread_counts, ctx->ncpu, ctx->quick), threads = 0;

	for (size_t i = 0; i < n; i++)
		threads += (size_t)sweep[i];
	return sizeof(struct yield_state) + threads * sizeof(uint64_t);
}

static const struct probe_opt yield_opts[] = {
	{ .w = {
		.name = "yield-threads", .type = TP_WT_INTS, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = 1,
		.hi = 4096, .dflt = "1,2,CPUs,10,50,450", .bounds = "1..4096 each",
		.help = "`yield`: thread counts",
	  }, .store = &thread_counts, .was = "threads" },
	{ .w = {
		.name = "yield-gnuplot", .type = TP_WT_BOOL, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .hi = 1,
		.dflt = "0", .help = "`yield`: also print the seed's gnuplot-ready columns",
	  }, .store = &gnuplot, .was = "gnuplot" },
};

/* Every key of a yield record (struct probe_key). */
static const struct probe_key yield_keys[] = {
	PKEY_ID("threads", "count", "threads yielding"),
	PKEY_FIG("total_per_s", "1/s", PK_HIGHER, "yields per second, all threads",
		 .ci = PK_CI_INTERVAL),
	PKEY_FIG("avg_per_thread_per_s", "1/s", PK_HIGHER, "yields per second per thread",
		 .ci = PK_CI_INTERVAL),
	PKEY_FIG("zero_work_threads", "count", PK_LOWER, "threads that counted no call in the common window",
		 .ci = PK_CI_NONE, .kind = PK_KIND_COUNT),
	PKEY_FIG("late_threads", "count", PK_LOWER, "threads not yet running when the window opened",
		 .ci = PK_CI_NONE, .kind = PK_KIND_COUNT),
	PKEY_FIG("normalized_variance", 0, PK_LOWER, "spread between threads", .ci = PK_CI_NONE),
	PKEY_FIG("ns_per_yield", "ns", PK_LOWER, "cost of one yield", .ci = PK_CI_INTERVAL),
	PKEY_FIG("total_yields", "count", PK_HIGHER, "yields counted", .ci = PK_CI_NONE),
	PKEY_FIG("vol_ctxsw", "count", PK_NEITHER, "voluntary context switches", .ci = PK_CI_NONE,
		 .kind = PK_KIND_CONTEXT),
	PKEY_FIG("invol_ctxsw", "count", PK_LOWER, "involuntary context switches",
		 .ci = PK_CI_NONE, .kind = PK_KIND_COUNT),
	PKEY_BUDGET("duration_ms", "ms", "time measured"),
	PKEY_FIG("start_spread_ms", "ms", PK_LOWER,
		 "how far apart the threads started: the last start less the first, an extreme",
		 .ci = PK_CI_NONE, .kind = PK_KIND_MAX),
	PKEY_CTX("requested_ms", "ms", "time asked for"),
	PKEY_CTX("creator_policy", 0, "the main thread's policy while it started and stopped the threads"),
};

/* Its table, by thread count, and its throughput against the thread count. */
static const struct show_layout yield_layout = { "threads", 0, {
	SHOW_COL("threads", "threads"),
	SHOW_COL("total/s", "total_per_s"),
	SHOW_COL("avg", "avg*"),
	SHOW_COL("zero-work", "zero*"),
	SHOW_COL("variance", "*variance*"),
} };

static const struct show_series yield_series = {
	"yield", "sched_yield throughput", "threads", "yields per second, all threads (1/s)",
	"threads", "total_per_s", { 0 }, 0, 0, 0, 0,
	"sched_yield calls per second of all threads together against the number of threads; "
	"higher is better.",
};

const struct probe yield_probe = {
	.name = "yield", .summary = "sched_yield() work of N threads together (threads.c, lkml 1999)",
	.run = yield_probe_run, .limit_quick_s = 30, .limit_full_s = 120, .expect_ms = expect_ms,
	PROBE_OPTS(yield_opts), PROBE_FIGURES("ns_per_yield", "total_per_s"),
	PROBE_KEYS(yield_keys),
	.rounds = { .min_round_ms = 100, .state_bytes = state_bytes },
	.show = { .layout = &yield_layout, .series = &yield_series },
};
