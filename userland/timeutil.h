/* SPDX-License-Identifier: MIT */
/*
 * Time in int64_t nanoseconds and uint64_t TSC ticks: the conversions, the
 * clock reads (now_ns, mono_ns), the CPU counter's reads (the TSC's rdtsc,
 * rdtsc_ordered, rdtscp; any architecture's tp_counter*) and a spin loop's
 * pause (cpu_relax). Header only.
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

/*
 * The CPU's own counter, one interface per architecture: tp_counter() (a
 * plain read), tp_counter_ordered() (after the loads before it),
 * cpu_relax() (a spin loop's pause) and TP_COUNTER_NAME. x86: the TSC (and
 * rdtsc, rdtsc_ordered, rdtscp by name, TP_HAVE_TSC). arm64: the generic
 * timer's virtual count CNTVCT_EL0, whose frequency firmware claims in
 * CNTFRQ_EL0 (tp_counter_claimed_hz()); Linux lets EL0 read both
 * (CNTKCTL_EL1.EL0VCTEN). Probes that need the TSC itself skip elsewhere.
 */
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
#define TP_HAVE_COUNTER 1
#define TP_COUNTER_NAME "tsc"
static inline uint64_t tp_counter(void) { return rdtsc(); }
static inline uint64_t tp_counter_ordered(void) { return rdtsc_ordered(); }
/* The TSC states no frequency of its own. */
static inline uint64_t tp_counter_claimed_hz(void) { return 0; }
/* ECV is arm64's: -1, not applicable. */
static inline int tp_counter_ecv(void) { return -1; }
#elif defined(__aarch64__)
#include <sys/auxv.h>
#define TP_HAVE_TSC 0
#define TP_HAVE_COUNTER 1
#define TP_COUNTER_NAME "cntvct"
static inline uint64_t tp_counter(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* isb: the read is not made before the instructions before it (Arm ARM
 * D12.1.2; Linux's __arch_counter_get_cntvct). */
static inline uint64_t tp_counter_ordered(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

static inline uint64_t tp_counter_claimed_hz(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v & 0xffffffffu;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

/* FEAT_ECV (self-synchronising CNTVCTSS_EL0) as the kernel reports it:
 * HWCAP2_ECV, arch/arm64/include/uapi/asm/hwcap.h (Linux 6.1). */
static inline int tp_counter_ecv(void)
{
	return !!(getauxval(AT_HWCAP2) & (1UL << 19));
}
#else
#define TP_HAVE_TSC 0
#define TP_HAVE_COUNTER 0
#define TP_COUNTER_NAME "none"
static inline uint64_t tp_counter_claimed_hz(void) { return 0; }
static inline int tp_counter_ecv(void) { return -1; }
#endif

#endif
