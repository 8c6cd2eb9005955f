// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`: what one read of the time costs, how fine it is and what it
 * does to the system (seeds 001 bench_time and 003 clockvergleich).
 *
 * Sources: time(), gettimeofday() and clock_gettime() for every clock id,
 * each through libc (which uses the vDSO where the kernel serves the clock
 * there) and as a raw syscall; rdtsc, lfence;rdtsc and rdtscp; and a
 * calibrated user-space TSC clock. Per source: the median, min and p99 over
 * batches of the per-call mean, in ns and TSC ticks; clock_getres(); the
 * smallest step and backward steps seen between consecutive reads;
 * getrusage() around the measurement; the last value read.
 *
 * With the clocksource sweep (appliance, or --clocksource-sweep=1 as root)
 * all of it is repeated for every available clocksource, each in a forked
 * child, and the original clocksource is put back by the parent.
 *
 * Layout: pure helpers (clocks.h), the measured loops, the measurement
 * kernel, the vDSO check (userland/trace_entry.c), one block per clocksource (records + table), the
 * sweep. See docs/probes/clocks.md.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "../emit.h"
#include "../probe.h"
#include "../stats.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "../trace_entry.h"
#include "clocks.h"
#include "clocks_dev.h"

#define PROBE "clocks"
#define UNROLL 16
#define REP16(x) x x x x x x x x x x x x x x x x
#define MAX_ITERS (1L << 24)		/* iterations of UNROLL calls per batch */
#define STEP_CHUNK 512			/* consecutive reads per granularity chunk */
#define VDSO_CHECK_CALLS 8		/* calls per libc source under the tracer */
#define TSC_MAXSEC 600			/* cyc2ns range, as the kernel's 600 s */
#define MAX_SOURCES 40
#define MAX_CLOCKSOURCES 8
#define CS_NAME_LEN 32			/* a clocksource name, as kernel/time/clocksource.c */

/* Intel SDM vol. 2A, CPUID: leaf 01H EDX bit 4 TSC; leaf 80000001H EDX bit 27 RDTSCP. */
#define CPUID_1_EDX_TSC (1u << 4)
#define CPUID_80000001_EDX_RDTSCP (1u << 27)

#if !TP_HAVE_TSC
static inline uint64_t rdtsc(void) { return 0; }
static inline uint64_t rdtsc_ordered(void) { return 0; }
static inline uint64_t rdtscp(uint32_t *aux) { (void)aux; return 0; }
#endif

/* ---- sources ---- */

enum kind { K_TIME, K_GTOD, K_CGT, K_RDTSC, K_LFENCE_RDTSC, K_RDTSCP, K_TSC_USER, K_DEV, K_EMPTY };
enum via { VIA_LIBC, VIA_SYSCALL, VIA_INSN, VIA_TSC_USER, VIA_DEV, VIA_NONE };

struct source {
	enum kind kind;
	enum via via;
	clockid_t id;
	char name[56];
	const struct tsc_clock *tclk;
	const struct clk_dev *dev;	/* K_DEV: the platform counter */
};

/* Every clock id of Linux 6.1 (include/uapi/linux/time.h) but the retired
 * CLOCK_SGI_CYCLE (10); the kernel decides which it accepts. */
static const struct {
	clockid_t id;
	const char *name;
} clock_ids[] = {
	{ CLOCK_REALTIME, "CLOCK_REALTIME" },
	{ CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE" },
	{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC" },
	{ CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE" },
	{ CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW" },
	{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
	{ CLOCK_TAI, "CLOCK_TAI" },
	{ CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID" },
	{ CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID" },
	{ CLOCK_REALTIME_ALARM, "CLOCK_REALTIME_ALARM" },
	{ CLOCK_BOOTTIME_ALARM, "CLOCK_BOOTTIME_ALARM" },
};

static const char *via_name(enum via v)
{
	static const char *const n[] = { "libc", "syscall", "insn", "tsc-user", "device", "none" };

	return n[v];
}

/* ---- the measured loops: nothing but the reads ---- */

/* The bare syscall instruction, so the syscall path costs what the kernel
 * costs and not libc's syscall() wrapper (errno handling, varargs). */
#if defined(__x86_64__)
static inline long sys2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}
#else
static inline long sys2(long nr, long a, long b)
{
	long r = syscall(nr, a, b);

	return r < 0 ? -errno : r;
}
#endif

static volatile int64_t sink;

static inline int64_t tsc_clock_ns(const struct tsc_clock *c)
{
	/* ordered, like the kernel's vDSO read: a clock read must not move
	 * before the loads that precede it */
	return c->base_ns + (int64_t)cyc2ns(&c->conv, rdtsc_ordered() - c->base_tsc);
}

/* Each runs iters * UNROLL reads and returns the last value (ns or ticks). */
typedef int64_t (*batch_fn)(const struct source *s, long iters);

static int64_t b_time_libc(const struct source *s, long iters)
{
	time_t v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = time(0);)
	}
	return (int64_t)v * NS_PER_S;
}

static int64_t b_gtod_libc(const struct source *s, long iters)
{
	struct timeval tv = { 0 };

	for (long i = 0; i < iters; i++) {
		REP16(gettimeofday(&tv, 0);)
	}
	return tv_ns(&tv);
}

static int64_t b_cgt_libc(const struct source *s, long iters)
{
	struct timespec t = { 0 };
	clockid_t id = s->id;

	for (long i = 0; i < iters; i++) {
		REP16(clock_gettime(id, &t);)
	}
	return ts_ns(&t);
}

#ifdef SYS_time
static int64_t b_time_sys(const struct source *s, long iters)
{
	long v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = sys2(SYS_time, 0, 0);)
	}
	return (int64_t)v * NS_PER_S;
}
#endif

static int64_t b_gtod_sys(const struct source *s, long iters)
{
	struct timeval tv = { 0 };

	for (long i = 0; i < iters; i++) {
		REP16(sys2(SYS_gettimeofday, (long)&tv, 0);)
	}
	return tv_ns(&tv);
}

static int64_t b_cgt_sys(const struct source *s, long iters)
{
	struct timespec t = { 0 };
	long id = s->id;

	for (long i = 0; i < iters; i++) {
		REP16(sys2(SYS_clock_gettime, id, (long)&t);)
	}
	return ts_ns(&t);
}

static int64_t b_rdtsc(const struct source *s, long iters)
{
	uint64_t v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = rdtsc();)
	}
	return (int64_t)v;
}

static int64_t b_lfence_rdtsc(const struct source *s, long iters)
{
	uint64_t v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = rdtsc_ordered();)
	}
	return (int64_t)v;
}

static int64_t b_rdtscp(const struct source *s, long iters)
{
	uint64_t v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = rdtscp(0);)
	}
	return (int64_t)v;
}

static int64_t b_tsc_user(const struct source *s, long iters)
{
	const struct tsc_clock *c = s->tclk;
	int64_t v = 0, acc = 0;

	/* acc keeps the compiler from dropping all conversions but the last */
	for (long i = 0; i < iters; i++) {
		REP16(v = tsc_clock_ns(c); acc += v;)
	}
	sink = acc;
	return v;
}

/* A platform counter's device access, through platclock.c's reader. */
static int64_t b_dev(const struct source *s, long iters)
{
	return clk_dev_batch(&s->dev->pc, iters);
}

/* The loop alone: its cost per call is the overhead in every other figure. */
static int64_t b_empty(const struct source *s, long iters)
{
	for (long i = 0; i < iters; i++) {
		REP16(__asm__ volatile("");)
	}
	return 0;
}

static batch_fn batch_for(const struct source *s)
{
	int sys = s->via == VIA_SYSCALL;

	switch (s->kind) {
#ifdef SYS_time
	case K_TIME: return sys ? b_time_sys : b_time_libc;
#else
	case K_TIME: return b_time_libc;
#endif
	case K_GTOD: return sys ? b_gtod_sys : b_gtod_libc;
	case K_CGT: return sys ? b_cgt_sys : b_cgt_libc;
	case K_RDTSC: return b_rdtsc;
	case K_LFENCE_RDTSC: return b_lfence_rdtsc;
	case K_RDTSCP: return b_rdtscp;
	case K_TSC_USER: return b_tsc_user;
	case K_DEV: return b_dev;
	case K_EMPTY: break;
	}
	return b_empty;
}

/* One read, checked: 0 or -errno. Used for the pre-check and the tracer. */
static int read_once(const struct source *s, int64_t *v)
{
	struct timespec t;
	struct timeval tv;
	long r;

	switch (s->kind) {
	case K_TIME:
		if (s->via == VIA_LIBC) {
			*v = (int64_t)time(0) * NS_PER_S;
			return 0;
		}
#ifdef SYS_time
		r = sys2(SYS_time, 0, 0);
		*v = (int64_t)r * NS_PER_S;
		return r < 0 && r > -4096 ? (int)r : 0;
#else
		return -ENOSYS;
#endif
	case K_GTOD:
		r = s->via == VIA_LIBC ? (gettimeofday(&tv, 0) ? -errno : 0)
				       : sys2(SYS_gettimeofday, (long)&tv, 0);
		*v = r ? 0 : tv_ns(&tv);
		return (int)r;
	case K_CGT:
		r = s->via == VIA_LIBC ? (clock_gettime(s->id, &t) ? -errno : 0)
				       : sys2(SYS_clock_gettime, s->id, (long)&t);
		*v = r ? 0 : ts_ns(&t);
		return (int)r;
	case K_RDTSC: *v = (int64_t)rdtsc(); return 0;
	case K_LFENCE_RDTSC: *v = (int64_t)rdtsc_ordered(); return 0;
	case K_RDTSCP: *v = (int64_t)rdtscp(0); return 0;
	case K_TSC_USER: *v = tsc_clock_ns(s->tclk); return 0;
	case K_DEV: *v = (int64_t)s->dev->pc.read(&s->dev->pc); return 0;
	case K_EMPTY: break;
	}
	*v = 0;
	return 0;
}

/* STEP_CHUNK consecutive reads, as tight as the source allows. */
static void fill_reads(const struct source *s, int64_t *r, size_t n)
{
	struct timespec t = { 0 };
	struct timeval tv = { 0 };
	size_t i;

	switch (s->kind) {
	case K_CGT:
		if (s->via == VIA_LIBC)
			for (i = 0; i < n; i++) {
				clock_gettime(s->id, &t);
				r[i] = ts_ns(&t);
			}
		else
			for (i = 0; i < n; i++) {
				sys2(SYS_clock_gettime, s->id, (long)&t);
				r[i] = ts_ns(&t);
			}
		return;
	case K_GTOD:
		if (s->via == VIA_LIBC)
			for (i = 0; i < n; i++) {
				gettimeofday(&tv, 0);
				r[i] = tv_ns(&tv);
			}
		else
			for (i = 0; i < n; i++) {
				sys2(SYS_gettimeofday, (long)&tv, 0);
				r[i] = tv_ns(&tv);
			}
		return;
	case K_RDTSC:
		for (i = 0; i < n; i++)
			r[i] = (int64_t)rdtsc();
		return;
	default:
		for (i = 0; i < n; i++)
			read_once(s, &r[i]);
	}
}

/* ---- the measurement kernel ---- */

struct plan {
	int64_t batch_min_ns;	/* shortest batch */
	int64_t budget_ns;	/* per source, once min_batches are done */
	int64_t hard_ns;	/* per source, whatever was done */
	int min_batches, max_batches;
	int rounds;		/* slices per source, taken in turns */
	int64_t step_budget_ns;	/* granularity sampling per source */
	uint64_t step_min_reads;
};

static const struct plan plan_quick = {
	.batch_min_ns = 50 * NS_PER_US, .budget_ns = 40 * NS_PER_MS, .hard_ns = 1000 * NS_PER_MS,
	.min_batches = 12, .max_batches = 4000, .rounds = 4,
	.step_budget_ns = 30 * NS_PER_MS, .step_min_reads = 4096,
};
static const struct plan plan_full = {
	.batch_min_ns = 200 * NS_PER_US, .budget_ns = 500 * NS_PER_MS, .hard_ns = 5000 * NS_PER_MS,
	.min_batches = 100, .max_batches = 20000, .rounds = 10,
	.step_budget_ns = 300 * NS_PER_MS, .step_min_reads = 65536,
};

/* What every measurement of one clocksource block shares. */
struct env {
	const char *cs;
	const struct plan *plan;
	int have_tsc, have_rdtscp;
	const char *no_tsc_why, *no_rdtscp_why;
	double tsc_hz;
	const char *calib_source, *calib_ref;
	const struct user_calib *user_calib;	/* when calib_source is "user" */
	double ns_per_unit;	/* timer unit to ns: ns per tick, or 1 */
	struct tsc_clock tclk;
	double timer_ns;	/* cost of the timer read inside a batch */
	double overhead_ns;	/* the empty loop, per call */
	int cpu;
	int traced;		/* vDSO use checked by ptrace, else by cost */
	const struct clk_dev *dev;		/* the platform counters, CLK_NDEV */
	const struct clk_result *dev_res;	/* their figures, measured once per run */
};

/* What one source gave. */
struct clk_result {
	struct source src;
	int err;		/* skipped: errno, or 0 with reason */
	char reason[120];
	int skipped;
	int vdso;		/* libc: 1 served in user space, 0 not, -1 unknown */
	double kernel_entries;	/* libc: time syscalls per call under the tracer */
	struct per_call ns;
	double ticks_p50;	/* NaN without the TSC */
	double resolution_ns;
	struct step_acc steps;
	int64_t step_window_ns;
	int64_t user_us, sys_us, vol_ctxsw, invol_ctxsw;
	int64_t last;
	double *batch;		/* max_batches durations, timer units */
	int batches;
	long iters;		/* of UNROLL calls per batch */
	uint64_t calls_per_batch;
	double batch_ns;
};

/* Batches are timed with lfence;rdtsc where the TSC works: it does not
 * depend on the clocksource being measured (an acpi_pm read costs 2.5 us). */
static inline uint64_t timer_now(const struct env *e)
{
	return e->have_tsc ? rdtsc_ordered() : (uint64_t)now_ns(CLOCK_MONOTONIC_RAW);
}

static double timer_cost_ns(const struct env *e)
{
	double d[101];

	for (int i = 0; i < 101; i++) {
		uint64_t a = timer_now(e), b = timer_now(e);

		d[i] = (double)(b - a) * e->ns_per_unit;
	}
	return median(d, 101);
}

static int64_t tv_us(const struct timeval *t)
{
	return (int64_t)t->tv_sec * 1000000 + t->tv_usec;
}

/* Grows the batch until it lasts at least batch_min; returns iterations. */
static long size_batch(const struct env *e, const struct source *src)
{
	batch_fn run = batch_for(src);
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
	batch_fn run = batch_for(&res->src);
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

static void finish_cost(const struct env *e, struct clk_result *res)
{
	res->calls_per_batch = (uint64_t)res->iters * UNROLL;
	per_call_figures(res->batch, (size_t)res->batches, res->calls_per_batch, e->ns_per_unit, &res->ns);
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
		fill_reads(&res->src, buf, STEP_CHUNK);
		step_acc_add(&res->steps, buf, STEP_CHUNK);
		elapsed = (int64_t)((double)(timer_now(e) - start) * e->ns_per_unit);
	} while (!(res->steps.reads >= e->plan->step_min_reads && res->steps.forward >= 4) &&
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
		read_once(&res[i].src, &v);
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

/* ---- one block: every source on the current clocksource ---- */

static void cpu_caps(struct env *e)
{
	e->no_tsc_why = "not an x86 CPU";
	e->no_rdtscp_why = "not an x86 CPU";
#if TP_HAVE_TSC
	unsigned int a, b, c, d;
	int mode = 0;

	e->no_tsc_why = "CPUID leaf 1 EDX bit 4 (TSC) is clear";
	e->no_rdtscp_why = "CPUID leaf 0x80000001 EDX bit 27 (RDTSCP) is clear";
	e->have_tsc = __get_cpuid(1, &a, &b, &c, &d) && (d & CPUID_1_EDX_TSC);
	e->have_rdtscp = e->have_tsc && __get_cpuid(0x80000001, &a, &b, &c, &d) &&
			 (d & CPUID_80000001_EDX_RDTSCP);
	/* PR_SET_TSC can make rdtsc fault in this process */
	if (prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode != PR_TSC_ENABLE) {
		e->have_tsc = e->have_rdtscp = 0;
		e->no_tsc_why = e->no_rdtscp_why = "rdtsc disabled for this process (PR_SET_TSC)";
	}
#endif
}

static size_t list_sources(struct source *s, const struct env *e)
{
	size_t n = 0;

	for (int via = VIA_LIBC; via <= VIA_SYSCALL; via++) {
		s[n++] = (struct source){ .kind = K_TIME, .via = via, .name = "time()" };
		s[n++] = (struct source){ .kind = K_GTOD, .via = via, .name = "gettimeofday()" };
	}
	for (size_t i = 0; i < sizeof(clock_ids) / sizeof(clock_ids[0]); i++)
		for (int via = VIA_LIBC; via <= VIA_SYSCALL; via++) {
			s[n] = (struct source){ .kind = K_CGT, .via = via, .id = clock_ids[i].id };
			snprintf(s[n].name, sizeof(s[n].name), "clock_gettime(%s)", clock_ids[i].name);
			n++;
		}
	s[n++] = (struct source){ .kind = K_RDTSC, .via = VIA_INSN, .name = "rdtsc" };
	s[n++] = (struct source){ .kind = K_LFENCE_RDTSC, .via = VIA_INSN, .name = "lfence;rdtsc" };
	s[n++] = (struct source){ .kind = K_RDTSCP, .via = VIA_INSN, .name = "rdtscp" };
	s[n++] = (struct source){ .kind = K_TSC_USER, .via = VIA_TSC_USER, .tclk = &e->tclk,
				  .name = "cheap.gettime (TSC * mult >> shift)" };
	return n;
}

/* Can this source be read here? Fills the resolution; 0 or sets skipped. */
static void precheck(const struct env *e, struct clk_result *r)
{
	const struct source *s = &r->src;
	struct timespec res;
	int64_t v;
	int rc;

	if (s->kind == K_TIME && s->via == VIA_SYSCALL) {
#ifndef SYS_time
		r->skipped = 1;
		snprintf(r->reason, sizeof(r->reason), "no time syscall on this architecture");
		return;
#endif
	}
	if ((s->via == VIA_INSN || s->via == VIA_TSC_USER) && !e->have_tsc) {
		r->skipped = 1;
		snprintf(r->reason, sizeof(r->reason), "%s", e->no_tsc_why);
		return;
	}
	if (s->kind == K_RDTSCP && !e->have_rdtscp) {
		r->skipped = 1;
		snprintf(r->reason, sizeof(r->reason), "%s", e->no_rdtscp_why);
		return;
	}
	if (s->kind == K_TSC_USER && !(e->tsc_hz > 0)) {
		r->skipped = 1;
		snprintf(r->reason, sizeof(r->reason), "no TSC calibration");
		return;
	}
	if (s->kind == K_DEV) {
		r->skipped = !s->dev->open;
		snprintf(r->reason, sizeof(r->reason), "%s", s->dev->pc.why);
		r->resolution_ns = s->dev->open ? 1e9 / s->dev->pc.hz : NAN;	/* one count */
		return;
	}
	rc = read_once(s, &v);
	if (rc < 0) {
		r->skipped = 1;
		r->err = -rc;
		snprintf(r->reason, sizeof(r->reason), "%s refused: %s%s", s->via == VIA_SYSCALL ?
			 "the syscall" : "libc", strerror(-rc),
			 /* kernel/time/alarmtimer.c: no RTC device, no alarm clocks */
			 s->kind == K_CGT && rc == -EINVAL && (s->id == CLOCK_REALTIME_ALARM ||
			 s->id == CLOCK_BOOTTIME_ALARM) ? " (alarm clocks need an RTC device)" : "");
		return;
	}
	switch (s->kind) {
	case K_TIME:
		r->resolution_ns = (double)NS_PER_S;	/* time_t seconds */
		break;
	case K_GTOD:
		/* microseconds, or coarser if CLOCK_REALTIME is */
		r->resolution_ns = 1000;
		if (!clock_getres(CLOCK_REALTIME, &res) && ts_ns(&res) > 1000)
			r->resolution_ns = (double)ts_ns(&res);
		break;
	case K_CGT:
		rc = s->via == VIA_LIBC ? (clock_getres(s->id, &res) ? -errno : 0)
					: (int)sys2(SYS_clock_getres, s->id, (long)&res);
		r->resolution_ns = rc ? NAN : (double)ts_ns(&res);
		break;
	case K_TSC_USER:
		r->resolution_ns = ldexp((double)e->tclk.conv.mult, -(int)e->tclk.conv.shift);
		break;
	default:	/* one tick */
		r->resolution_ns = e->tsc_hz > 0 ? 1e9 / e->tsc_hz : NAN;
	}
}

static void rec_maybe(struct tp_rec *r, const char *key, double v)
{
	if (isnan(v))
		tp_rec_null(r, key);
	else
		rec_double(r, key, v);
}

static void emit_clk_skip(const struct env *e, const struct clk_result *res)
{
	struct tp_rec r;

	emit_begin(&r, "skip");
	tp_rec_str(&r, "probe", PROBE);
	tp_rec_str(&r, "name", res->src.name);
	tp_rec_str(&r, "path", res->src.kind == K_DEV ? res->src.dev->path : via_name(res->src.via));
	tp_rec_str(&r, "clocksource", e->cs);
	if (res->src.kind == K_CGT)
		tp_rec_int(&r, "clock_id", res->src.id);
	if (res->src.kind == K_DEV)
		tp_rec_str(&r, "backs_clocksource", res->src.dev->backs);
	if (res->err) {
		tp_rec_int(&r, "errno", res->err);
		tp_rec_str(&r, "errno_name", strerror(res->err));
	}
	tp_rec_str(&r, "reason", res->reason);
	emit_end(&r);
}

/* A skip or error about a whole clocksource, carrying it like every record. */
static void emit_cs_record(const char *type, const char *cs, const char *name, const char *reason)
{
	struct tp_rec r;

	emit_begin(&r, type);
	tp_rec_str(&r, "probe", PROBE);
	tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "reason", reason);
	emit_end(&r);
	human("  %s %s: %s, %s\n", name, cs, strcmp(type, "skip") ? "ERROR" : "skipped", reason);
}

static const char *path_of(const struct clk_result *res)
{
	if (res->src.kind == K_DEV)
		return res->src.dev->path;
	if (res->src.via == VIA_LIBC)
		return res->vdso == 1 ? "vdso" : "libc";
	return via_name(res->src.via);
}

static void last_value(const struct clk_result *res, char *buf, size_t len)
{
	switch (res->src.kind) {
	case K_TIME: format_seconds(buf, len, res->last, 0); break;
	case K_GTOD: format_seconds(buf, len, res->last, 6); break;
	case K_RDTSC:
	case K_LFENCE_RDTSC:
	case K_RDTSCP:
	case K_DEV: snprintf(buf, len, "%llu", (unsigned long long)res->last); break;
	default: format_seconds(buf, len, res->last, 9);
	}
}

/* Granularity and steps: every source but the platform counters (whose
 * values are counts of a wrapping, or for the PIT falling, counter). */
static void emit_steps(struct tp_rec *r, const struct env *e, const struct clk_result *res)
{
	int insn = res->src.via == VIA_INSN;
	double step_unit = insn ? e->ns_per_unit : 1;	/* insn steps are ticks */

	if (res->steps.s.granularity)
		rec_double(r, "granularity_ns", (double)res->steps.s.granularity * step_unit);
	else
		tp_rec_null(r, "granularity_ns");	/* no step in the window */
	if (insn)
		tp_rec_int(r, "granularity_ticks", res->steps.s.granularity);
	tp_rec_uint(r, "backward_steps", res->steps.s.backward);
	rec_double(r, "largest_backward_ns", (double)res->steps.s.largest_backward * step_unit);
	tp_rec_uint(r, "step_reads", res->steps.reads);
	tp_rec_int(r, "step_window_ns", res->step_window_ns);
}

static void emit_clk_result(const struct env *e, const struct clk_result *res)
{
	const char *unit = res->src.via == VIA_INSN ? "ticks" : res->src.kind == K_DEV ? "counts" : 0;
	char last[32];
	struct tp_rec r;

	emit_result_begin(&r, PROBE, res->src.name);
	tp_rec_str(&r, "clocksource", e->cs);
	tp_rec_str(&r, "path", path_of(res));
	if (res->src.via == VIA_LIBC) {
		if (res->vdso >= 0)
			tp_rec_bool(&r, "vdso", res->vdso);
		else
			tp_rec_null(&r, "vdso");
		tp_rec_str(&r, "vdso_check", e->traced ? "ptrace" : "cost");
		if (e->traced)
			rec_double(&r, "kernel_entries_per_call", res->kernel_entries);
	}
	if (res->src.kind == K_CGT)
		tp_rec_int(&r, "clock_id", res->src.id);
	rec_double(&r, "ns_per_call", res->ns.p50);
	rec_double(&r, "ns_per_call_min", res->ns.min);
	rec_double(&r, "ns_per_call_p99", res->ns.p99);
	tp_rec_uint(&r, "n", res->ns.n);	/* batch means behind the median and p99 */
	rec_double(&r, "ns_per_call_mean", res->ns.mean);
	rec_double(&r, "elapsed_ms", res->ns.elapsed_ns / 1e6);
	rec_maybe(&r, "ticks_per_call", res->ticks_p50);
	rec_double(&r, "overhead_ns_per_call", e->overhead_ns);
	rec_maybe(&r, "resolution_ns", res->resolution_ns);
	if (res->src.kind == K_DEV)
		clk_dev_fields(&r, res->src.dev);
	else
		emit_steps(&r, e, res);
	tp_rec_int(&r, "user_us", res->user_us);
	tp_rec_int(&r, "sys_us", res->sys_us);
	tp_rec_int(&r, "vol_ctxsw", res->vol_ctxsw);
	tp_rec_int(&r, "invol_ctxsw", res->invol_ctxsw);
	last_value(res, last, sizeof(last));
	tp_rec_str(&r, "last_value", last);
	if (unit)
		tp_rec_str(&r, "last_value_unit", unit);
	tp_rec_int(&r, "batches", res->batches);
	tp_rec_uint(&r, "calls_per_batch", res->calls_per_batch);
	rec_double(&r, "batch_ns", res->batch_ns);
	rec_double(&r, "timer_share_pct", 100 * e->timer_ns / res->batch_ns);
	tp_rec_str(&r, "timer", e->have_tsc ? "lfence;rdtsc" : "CLOCK_MONOTONIC_RAW");
	tp_rec_int(&r, "cpu", e->cpu);
	if (res->src.kind == K_TSC_USER) {
		tp_rec_str(&r, "calibration", e->calib_source);
		tp_rec_str(&r, "calibration_ref", e->calib_ref);
		tp_rec_int(&r, "tsc_hz", llround(e->tsc_hz));
		tp_rec_uint(&r, "mult", e->tclk.conv.mult);
		tp_rec_uint(&r, "shift", e->tclk.conv.shift);
	}
	emit_end(&r);
}

static int dearest_first(const void *a, const void *b)
{
	const struct clk_result *x = a, *y = b;

	if (x->skipped != y->skipped)
		return x->skipped - y->skipped;
	if (x->skipped)		/* skips in list order: by name, libc before syscall */
		return strcmp(x->src.name, y->src.name) ? strcmp(x->src.name, y->src.name)
							: (int)x->src.via - (int)y->src.via;
	return (x->ns.p50 < y->ns.p50) - (x->ns.p50 > y->ns.p50);
}

static void print_table(const struct env *e, struct clk_result *res, size_t n)
{
	qsort(res, n, sizeof(*res), dearest_first);
	/* the seed's columns (bench_time: "Avg. us/call Elapsed Name", then the
	 * last value read) with the rusage of seed 003 between them */
	human("%10s %10s %10s %10s %11s %9s %9s %9s  %-12s %-40s %s\n", "ns/call", "elapsed ms",
	      "ticks/call", "resolution", "granularity", "user us", "sys us", "vol/invol", "path",
	      "name", "last value");
	for (size_t i = 0; i < n; i++) {
		const struct clk_result *r = &res[i];
		double step_unit = r->src.via == VIA_INSN ? e->ns_per_unit : 1;
		char res_s[24], gran[24], cs[24], ticks[24], last[32];

		if (r->skipped) {
			human("%10s %10s %10s %10s %11s %9s %9s %9s  %-12s %s: skipped, %s\n", "-", "-", "-",
			      "-", "-", "-", "-", "-", path_of(r), r->src.name, r->reason);
			continue;
		}
		format_duration(res_s, sizeof(res_s), r->resolution_ns);
		format_duration(gran, sizeof(gran), (double)r->steps.s.granularity * step_unit);
		if (r->src.kind == K_DEV)
			snprintf(gran, sizeof(gran), "-");	/* not sampled: clocks_dev.h */
		snprintf(cs, sizeof(cs), "%lld/%lld", (long long)r->vol_ctxsw, (long long)r->invol_ctxsw);
		if (isnan(r->ticks_p50))
			snprintf(ticks, sizeof(ticks), "-");
		else
			snprintf(ticks, sizeof(ticks), "%.1f", r->ticks_p50);
		last_value(r, last, sizeof(last));
		human("%10.2f %10.1f %10s %10s %11s %9lld %9lld %9s  %-12s %-40s %s%s\n", r->ns.p50,
		      r->ns.elapsed_ns / 1e6, ticks, res_s, gran, (long long)r->user_us,
		      (long long)r->sys_us, cs, path_of(r), r->src.name, last,
		      r->steps.s.backward ? "  (went backwards)" : "");
	}
}

static void pin_to_cpu(struct env *e)
{
	cpu_set_t set;

	e->cpu = sched_getcpu();
	if (e->cpu < 0)
		return;
	/* one CPU: no migration between the reads of a batch, one TSC */
	CPU_ZERO(&set);
	CPU_SET(e->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void setup_tsc_clock(struct env *e)
{
	struct timespec t;
	uint64_t a, b;

	if (!e->have_tsc || !(e->tsc_hz > 0))
		return;
	clocks_calc_mult_shift(&e->tclk.conv, (uint64_t)llround(e->tsc_hz), NS_PER_S, TSC_MAXSEC);
	a = rdtsc_ordered();
	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	b = rdtsc_ordered();
	e->tclk.base_tsc = a + (b - a) / 2;
	e->tclk.base_ns = ts_ns(&t);
}

/* Measures every source on the clocksource in use now. */
/* The block's own record: what it ran on and how it measured. */
static void emit_block(const struct probe_ctx *ctx, const struct env *e, size_t measured,
		       size_t skipped, int trace_rc, const char *cs_end)
{
	struct tp_rec r;

	emit_result_begin(&r, PROBE, "clocksource");
	tp_rec_str(&r, "clocksource", e->cs);
	tp_rec_str(&r, "clocksource_at_end", cs_end);
	tp_rec_int(&r, "sources_measured", (int64_t)measured);
	tp_rec_int(&r, "sources_skipped", (int64_t)skipped);
	if (e->tsc_hz > 0)
		tp_rec_int(&r, "tsc_hz", llround(e->tsc_hz));
	else
		tp_rec_null(&r, "tsc_hz");
	tp_rec_str(&r, "calibration", e->calib_source);
	tp_rec_str(&r, "calibration_ref", e->calib_ref);
	if (e->user_calib)
		user_calib_fields(&r, e->user_calib);
	tp_rec_str(&r, "timer", e->have_tsc ? "lfence;rdtsc" : "CLOCK_MONOTONIC_RAW");
	rec_double(&r, "timer_ns", e->timer_ns);
	rec_double(&r, "overhead_ns_per_call", e->overhead_ns);
	tp_rec_str(&r, "vdso_check", e->traced ? "ptrace" : "cost");
	if (!e->traced)
		tp_rec_str(&r, "vdso_check_error", strerror(-trace_rc));
	tp_rec_int(&r, "cpu", e->cpu);
	tp_rec_str(&r, "profile", ctx->quick ? "quick" : "full");
	emit_end(&r);
}

/*
 * Batches for res[0..n) and the empty loop res[n], in turns (skips are
 * emitted here); the empty loop's cost becomes e->overhead_ns.
 */
static void measure_costs(struct env *e, struct clk_result *res, size_t n, size_t *skipped)
{
	for (size_t i = 0; i <= n; i++) {
		if (res[i].skipped) {
			emit_clk_skip(e, &res[i]);
			(*skipped)++;
			continue;
		}
		res[i].iters = size_batch(e, &res[i].src);
	}
	for (int round = 0; round < e->plan->rounds; round++)
		for (size_t i = 0; i <= n; i++)
			if (!res[i].skipped)
				measure_slice(e, &res[i]);
	for (size_t i = 0; i <= n; i++)
		if (!res[i].skipped)
			finish_cost(e, &res[i]);
	e->overhead_ns = res[n].ns.p50;
}

/*
 * Every source and the empty loop (res[n]): the tracer first (its verdict
 * goes into each record), then batches in turns, then the steps. Returns
 * the tracer's result; counts what was measured and skipped.
 */
static int measure_all(struct env *e, struct clk_result *res, size_t n, size_t *measured,
		       size_t *skipped)
{
	int rc = vdso_check(res, n);

	e->traced = rc == 0;
	measure_costs(e, res, n, skipped);
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
static struct clk_result *alloc_results(const struct env *e, size_t count)
{
	size_t nb = (size_t)e->plan->max_batches;
	struct clk_result *res = calloc(1, count * (sizeof(*res) + nb * sizeof(double)));
	double *buf = (double *)(res + count);

	for (size_t i = 0; res && i < count; i++)
		res[i].batch = buf + i * nb;
	return res;
}

/*
 * Puts the platform counter behind this block's clocksource (if any) at
 * res[0], so the table shows the device access beside the reads that pay
 * for it; its record was written once, by measure_devices(). Returns 0 or 1.
 */
static size_t device_row(const struct env *e, struct clk_result *res)
{
	int k = e->dev ? clk_dev_backing(e->dev, CLK_NDEV, e->cs) : -1;

	for (size_t i = 0; k >= 0 && i < CLK_NDEV; i++)
		if (e->dev_res[i].src.dev == &e->dev[k]) {
			res[0] = e->dev_res[i];
			return 1;
		}
	return 0;
}

static enum probe_status measure_block(const struct probe_ctx *ctx, struct env *e)
{
	struct source src[MAX_SOURCES];
	struct clk_result *res = alloc_results(e, MAX_SOURCES + 1);
	size_t n = list_sources(src, e), measured = 0, skipped = 0;
	char cs_end[64] = "", tsc[160];
	int rc;

	if (!res) {
		emit_cs_record("error", e->cs, "clocksource", "out of memory");
		return PROBE_FAILED;
	}
	pin_to_cpu(e);
	setup_tsc_clock(e);
	e->timer_ns = timer_cost_ns(e);
	for (size_t i = 0; i < n; i++) {
		res[i].src = src[i];
		res[i].vdso = -1;
		precheck(e, &res[i]);
	}
	/* the loop alone, taking its turns like the others */
	res[n].src = (struct source){ .kind = K_EMPTY, .via = VIA_NONE, .name = "empty loop" };
	rc = measure_all(e, res, n, &measured, &skipped);
	for (size_t i = 0; i < n; i++)
		if (!res[i].skipped)
			emit_clk_result(e, &res[i]);

	current_clocksource(cs_end, sizeof(cs_end));
	emit_block(ctx, e, measured, skipped, rc, cs_end);
	if (e->tsc_hz > 0)
		snprintf(tsc, sizeof(tsc), "TSC %lld Hz (calibration %s against %s)",
			 llround(e->tsc_hz), e->calib_source, e->calib_ref);
	else
		snprintf(tsc, sizeof(tsc), "no TSC (%s)", e->no_tsc_why);
	human("\n-- clocksource %s: %s, CPU %d, loop overhead %.3g ns/call, vDSO use checked by %s --\n",
	      e->cs, tsc, e->cpu, e->overhead_ns, e->traced ? "ptrace" : "cost");
	/* the empty loop's slot (res[n]) is done with: the device row takes it */
	print_table(e, res, n + device_row(e, &res[n]));
	if (strcmp(cs_end, e->cs))
		human("   note: the clocksource changed to %s during the measurement\n", cs_end);
	free(res);
	return measured ? PROBE_OK : PROBE_SKIPPED;
}

/* ---- the clocksource sweep ---- */

/* The sweep stops 20 % before the suite's deadline: time to put the original back. */
static int64_t sweep_budget_ns(const struct probe_ctx *ctx)
{
	int64_t left = ctx->deadline_ns ? ctx->deadline_ns - mono_ns() : 60 * NS_PER_S;

	return left > 0 ? left * 8 / 10 : 0;
}

struct block_job {
	const struct probe_ctx *ctx;
	struct env *e;
};

static int block_child(void *arg)
{
	struct block_job *b = arg;

	return probe_exit_code(measure_block(b->ctx, b->e));
}

/* Runs one block under the supervisor; the sweep survives whatever happens there. */
static int run_child_block(const struct probe_ctx *ctx, struct env *e, int64_t deadline)
{
	struct block_job b = { ctx, e };
	struct sup_job job = { .fn = block_child, .arg = &b, .deadline_ns = deadline };
	struct sup_result sr;
	char why[96];

	supervise(&job, &sr);
	switch (sr.out) {
	case OUT_OK:
	case OUT_SKIPPED:
		return 0;
	case OUT_FAILED:
		return -EIO;	/* its records say why */
	case OUT_TIMEOUT:
		emit_cs_record("error", e->cs, "clocksource",
			       "measurement overran its share of the time limit; killed");
		return -ETIMEDOUT;
	case OUT_SIGNAL:
		snprintf(why, sizeof(why), "measurement child died: %s", strsignal(sr.status));
		break;
	default:
		snprintf(why, sizeof(why), "measurement child: %s %d", outcome_name(sr.out), sr.status);
		break;
	}
	emit_cs_record("error", e->cs, "clocksource", why);
	return -ECHILD;
}

/* 1 if the space-separated list in the file PATH holds NAME. */
static int in_list(const char *path, const char *name)
{
	char buf[512], *save = 0;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(0, " ", &save))
		if (!strcmp(t, name))
			return 1;
	return 0;
}

static enum probe_status sweep(const struct probe_ctx *ctx, struct env *base, const char *orig,
			       char *avail)
{
	char list[MAX_CLOCKSOURCES][CS_NAME_LEN], now[CS_NAME_LEN], why[128];
	size_t n = 0;
	int failed = 0, restored, replaced;
	int64_t start = mono_ns(), budget = sweep_budget_ns(ctx);
	struct tp_rec r;

	/* the original first: if anything goes wrong later its figures stand */
	snprintf(list[n++], sizeof(list[0]), "%s", orig);
	for (char *save = 0, *t = strtok_r(avail, " ", &save); t && n < MAX_CLOCKSOURCES;
	     t = strtok_r(0, " ", &save))
		if (strcmp(t, orig))
			snprintf(list[n++], sizeof(list[0]), "%s", t);

	emit_result_begin(&r, PROBE, "clocksource sweep");
	tp_rec_str(&r, "clocksource", orig);
	tp_rec_str(&r, "original", orig);
	tp_rec_arr_begin(&r, "clocksources");
	for (size_t i = 0; i < n; i++)
		tp_rec_str(&r, 0, list[i]);
	tp_rec_arr_end(&r);
	emit_end(&r);

	for (size_t i = 0; i < n; i++) {
		struct env e = *base;
		int64_t left = budget - (mono_ns() - start);
		int rc;

		e.cs = list[i];
		current_clocksource(now, sizeof(now));
		if (strcmp(now, list[i]) && (rc = set_clocksource(list[i]))) {
			snprintf(why, sizeof(why), "the kernel refused the switch: %s", strerror(-rc));
			emit_cs_record("skip", list[i], "clocksource", why);
			continue;
		}
		rc = run_child_block(ctx, &e, mono_ns() + left / (int64_t)(n - i));
		if (rc && rc != -EIO)
			failed = 1;
	}

	/* put the original back, whatever happened above */
	current_clocksource(now, sizeof(now));
	if (strcmp(now, orig))
		set_clocksource(orig);
	current_clocksource(now, sizeof(now));
	restored = !strcmp(now, orig);
	/*
	 * The kernel may retire the original itself: tsc-early is unregistered
	 * when the refined tsc clocksource takes over (seen with one CPU under
	 * QEMU TCG). Nothing can be put back then; the kernel's choice stands.
	 */
	replaced = !restored && !in_list(CLOCKSOURCE_DIR "/available_clocksource", orig);
	emit_result_begin(&r, PROBE, "clocksource restored");
	tp_rec_str(&r, "clocksource", now);
	tp_rec_str(&r, "original", orig);
	tp_rec_bool(&r, "restored", restored);
	if (replaced) {
		snprintf(why, sizeof(why), "the kernel retired %s and chose %s during the run", orig, now);
		tp_rec_str(&r, "note", why);
	}
	emit_end(&r);
	human("\n-- clocksource %s restored: %s --\n", orig,
	      restored ? "yes" : replaced ? "no, the kernel retired it" : "NO");
	if (!restored && !replaced)
		emit_cs_record("error", now, "clocksource restored",
			       "could not put the original clocksource back");
	return failed || (!restored && !replaced) ? PROBE_FAILED : PROBE_OK;
}

/* ---- the platform counters, once per run ---- */

/*
 * The HPET, PM timer and PIT reads (clocks_dev.h), measured like every
 * source but once, before any block: the device costs the same whatever
 * the clocksource. Their records and a table now; each block's table shows
 * the counter behind its clocksource again (device_row()). Sets e->dev and
 * e->dev_res; returns the results to free, or NULL.
 */
static struct clk_result *measure_devices(struct env *e, struct clk_dev *dev)
{
	struct clk_result *res = alloc_results(e, CLK_NDEV + 1);
	struct env d = *e;
	size_t skipped = 0;

	if (!res) {
		emit_cs_record("error", e->cs, "platform counters", "out of memory");
		return 0;
	}
	clk_devs_open(dev);
	pin_to_cpu(&d);
	d.timer_ns = timer_cost_ns(&d);
	for (size_t i = 0; i < CLK_NDEV; i++) {
		res[i].src = (struct source){ .kind = K_DEV, .via = VIA_DEV, .dev = &dev[i] };
		snprintf(res[i].src.name, sizeof(res[i].src.name), "%s", dev[i].name);
		res[i].vdso = -1;
		precheck(&d, &res[i]);
	}
	res[CLK_NDEV].src = (struct source){ .kind = K_EMPTY, .via = VIA_NONE, .name = "empty loop" };
	measure_costs(&d, res, CLK_NDEV, &skipped);
	for (size_t i = 0; i < CLK_NDEV; i++)
		if (!res[i].skipped)
			emit_clk_result(&d, &res[i]);
	human("\n-- platform counters read from user space (the device access under the hpet, acpi_pm "
	      "and pit clocksources), CPU %d, loop overhead %.3g ns/call --\n", d.cpu, d.overhead_ns);
	print_table(&d, res, CLK_NDEV);
	e->dev = dev;
	e->dev_res = res;
	return res;
}

/* One block for the clocksource in use, or the sweep. */
static enum probe_status run_blocks(const struct probe_ctx *ctx, struct env *e, int want, const char *orig)
{
	char avail[256];

	if (!want)
		return measure_block(ctx, e);
	if (geteuid() != 0) {
		emit_cs_record("skip", orig, "clocksource sweep", "needs root (writes current_clocksource)");
		return measure_block(ctx, e);
	}
	if (read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail)) <= 0) {
		emit_cs_record("skip", orig, "clocksource sweep", "no " CLOCKSOURCE_DIR "/available_clocksource");
		return measure_block(ctx, e);
	}
	return sweep(ctx, e, orig, avail);
}

enum probe_status probe_clocks(struct probe_ctx *ctx)
{
	const struct options *o = ctx->opt;
	int want = o && (o->clocksource_sweep > 0 || (o->clocksource_sweep < 0 && ctx->appliance));
	char orig[CS_NAME_LEN];
	struct clk_dev dev[CLK_NDEV];
	struct clk_result *dev_res;
	enum probe_status st;
	struct env e = { .plan = ctx->quick ? &plan_quick : &plan_full, .cpu = -1,
			 .calib_source = "none", .calib_ref = "none", .ns_per_unit = 1 };

	if (current_clocksource(orig, sizeof(orig)) <= 0)
		snprintf(orig, sizeof(orig), "unknown");
	e.cs = orig;
	cpu_caps(&e);
	if (e.have_tsc && probe_tsc_calib(ctx) > 0) {
		e.tsc_hz = ctx->tsc.hz;
		e.calib_source = ctx->tsc.source;
		e.calib_ref = ctx->tsc.ref;
		if (!strcmp(ctx->tsc.source, "user"))
			e.user_calib = &ctx->tsc.user;
		e.ns_per_unit = 1e9 / e.tsc_hz;
	} else if (e.have_tsc) {
		/* ticks cannot be turned into ns: time batches by the clock */
		e.have_tsc = e.have_rdtscp = 0;
		e.no_tsc_why = e.no_rdtscp_why = "TSC calibration failed";
	}
	dev_res = measure_devices(&e, dev);
	st = run_blocks(ctx, &e, want, orig);
	free(dev_res);
	return st;
}

/* ---- the registry's row (probes/registry.c) ---- */

static const struct probe_opt clocks_opts[] = {
	{ .w = {
		.name = "clocksource-sweep", .type = TP_WT_BOOL, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .hi = 1,
		.def = -1, .dflt = "on", .dflt_host = "off",
		.help = "`clocks`: repeat for every clocksource (root)",
	  }, PROBE_OPT_IN_OPTIONS(clocksource_sweep), .by_env = 1, .env_def = { 1, 0 } },
};

const struct probe clocks_probe = {
	.name = "clocks", .summary = "cost, resolution and behaviour of every way to read the time",
	.run = probe_clocks, .limit_quick_s = 60, .limit_full_s = 600,
	PROBE_OPTS(clocks_opts), PROBE_FIGURES("ns_per_call", "resolution_ns"),
};
