/* SPDX-License-Identifier: MIT */
/*
 * Time in int64_t nanoseconds and uint64_t TSC ticks: the conversions, the
 * clock reads (now_ns, mono_ns), the TSC reads (rdtsc, rdtsc_ordered,
 * rdtscp) and a spin loop's pause (cpu_relax). Header only.
 */
#ifndef TP_TIMEUTIL_H
#define TP_TIMEUTIL_H

#include <stdint.h>
#include <time.h>
#include <sys/time.h>

#define NS_PER_US 1000LL
#define NS_PER_MS 1000000LL
#define NS_PER_S 1000000000LL

static inline int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * NS_PER_S + t->tv_nsec;
}

static inline int64_t tv_ns(const struct timeval *t)
{
	return (int64_t)t->tv_sec * NS_PER_S + (int64_t)t->tv_usec * NS_PER_US;
}

static inline struct timespec ns_ts(int64_t ns)
{
	struct timespec t = { .tv_sec = ns / NS_PER_S, .tv_nsec = ns % NS_PER_S };

	if (t.tv_nsec < 0) {
		t.tv_sec--;
		t.tv_nsec += NS_PER_S;
	}
	return t;
}

static inline int64_t now_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return ts_ns(&t);
}

static inline int64_t mono_ns(void)
{
	return now_ns(CLOCK_MONOTONIC);
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* lfence orders rdtsc after earlier loads (Intel SDM vol. 2B, RDTSC). */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdtscp(uint32_t *aux)
{
	uint32_t lo, hi, c;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
	if (aux)
		*aux = c;
	return (uint64_t)hi << 32 | lo;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}
#define TP_HAVE_TSC 1
#else
#define TP_HAVE_TSC 0
#endif

#endif
