// SPDX-License-Identifier: MIT
/*
 * Probe `itimer`: what interval setitimer() really delivers (seed 000,
 * Marc Feeley's timer-perf.c, 2008).
 *
 * For ITIMER_REAL, ITIMER_VIRTUAL and ITIMER_PROF, and a POSIX timer on
 * the thread's CPU-time clock, and each requested interval: the interval
 * getitimer() (timer_gettime()) reads back ("claimed"), the seed's
 * "actual" = the process's CPU time per signal (the CPU time of the probe's
 * one thread between the first and the last signal / intervals) and
 * accuracy = actual / claimed x 100, the seed's definition; beside them the
 * wall time per signal (CLOCK_MONOTONIC), which is the same figure only
 * while the probe has a CPU to itself. Like the seed, the process spins in
 * user mode while the timer runs, so the CPU timers advance; optionally
 * with N CPU-burning processes in the background (the seed's "4 and 9
 * parallel runs").
 *
 * Why the figures differ from the request on Linux: ITIMER_REAL is an
 * hrtimer (kernel/time/itimer.c, it_real_fn) and lands close to the request
 * down to tens of us, but is re-armed only when the signal is taken
 * (kernel/signal.c, dequeue_signal()), so a late signal loses the periods
 * that went by; ITIMER_VIRTUAL and ITIMER_PROF are process CPU timers
 * checked only from the scheduler tick (kernel/time/posix-cpu-timers.c,
 * check_cpu_itimer), which sends one signal per tick at most, so below one
 * jiffy (1/CONFIG_HZ) they deliver one signal per tick; a CPU-time POSIX
 * timer is checked the same way (run_posix_cpu_timers()).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "../emit.h"
#include "../load.h"
#include "../probe.h"
#include "../timeutil.h"
#include "itimer.h"

#define MAX_INTERVALS OPT_LIST_MAX
#define MAX_STAMPS 200000


static struct int_list intervals_us;	/* --itimer-us=; empty: the profile's */
static int burners = -1;		/* --itimer-load=; -1: 0, and 2 x CPUs in the appliance */

/*
 * The CPU timers are measured on the thread's CPU clock: the probe has one
 * thread, so it is the process's CPU time, read exactly. The process clock
 * is not: while a process CPU timer is armed, Linux reads
 * CLOCK_PROCESS_CPUTIME_ID from the timer's own sample, updated only at
 * ticks and scheduling events (kernel/time/posix-cpu-timers.c,
 * cpu_clock_sample_group()), which would measure the timer with itself.
 */
struct timer_kind {
	const char *name;
	int which;		/* setitimer()'s; TIMER_POSIX: timer_create() on clock */
	int signo;
	clockid_t clock;	/* what the timer counts: when to stop, and min/max */
	const char *clock_name;
};

#define TIMER_POSIX -1

/*
 * The last row is a POSIX timer on the thread's own CPU-time clock
 * (timer_create(CLOCK_THREAD_CPUTIME_ID), as the kernel selftests'
 * posix_timers.c arms one): it fires on the thread's CPU time, user and
 * system, like ITIMER_PROF does on the process's. Its own signal, so a
 * late one of another row is never taken for one of its.
 */
static const struct timer_kind timers[] = {
	{ "ITIMER_REAL", ITIMER_REAL, SIGALRM, CLOCK_MONOTONIC, "CLOCK_MONOTONIC" },
	{ "ITIMER_VIRTUAL", ITIMER_VIRTUAL, SIGVTALRM, CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID" },
	{ "ITIMER_PROF", ITIMER_PROF, SIGPROF, CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID" },
	{ "timer_create CLOCK_THREAD_CPUTIME_ID", TIMER_POSIX, SIGUSR1, CLOCK_THREAD_CPUTIME_ID,
	  "CLOCK_THREAD_CPUTIME_ID" },
};

static timer_t posix_timer;

/* Arms the row's timer with ON and reads its interval back into GOT;
 * 0, or -errno with *what the call that failed (nothing left armed). */
static int arm(const struct timer_kind *t, const struct itimerval *on, struct itimerval *got,
	       const char **what)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = t->signo };
	struct itimerspec its = { { on->it_interval.tv_sec, on->it_interval.tv_usec * 1000 },
				  { on->it_value.tv_sec, on->it_value.tv_usec * 1000 } }, back;
	int err;

	if (t->which != TIMER_POSIX) {
		*what = "setitimer";
		if (setitimer(t->which, on, 0) < 0)
			return -errno;
		*what = "getitimer";
		if (getitimer(t->which, got) == 0)
			return 0;
		err = -errno;
		setitimer(t->which, &(struct itimerval){ 0 }, 0);
		return err;
	}
	*what = "timer_create";
	if (timer_create(t->clock, &sev, &posix_timer) < 0)
		return -errno;
	*what = "timer_settime";
	if (timer_settime(posix_timer, 0, &its, 0) == 0) {
		*what = "timer_gettime";
		if (timer_gettime(posix_timer, &back) == 0) {
			got->it_interval.tv_sec = back.it_interval.tv_sec;
			got->it_interval.tv_usec = back.it_interval.tv_nsec / 1000;
			return 0;
		}
	}
	err = -errno;
	timer_delete(posix_timer);
	return err;
}

static void disarm(const struct timer_kind *t)
{
	if (t->which == TIMER_POSIX)
		timer_delete(posix_timer);
	else
		setitimer(t->which, &(struct itimerval){ 0 }, 0);
}

/* ---- measurement ---- */

/*
 * What the signal handler writes; file scope because a handler has no
 * other way to reach it.
 *
 * Reading the thread's CPU clock enters the kernel and updates the
 * scheduler's account of the running task (task_sched_runtime() ->
 * update_curr()), which under EEVDF also ends a used-up slice at once
 * instead of at the next tick (update_deadline()). Read at every
 * ITIMER_REAL signal, that shortened the probe's slices under load and so
 * its CPU time per signal (0.73 of the timer-perf-style reference at
 * 1000 us, load 4 on 2 CPUs). So for ITIMER_REAL the CPU clock is read only
 * at the first signal and at the closing one, as the seed read it only
 * around its loop; the CPU timers' signals come from the tick, after
 * the tick's own update, so they are stamped at every signal.
 */
static struct {
	int64_t *cpu;		/* the thread's CPU time at a signal (see above) */
	int64_t *wall;		/* CLOCK_MONOTONIC at each signal */
	size_t cap;
	int every_cpu;		/* the CPU clock at every signal, not only the ends */
	volatile sig_atomic_t want_close;	/* the loop asks: CPU stamp at the next one */
	volatile size_t closed;	/* signals up to and with the closing one, or 0 */
	volatile size_t n;
} hs;

static void on_signal(int sig)
{
	size_t i = hs.n;
	int saved = errno;

	(void)sig;
	if (i < hs.cap && !hs.closed) {
		struct timespec t;

		/* async-signal-safe (signal-safety(7)) */
		if (hs.every_cpu || i == 0 || hs.want_close) {
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
			hs.cpu[i] = ts_ns(&t);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		hs.wall[i] = ts_ns(&t);
		if (hs.want_close)
			hs.closed = i + 1;
		/* the stamps before the count, for the loop reading them */
		atomic_signal_fence(memory_order_release);
		hs.n = i + 1;
	}
	errno = saved;
}

static volatile uint64_t sink;

/* User-mode work only: VIRTUAL counts user time, so the loop must not spend
 * its time in system calls. */
static void spin(uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		sink++;
}

/* Iterations of spin() that take about 500 us here, so the loop looks at
 * the wall clock rarely (a vDSO read, or a cheap system call). */
static uint64_t spin_chunk(void)
{
	uint64_t n = 1 << 12;

	for (;;) {
		int64_t t0 = mono_ns();

		spin(n);
		int64_t dt = mono_ns() - t0;

		if (dt >= 2 * NS_PER_MS || n >= (1ULL << 32))
			return dt > 0 ? n * (500 * NS_PER_US) / (uint64_t)dt + 1 : n;
		n *= 2;
	}
}

struct itimer_cfg {
	const struct timer_kind *t;
	int64_t requested_us;
	int64_t budget_ns;	/* on the timer's own clock */
	size_t min_signals;
	int64_t wall_cap_ns;	/* give up after this much wall time */
	uint64_t chunk;
};

struct itimer_out {
	int err;		/* -errno of setitimer/getitimer, or 0 */
	const char *what;	/* the call that failed */
	int64_t claimed_us;	/* it_interval read back */
	int64_t wall_ns;	/* how long the measurement ran */
	size_t seen;		/* signals taken, closed or not */
	struct itimer_interval_stats st;	/* the single intervals on the timer's clock */
	int64_t cpu_span_ns;	/* CPU time from the first signal to the last */
	int64_t wall_span_ns;	/* wall time from the first signal to the last */
	int64_t cpu_ns;		/* CPU time of the whole measurement */
	long nivcsw;		/* involuntary switches during it */
};

/* How long to wait for the signal that closes the CPU-time span. */
static int64_t close_ns(const struct itimer_cfg *c)
{
	return 4 * c->requested_us * NS_PER_US + 500 * NS_PER_MS;
}

/* Spins until the signals are enough, then until one more closes the
 * CPU-time span (or close_ns() of wall time went by without one). */
static void spin_until_closed(const struct itimer_cfg *c, const int64_t *stamp, size_t cap, int64_t t0)
{
	int64_t close_by = 0;

	for (;;) {
		size_t n;
		int64_t now;

		spin(c->chunk);
		n = hs.n;
		atomic_signal_fence(memory_order_acquire);
		if (hs.closed)
			return;
		now = mono_ns();
		if (close_by) {
			if (now >= close_by)
				return;
		} else if (n + 1 >= cap || (n >= c->min_signals && stamp[n - 1] - stamp[0] >= c->budget_ns) ||
			   now - t0 >= c->wall_cap_ns) {
			hs.want_close = 1;
			close_by = now + close_ns(c);
		}
	}
}

/* The tight part: arm, spin until enough signals, disarm. */
static void measure(const struct itimer_cfg *c, int64_t *cpu, int64_t *wall, size_t cap,
		    struct itimer_out *o)
{
	struct itimerval on = { 0 }, got = { 0 };
	struct rusage ru0, ru1;
	int real = c->t->clock == CLOCK_MONOTONIC;
	int64_t t0, cpu0;
	size_t n;

	memset(o, 0, sizeof(*o));
	hs.cpu = cpu;
	hs.wall = wall;
	hs.cap = cap;
	hs.every_cpu = !real;
	hs.want_close = 0;
	hs.closed = 0;
	hs.n = 0;
	on.it_interval.tv_sec = c->requested_us / 1000000;
	on.it_interval.tv_usec = c->requested_us % 1000000;
	on.it_value = on.it_interval;

	getrusage(RUSAGE_THREAD, &ru0);
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = mono_ns();
	if ((o->err = arm(c->t, &on, &got, &o->what)))
		return;
	/* stop on the clock the timer counts */
	spin_until_closed(c, real ? wall : cpu, cap, t0);
	disarm(c->t);
	o->wall_ns = mono_ns() - t0;
	o->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	getrusage(RUSAGE_THREAD, &ru1);
	o->nivcsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
	o->claimed_us = tv_ns(&got.it_interval) / NS_PER_US;
	o->seen = hs.n < cap ? hs.n : cap;
	/* ITIMER_REAL has a CPU stamp only at the first and the closing signal */
	n = hs.closed ? hs.closed : real ? 0 : o->seen;
	itimer_interval_stats(real ? wall : cpu, n, &o->st);
	if (n >= 2) {
		o->cpu_span_ns = cpu[n - 1] - cpu[0];
		o->wall_span_ns = wall[n - 1] - wall[0];
	}
}

/* ---- output ---- */

static void skip_one(const struct itimer_cfg *c, int load, const char *name, const struct itimer_out *o)
{
	char why[160];
	struct tp_rec r;

	if (o->err)
		snprintf(why, sizeof(why), "%s(%s, %lld us): %s", o->what, c->t->name,
			 (long long)c->requested_us, strerror(-o->err));
	else if (o->seen >= 2)
		snprintf(why, sizeof(why), "%zu signals, then none within %.1f s to close the CPU-time span",
			 o->seen, (double)close_ns(c) / NS_PER_S);
	else
		snprintf(why, sizeof(why), "%zu signal(s) in %.1f s of wall time, need 2",
			 o->seen, (double)o->wall_ns / NS_PER_S);
	emit_begin(&r, "skip");
	tp_rec_str(&r, "probe", "itimer");
	tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "timer", c->t->name);
	tp_rec_int(&r, "load", load);
	tp_rec_int(&r, "requested_us", c->requested_us);
	tp_rec_str(&r, "reason", why);
	emit_end(&r);
	emit_human("%8lld  skipped: %s\n", (long long)c->requested_us, why);
}

/*
 * The headline is the seed's: actual_us = CPU time per signal, computed
 * from the record's own cpu_span_ns and signals; wall time per signal
 * beside it from wall_span_ns. min, max and stddev are the spread of the
 * single intervals on the clock the timer counts (wall for ITIMER_REAL).
 */
static void emit_one(const struct itimer_cfg *c, int load, const struct itimer_out *o)
{
	char name[64];
	struct tp_rec r;
	double claimed_us = (double)o->claimed_us;
	double actual_us = itimer_per_signal_us(o->cpu_span_ns, o->st.signals);
	double wall_us = itimer_per_signal_us(o->wall_span_ns, o->st.signals);
	double slice_us = itimer_slice_us(o->cpu_ns, o->nivcsw);

	snprintf(name, sizeof(name), "%s %lldus", c->t->name, (long long)c->requested_us);
	if (o->err || o->st.intervals == 0) {
		skip_one(c, load, name, o);
		return;
	}
	emit_result_begin(&r, "itimer", name);
	tp_rec_str(&r, "timer", c->t->name);
	tp_rec_int(&r, "load", load);
	tp_rec_int(&r, "requested_us", c->requested_us);
	tp_rec_int(&r, "claimed_us", o->claimed_us);
	emit_rec_double(&r, "actual_us", actual_us);
	emit_rec_double(&r, "accuracy_pct", itimer_accuracy_pct(actual_us, claimed_us));
	emit_rec_double(&r, "wall_us_per_signal", wall_us);
	emit_rec_double(&r, "wall_accuracy_pct", itimer_accuracy_pct(wall_us, claimed_us));
	tp_rec_int(&r, "cpu_span_ns", o->cpu_span_ns);
	tp_rec_int(&r, "wall_span_ns", o->wall_span_ns);
	emit_rec_double(&r, "min_us", o->st.min_ns / NS_PER_US);
	emit_rec_double(&r, "max_us", o->st.max_ns / NS_PER_US);
	emit_rec_double(&r, "stddev_us", o->st.stddev_ns / NS_PER_US);
	tp_rec_uint(&r, "signals", o->st.signals);
	tp_rec_str(&r, "actual_clock", "CLOCK_THREAD_CPUTIME_ID");
	tp_rec_str(&r, "interval_clock", c->t->clock_name);
	emit_rec_double(&r, "wall_s", (double)o->wall_ns / NS_PER_S);
	if (c->t->which == ITIMER_REAL) {
		/* the slice the probe ran in, and the model it gives */
		tp_rec_int(&r, "involuntary_switches", o->nivcsw);
		emit_rec_double(&r, "cpu_slice_us", slice_us);
		emit_rec_double(&r, "model_cpu_us_per_signal", itimer_model_cpu_per_signal_us(claimed_us, slice_us));
	}
	emit_end(&r);
	emit_human("%8lld %8lld %8.0f (%3.0f%%)   %8.0f %8.0f %8.1f %7zu %8.0f (%3.0f%%)",
	      (long long)c->requested_us, (long long)o->claimed_us, actual_us,
	      itimer_accuracy_pct(actual_us, claimed_us), o->st.min_ns / NS_PER_US, o->st.max_ns / NS_PER_US,
	      o->st.stddev_ns / NS_PER_US, o->st.signals, wall_us, itimer_accuracy_pct(wall_us, claimed_us));
	if (c->t->which == ITIMER_REAL)
		emit_human(" %8.0f %8.0f", slice_us, itimer_model_cpu_per_signal_us(claimed_us, slice_us));
	emit_human("\n");
}

#define BUDGET_NS(ctx) ((ctx)->quick ? 200 * NS_PER_MS : 1 * NS_PER_S)	/* per interval */
#define MIN_SIGNALS(ctx) ((ctx)->quick ? 5 : 11)

/* How long one interval of one timer is measured: its budget or its signals. */
static int64_t interval_ns(const struct probe_ctx *ctx, int64_t us)
{
	int64_t want = us * NS_PER_US * MIN_SIGNALS(ctx);

	return BUDGET_NS(ctx) > want ? BUDGET_NS(ctx) : want;
}

#define NTIMERS (sizeof(timers) / sizeof(*timers))

/*
 * Rounds (docs/probes/itimer.md, "Rounds"): what one load, timer and
 * interval gave over the rounds, in the suite's shared memory: its
 * intervals' count, sum, sum of squares, least and largest (each round's
 * intervals, never one across two rounds), its spans and times summed.
 */
struct itimer_pool {
	int rounds;			/* rounds added */
	int bad;			/* a round could not measure it: bad_o says why */
	struct itimer_out bad_o;
	size_t intervals;
	double sum_ns, sumsq_ns, min_ns, max_ns;
	int64_t cpu_span_ns, wall_span_ns, cpu_ns, wall_ns, claimed_us;
	long nivcsw;
};

static void pool_add(struct itimer_pool *p, const struct itimer_out *o)
{
	const struct itimer_interval_stats *st = &o->st;
	double n = (double)st->intervals;

	if (o->err || !st->intervals) {
		if (!p->bad)
			p->bad_o = *o;
		p->bad = 1;
		return;
	}
	if (!p->intervals || st->min_ns < p->min_ns)
		p->min_ns = st->min_ns;
	if (!p->intervals || st->max_ns > p->max_ns)
		p->max_ns = st->max_ns;
	p->rounds++;
	p->intervals += st->intervals;
	p->sum_ns += st->mean_ns * n;
	p->sumsq_ns += st->stddev_ns * st->stddev_ns * (n - 1) + n * st->mean_ns * st->mean_ns;
	p->cpu_span_ns += o->cpu_span_ns;
	p->wall_span_ns += o->wall_span_ns;
	p->cpu_ns += o->cpu_ns;
	p->wall_ns += o->wall_ns;
	p->nivcsw += o->nivcsw;
	p->claimed_us = o->claimed_us;
}

/*
 * The run's figures as one window holding every round's intervals: its
 * signals one more than the intervals, so that per signal is every span
 * over every interval.
 */
static void pool_out(const struct itimer_pool *p, struct itimer_out *o)
{
	double n = (double)p->intervals, mean = n > 0 ? p->sum_ns / n : 0;

	memset(o, 0, sizeof(*o));
	o->st.intervals = p->intervals;
	o->st.signals = p->intervals + 1;
	o->st.mean_ns = mean;
	o->st.min_ns = p->min_ns;
	o->st.max_ns = p->max_ns;
	o->st.stddev_ns = n > 1 ? sqrt(fmax(0, (p->sumsq_ns - n * mean * mean) / (n - 1))) : 0;
	o->cpu_span_ns = p->cpu_span_ns;
	o->wall_span_ns = p->wall_span_ns;
	o->cpu_ns = p->cpu_ns;
	o->wall_ns = p->wall_ns;
	o->nivcsw = p->nivcsw;
	o->claimed_us = p->claimed_us;
	o->seen = p->intervals + 1;
}

static void table_head(const struct timer_kind *t, int load)
{
	emit_human("\n%s, load %d: requested, claimed and actual intervals in us and accuracy\n", t->name, load);
	emit_human("%8s %8s %8s %6s   %8s %8s %8s %7s %8s %6s", "request", "claimed", "actual", "acc",
	      "min", "max", "stddev", "signals", "wall/sig", "acc");
	if (t->which == ITIMER_REAL)
		emit_human(" %8s %8s", "slice", "model");
	emit_human("\n");
}

/* This round's least signals: the rounds' intervals add up to the whole run's least. */
static size_t round_min_signals(const struct probe_ctx *ctx)
{
	size_t n = MIN_SIGNALS(ctx), r = ctx->rounds > 1 ? (size_t)ctx->rounds : 1;

	return r > 1 ? (n - 1 + r - 1) / r + 1 : n;
}

/*
 * This round's budget on the timer's own clock (the wall for ITIMER_REAL,
 * else the thread's CPU time): what the rounds' spans so far (POOL) lack of
 * ROUND/ROUNDS of the run's. A window ends past its budget, and its closing
 * signal adds one more interval; each round's excess comes off the next, so
 * that the rounds together span the run's budget as one window does (not an
 * interval or two more per round), at least one interval a round.
 */
static int64_t round_budget_ns(const struct probe_ctx *ctx, const struct itimer_pool *pool, int real)
{
	int64_t due, done;

	if (!pool || ctx->rounds <= 1)
		return BUDGET_NS(ctx);
	due = BUDGET_NS(ctx) / ctx->rounds * ctx->round;
	done = real ? pool->wall_span_ns : pool->cpu_span_ns;
	return due > done ? due - done : 0;
}

/* The last round: each load, timer and interval's run record over every round. */
static int emit_pooled(const struct itimer_pool *pool, const int *loads, size_t nloads, const int64_t *us,
		       size_t nus)
{
	int measured = 0;

	emit_set_round(0);
	for (size_t l = 0; l < nloads; l++)
		for (size_t t = 0; t < NTIMERS; t++) {
			table_head(&timers[t], loads[l]);
			for (size_t i = 0; i < nus; i++) {
				const struct itimer_pool *p = &pool[(l * NTIMERS + t) * nus + i];
				struct itimer_cfg c = { .t = &timers[t], .requested_us = us[i] };
				struct itimer_out o;

				if (p->bad)
					o = p->bad_o;
				else
					pool_out(p, &o);
				emit_one(&c, loads[l], &o);
				measured += !p->bad && p->intervals;
			}
		}
	return measured;
}

enum probe_status itimer_probe_run(struct probe_ctx *ctx)
{
	int64_t us[MAX_INTERVALS];
	int loads[ITIMER_MAX_LOADS];
	size_t nus = itimer_intervals(&intervals_us, ctx->quick, us, MAX_INTERVALS);
	size_t nloads = itimer_loads(burners, ctx->appliance, ctx->ncpu, loads);
	size_t min_signals = round_min_signals(ctx);
	int64_t *cpu = calloc(MAX_STAMPS, sizeof(*cpu));
	int64_t *wall = calloc(MAX_STAMPS, sizeof(*wall));
	uint64_t chunk = spin_chunk();
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct itimer_pool *pool = ctx->rounds > 1 ? ctx->state : 0;
	int measured = 0;

	if (!cpu || !wall) {
		free(cpu);
		free(wall);
		emit_error("itimer", 0, "out of memory for time stamps");
		return PROBE_FAILED;
	}
	sigemptyset(&sa.sa_mask);
	for (size_t t = 0; t < NTIMERS; t++)
		sigaction(timers[t].signo, &sa, 0);

	for (size_t l = 0; l < nloads; l++) {
		struct load ld = { 0 };
		int rc = load_start(&ld, loads[l]);
		/* Our share of a CPU under load: the CPU timers advance this
		 * much slower than the wall clock. */
		double slow = ctx->ncpu > 0 && loads[l] + 1 > ctx->ncpu ? (double)(loads[l] + 1) / ctx->ncpu : 1;

		if (rc) {
			char why[96];

			snprintf(why, sizeof(why), "could not start %d CPU burners: %s", loads[l], strerror(-rc));
			emit_error("itimer", "load", why);
			continue;
		}
		for (size_t t = 0; t < NTIMERS; t++) {
			table_head(&timers[t], loads[l]);
			for (size_t i = 0; i < nus; i++) {
				struct itimer_pool *p = pool ? &pool[(l * NTIMERS + t) * nus + i] : 0;
				int64_t want = us[i] * NS_PER_US * (int64_t)min_signals;
				int64_t budget_ns = round_budget_ns(ctx, p, timers[t].clock == CLOCK_MONOTONIC);
				struct itimer_cfg c = {
					.t = &timers[t], .requested_us = us[i],
					.budget_ns = budget_ns, .min_signals = min_signals, .chunk = chunk,
				};
				struct itimer_out o;
				size_t cap = (size_t)(2 * (budget_ns > want ? budget_ns : want) / (us[i] * NS_PER_US)) + 16;

				/* Room for 3x the expected time, more when CPU
				 * time is shared, and for a coarse timer. */
				c.wall_cap_ns = (int64_t)(3.0 * (double)(budget_ns > want ? budget_ns : want) *
							  (timers[t].clock == CLOCK_MONOTONIC ? 1.0 : slow))
						+ 500 * NS_PER_MS;
				measure(&c, cpu, wall, cap < MAX_STAMPS ? cap : MAX_STAMPS, &o);
				emit_one(&c, loads[l], &o);
				if (p)
					pool_add(p, &o);
				measured += !o.err && o.st.intervals;
			}
		}
		load_stop(&ld);
	}
	for (size_t t = 0; t < NTIMERS; t++)
		signal(timers[t].signo, SIG_IGN);	/* a late one must not kill us */
	free(cpu);
	free(wall);
	if (pool && probe_round_last(ctx))
		measured = emit_pooled(pool, loads, nloads, us, nus);
	return measured ? PROBE_OK : PROBE_SKIPPED;
}

/* The rounds' shared state: a pool per load, timer and interval. */
static size_t state_bytes(const struct probe_ctx *ctx)
{
	int64_t us[MAX_INTERVALS];
	int loads[ITIMER_MAX_LOADS];
	size_t nus = itimer_intervals(&intervals_us, ctx->quick, us, MAX_INTERVALS);
	size_t nloads = itimer_loads(burners, ctx->appliance, ctx->ncpu, loads);

	return nloads * NTIMERS * nus * sizeof(struct itimer_pool);
}

/*
 * The run's estimate (probe.h): every load, timer and interval runs for its
 * budget or its minimum of signals, whichever is longer; half as long again
 * on a host (the CPU timers run on CPU time, which other work slows), 1.7
 * times under QEMU TCG (measured there: profile full 132 s quiet and 142 s
 * beside stress-ng --cpu 2, quick 8.1 s).
 */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	int64_t us[MAX_INTERVALS], ns = 0;
	int loads[ITIMER_MAX_LOADS];
	size_t nus = itimer_intervals(&intervals_us, ctx->quick, us, MAX_INTERVALS);
	size_t nloads = itimer_loads(burners, ctx->appliance, ctx->ncpu, loads);

	for (size_t i = 0; i < nus; i++)
		ns += interval_ns(ctx, us[i]);
	ns *= (int64_t)(nloads * (sizeof(timers) / sizeof(*timers)));
	return ns / NS_PER_MS * probe_expect(ctx, 15, 17) / 10;
}

/* ---- the registry's row (probes/registry.c) ---- */

static const struct probe_opt itimer_opts[] = {
	{ .w = {
		.name = "itimer-us", .type = TP_WT_INTS, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = 1,
		.hi = 10000000, .dflt = "100000,50000,20000,10000,5000,2000,1000,500,200,100",
		.bounds = "1..10000000 each", .help = "`itimer`: requested intervals",
	  }, .store = &intervals_us },
	{ .w = {
		.name = "itimer-load", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .lo = -1, .hi = 1024,
		.def = -1, .dflt = "0 and 2 × CPUs", .dflt_host = "0",
		.help = "`itimer`: CPU-burning processes in the background (-1: the default for where it runs)",
	  }, .store = &burners, .was = "load", .by_env = 1, .env_def = { -1, 0 } },
};

/* Every key of an itimer record (struct probe_key). */
static const struct probe_key itimer_keys[] = {
	PKEY_ID("timer", 0, "ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF, timer_create CLOCK_THREAD_CPUTIME_ID"),
	PKEY_ID("load", "count", "CPU-burning processes in the background"),
	PKEY_ID("requested_us", "us", "the interval asked for"),
	PKEY_FIG("claimed_us", "us", PK_NEITHER, "the interval getitimer() gave back"),
	PKEY_FIG("actual_us", "us", PK_NEITHER,
		 "CPU time per signal, the seed's actual (older records: ITIMER_REAL in wall time)"),
	PKEY_FIG("accuracy_pct", "%", PK_NEITHER, "actual / claimed"),
	PKEY_FIG("wall_us_per_signal", "us", PK_NEITHER, "wall time per signal (CLOCK_MONOTONIC)"),
	PKEY_FIG("wall_accuracy_pct", "%", PK_NEITHER, "wall time per signal / claimed"),
	PKEY_CTX("cpu_span_ns", "ns", "CPU time from the first signal to the last"),
	PKEY_CTX("wall_span_ns", "ns", "wall time from the first signal to the last"),
	PKEY_FIG("min_us", "us", PK_NEITHER, "shortest interval"),
	PKEY_FIG("max_us", "us", PK_NEITHER, "longest interval", .kind = PK_KIND_MAX),
	PKEY_FIG("stddev_us", "us", PK_LOWER, "spread of the intervals"),
	PKEY_BUDGET("signals", "count", "signals received (at least a minimum, for at least a time)"),
	PKEY_BUDGET("wall_s", "s", "time the measurement took"),
	PKEY_FIG("cpu_us_per_signal", "us", PK_LOWER, "older records, ITIMER_REAL: CPU time per signal (now actual_us)"),
	PKEY_FIG("cpu_accuracy_pct", "%", PK_NEITHER, "older records, ITIMER_REAL: CPU time per signal / claimed"),
	PKEY_FIG("involuntary_switches", "count", PK_LOWER, "ITIMER_REAL: times the probe lost the CPU",
		 .kind = PK_KIND_COUNT),
	/* the model's input (0: never lost the CPU) and its prediction: they explain, not compare */
	PKEY_CTX("cpu_slice_us", "us", "ITIMER_REAL: mean CPU time per slice (0: never lost the CPU)"),
	PKEY_CTX("model_cpu_us_per_signal", "us", "ITIMER_REAL: the model's CPU time per signal"),
	PKEY_CTX("actual_clock", 0, "the clock of actual_us (older records: of the intervals)"),
	PKEY_CTX("interval_clock", 0, "the clock of min_us, max_us and stddev_us: the one the timer counts"),
};

/*
 * The verdict's item (struct probe_verdict; docs/verdict.md): the error of
 * the interval, wall time per signal against the interval claimed, in %
 * (its accuracy less 100), the worst of ITIMER_REAL's.
 */
static const struct probe_verdict itimer_verdict[] = {
	{ .lim = { "itimer_error_pct", "timer accuracy: ITIMER_REAL's worst error", "%", 1, 10,
		   "a periodic timer 10 % off misses every tenth period" },
	  .place = 9, .key = "wall_accuracy_pct", .add = -100, .pick = PP_LARGEST,
	  .where = { RW_IS("timer", "ITIMER_REAL") } },
};

/* Its table: each timer's interval as asked, claimed and delivered. */
static const struct show_layout itimer_layout = { 0, 0, {
	SHOW_COL("timer", "timer"),
	SHOW_COL("load", "load"),
	SHOW_COL("requested", "requested_us"),
	SHOW_COL("claimed", "claimed_us"),
	SHOW_COL2("actual (accuracy)", "actual_us", "accuracy_pct", " (", " %)"),
} };

/* Its chart: each timer's accuracy, a panel per requested interval, 100 % marked. */
static const struct show_bars itimer_bars = {
	.kind = SHOW_BARS_BY_PANEL, .base = "itimer", .key = "accuracy_pct",
	.title = "Interval timer accuracy (actual / requested, %)",
	.xlabel = "actual / requested interval (%, log scale)",
	.caption = "Interval timer accuracy: the interval each timer delivered as a percentage of "
		   "the one requested (100 % is exact; dashed line), one panel per requested "
		   "interval, one bar per run.",
	.panel_key = "requested_us", .panel_pre = "requested interval ",
	.panel_post = " µs: actual / requested (%)",
	.label_key = "timer", .label_num_key = "load", .mark_x = 100,
};

const struct probe itimer_probe = {
	.name = "itimer",
	.summary = "setitimer: requested vs claimed vs actual interval, with load (timer-perf.c, 2008)",
	.run = itimer_probe_run, .limit_quick_s = 60, .limit_full_s = 600, .expect_ms = expect_ms,
	PROBE_OPTS(itimer_opts), PROBE_FIGURES("actual_us", "claimed_us", "accuracy_pct", "wall_us_per_signal"),
	PROBE_KEYS(itimer_keys),
	PROBE_VERDICT(itimer_verdict),
	.rounds = { .min_round_ms = 1000, .state_bytes = state_bytes },
	.show = { .layout = &itimer_layout, .bars = &itimer_bars },
};
