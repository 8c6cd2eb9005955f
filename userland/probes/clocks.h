/* SPDX-License-Identifier: MIT */
/*
 * Probe `clocks`, the parts without I/O: TSC-to-ns fixed-point conversion,
 * per-call figures from batch durations, step statistics over chunks of
 * consecutive reads, formatting. Inline here, so tests/unit/test_clocks.c
 * tests them with nothing but stats.o.
 */
#ifndef TP_PROBES_CLOCKS_H
#define TP_PROBES_CLOCKS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../ci.h"
#include "../stats.h"

#define CLK_NS_PER_S 1000000000ULL

/*
 * ns = cycles * mult >> shift, the kernel's clocksource conversion
 * (include/linux/clocksource.h, clocksource_cyc2ns()).
 */
struct cyc2ns {
	uint32_t mult;
	uint32_t shift;
};

/*
 * kernel/time/clocksource.c, clocks_calc_mult_shift(): the largest shift for
 * which maxsec seconds of input cycles times mult still fit in 64 bits, and
 * the mult for it, rounded to nearest. from_hz is 64-bit here (the kernel
 * passes kHz for the TSC to stay in 32 bits); the arithmetic is the same.
 */
static inline void clocks_calc_mult_shift(struct cyc2ns *c, uint64_t from_hz, uint64_t to_hz,
					  uint32_t maxsec)
{
	uint64_t tmp;
	uint32_t sft, sftacc = 32;

	/* the bits that maxsec seconds of input need limit the shift ... */
	tmp = ((uint64_t)maxsec * from_hz) >> 32;
	while (tmp) {
		tmp >>= 1;
		sftacc--;
	}
	/* ... then the largest shift whose mult still fits in sftacc bits */
	for (sft = 32; sft > 0; sft--) {
		tmp = to_hz << sft;
		tmp += from_hz / 2;
		tmp /= from_hz;
		if ((tmp >> sftacc) == 0)
			break;
	}
	c->mult = (uint32_t)tmp;
	c->shift = sft;
}

static inline uint64_t cyc2ns(const struct cyc2ns *c, uint64_t cycles)
{
	/* 128-bit product, as mul_u64_u32_shr() in the vDSO: no overflow
	 * even past maxsec */
	return (uint64_t)(((unsigned __int128)cycles * c->mult) >> c->shift);
}

/* A user-space clock: TSC read, converted, added to a CLOCK_MONOTONIC_RAW base
 * (seed 003's cheap.gettime). */
struct tsc_clock {
	uint64_t base_tsc;
	int64_t base_ns;
	struct cyc2ns conv;
};

/*
 * Per-call figures from batches: batch[i] timer units for calls_per_batch
 * calls; 'unit' turns timer units into ns (1 for a ns timer, ns per tick for
 * the TSC). The median, min and p99 of the batch means (nearest rank, from
 * n batches: stats.h), their mean and the time all batches took. Sorts batch.
 */
struct per_call {
	size_t n;		/* batches behind the percentiles */
	double p50, min, p99;
	double mean;		/* total time / total calls, what a plain loop reports */
	double p50_lo, p50_hi, p99_lo, p99_hi, mean_lo, mean_hi;	/* 95 % intervals (ci.h) */
	double elapsed_ns;	/* every batch together: the seed's "Elapsed" */
};

static inline void per_call_figures(double *batch, size_t n, uint64_t calls_per_batch,
				    double unit, struct per_call *f)
{
	double k = unit / (double)(calls_per_batch ? calls_per_batch : 1), sum = 0, ss = 0, m;

	for (size_t i = 0; i < n; i++)
		sum += batch[i];
	m = n ? sum / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		ss += (batch[i] - m) * (batch[i] - m);
	f->n = n;
	f->mean = m * k;
	ci_mean(f->mean, n > 1 ? sqrt(ss / (double)(n - 1)) * k : 0, n, &f->mean_lo, &f->mean_hi);
	f->elapsed_ns = sum * unit;
	stats_sort_doubles(batch, n);
	f->p50 = stats_percentile_sorted(batch, n, 50) * k;
	f->min = n ? batch[0] * k : 0;
	f->p99 = stats_percentile_sorted(batch, n, 99) * k;
	ci_quantile(batch, n, 50, &f->p50_lo, &f->p50_hi);
	ci_quantile(batch, n, 99, &f->p99_lo, &f->p99_hi);
	f->p50_lo *= k;
	f->p50_hi *= k;
	f->p99_lo *= k;
	f->p99_hi *= k;
}

/*
 * Step statistics over chunks of consecutive reads (stats_step() per chunk,
 * merged). Steps between chunks are not counted: the reads at the edges of
 * two chunks were not consecutive.
 */
struct step_acc {
	struct step_stats s;	/* granularity, backward, largest_backward */
	uint64_t reads;
	uint64_t forward;	/* non-zero forward steps seen */
};

static inline void step_acc_add(struct step_acc *a, const int64_t *reads, size_t n)
{
	struct step_stats s;

	stats_step(reads, n, &s);
	if (s.granularity && (!a->s.granularity || s.granularity < a->s.granularity))
		a->s.granularity = s.granularity;
	a->s.backward += s.backward;
	if (s.largest_backward > a->s.largest_backward)
		a->s.largest_backward = s.largest_backward;
	for (size_t i = 1; i < n; i++)
		a->forward += reads[i] > reads[i - 1];
	a->reads += n;
}

/*
 * Seconds as the seeds print them: "1733140000.123456789" (decimals 9),
 * "1212380080.620649" (6, truncated as tv_usec is), "1212380161" (0).
 */
static inline void format_seconds(char *buf, size_t len, int64_t ns, int decimals)
{
	const char *sign = ns < 0 ? "-" : "";
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t sec = a / CLK_NS_PER_S, frac = a % CLK_NS_PER_S;

	if (decimals <= 0) {
		snprintf(buf, len, "%s%llu", sign, (unsigned long long)sec);
		return;
	}
	if (decimals > 9)
		decimals = 9;
	for (int i = decimals; i < 9; i++)
		frac /= 10;
	snprintf(buf, len, "%s%llu.%0*llu", sign, (unsigned long long)sec, decimals,
		 (unsigned long long)frac);
}

/* "57 ns", "1.2 us", "4 ms", "1 s", "0.477 ns": three significant digits;
 * "-" for nothing (0, NaN). */
static inline void format_duration(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		const char *unit;
	} u[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	size_t i = 0;

	if (!isfinite(ns) || ns <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	/* 0.9995: what rounds up to 1 of the larger unit is shown in it */
	while (i < 3 && ns < u[i].scale * 0.9995)
		i++;
	snprintf(buf, len, "%.3g %s", ns / u[i].scale, u[i].unit);
}

/*
 * Without a tracer (ptrace refused), whether libc's call stayed in user space
 * is judged by cost: under half of the raw syscall's. A vDSO read costs
 * tens of ns, a syscall hundreds; a libc call that enters the kernel costs
 * at least as much as the syscall it makes.
 */
static inline int vdso_by_cost(double libc_ns, double syscall_ns)
{
	return libc_ns > 0 && syscall_ns > 0 && libc_ns < 0.5 * syscall_ns;
}

#endif
