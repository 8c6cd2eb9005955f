// SPDX-License-Identifier: MIT
/* The verdict's thresholds and words; see verdict.h and docs/verdict.md. Freestanding. */
#include "verdict.h"

/*
 * docs/verdict.md gives each row's source; change both together. "counter":
 * the TSC on x86, CNTVCT_EL0 on arm64 (the ids keep their x86 names).
 */
const struct verdict_limit verdict_limits[] = {
	{ "tsc_invariant", "TSC invariant (CPUID 0x80000007)", 0, 0, 0,
	  "a TSC that changes rate or stops is no clock (kernel tsc.c)" },
	{ "tsc_stub_vs_kernel_ppm", "counter: stub vs kernel frequency", "ppm", 15, 200,
	  "RFC 5905 tolerance 15 ppm; watchdog skew 100 us per 0.5 s" },
	{ "tsc_offset_ns", "counter: cross-CPU offset, upper bound", "ns", 100, 1000,
	  "below a cache line's trip between CPUs no one sees it" },
	{ "tsc_drift_ppm", "counter: rate against an independent counter", "ppm", 15, 200,
	  "RFC 5905 tolerance 15 ppm; watchdog skew 100 us per 0.5 s" },
	{ "clock_read_ns", "CLOCK_MONOTONIC read cost", "ns", 100, 1000,
	  "vDSO on the TSC: tens of ns; a system call or port read: us" },
	{ "wakeup_max_ns", "worst wake-up latency (cyclictest's clock_nanosleep)", "ns",
	  100000, 1000000, "PREEMPT_RT practice (OSADL): max under 100 us" },
	{ "noise_stolen_pct", "OS noise: time stolen from a spinning CPU", "%", 0.1, 1,
	  "1 % is 10 ms a second lost to the application" },
	{ "noise_max_gap_ns", "OS noise: largest gap", "ns", 10000, 100000,
	  "a gap over 100 us misses an RT deadline by itself" },
	{ "itimer_error_pct", "timer accuracy: ITIMER_REAL's worst error", "%", 1, 10,
	  "a periodic timer 10 % off misses every tenth period" },
};

const size_t verdict_limit_count = sizeof(verdict_limits) / sizeof(verdict_limits[0]);

static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const struct verdict_limit *verdict_limit_find(const char *id)
{
	for (size_t i = 0; id && i < verdict_limit_count; i++)
		if (same(verdict_limits[i].id, id))
			return &verdict_limits[i];
	return 0;
}

enum verdict_word verdict_word_of(const struct verdict_limit *l, double v)
{
	if (v != v)
		return VW_NOT_MEASURED;
	if (!l->unit)
		return v != 0 ? VW_GOOD : VW_POOR;
	if (v < 0)
		v = -v;
	if (v <= l->good_max)
		return VW_GOOD;
	return v <= l->fair_max ? VW_FAIR : VW_POOR;
}

const char *verdict_word_name(enum verdict_word w)
{
	static const char *const names[] = {
		[VW_NOT_MEASURED] = "not measured", [VW_UNKNOWN] = "unknown",
		[VW_POOR] = "poor", [VW_FAIR] = "fair", [VW_GOOD] = "good",
	};

	return (unsigned)w < sizeof(names) / sizeof(names[0]) ? names[w] : "unknown";
}
