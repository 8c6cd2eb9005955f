// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`, the measured loops: nothing but the reads. One batch
 * function per source (iters * UNROLL reads, unrolled, returning the last
 * value), one checked read, and runs of consecutive reads for the
 * granularity. See clocks_impl.h for the probe's other files.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "../timeutil.h"
#include "clocks_impl.h"

#define REP16(x) x x x x x x x x x x x x x x x x

static volatile int64_t sink;

static inline int64_t tsc_clock_ns(const struct tsc_clock *c)
{
	/* ordered, like the kernel's vDSO read: a clock read must not move
	 * before the loads that precede it */
	return c->base_ns + (int64_t)cyc2ns(&c->conv, tp_counter_ordered() - c->base_tsc);
}

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
		REP16(v = tp_counter();)
	}
	return (int64_t)v;
}

static int64_t b_lfence_rdtsc(const struct source *s, long iters)
{
	uint64_t v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = tp_counter_ordered();)
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
	return clocks_dev_batch(&s->dev->pc, iters);
}

/* The loop alone: its cost per call is the overhead in every other figure. */
static int64_t b_empty(const struct source *s, long iters)
{
	for (long i = 0; i < iters; i++) {
		REP16(__asm__ volatile("");)
	}
	return 0;
}

batch_fn clocks_batch_for(const struct source *s)
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

int clocks_read_once(const struct source *s, int64_t *v)
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
	case K_RDTSC: *v = (int64_t)tp_counter(); return 0;
	case K_LFENCE_RDTSC: *v = (int64_t)tp_counter_ordered(); return 0;
	case K_RDTSCP: *v = (int64_t)rdtscp(0); return 0;
	case K_TSC_USER: *v = tsc_clock_ns(s->tclk); return 0;
	case K_DEV: *v = (int64_t)s->dev->pc.read(&s->dev->pc); return 0;
	case K_EMPTY: break;
	}
	*v = 0;
	return 0;
}

/* n consecutive reads, as tight as the source allows. */
void clocks_fill_reads(const struct source *s, int64_t *r, size_t n)
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
			r[i] = (int64_t)tp_counter();
		return;
	default:
		for (i = 0; i < n; i++)
			clocks_read_once(s, &r[i]);
	}
}
