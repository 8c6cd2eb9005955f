/* SPDX-License-Identifier: MIT */
/*
 * Probe `noise`: the pure parts, tested on the host (tests/unit/test_noise.c):
 * gap detection over TSC reads and statistics of the gaps. The /proc
 * tables and the SMI counter it reads are the suite's (userland/irqstat.h).
 */
#ifndef TP_PROBE_NOISE_H
#define TP_PROBE_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "../irqstat.h"
#include "../stats.h"

/* ---- gaps: what the spin loop finds ---- */
struct noise_gaps {
	uint64_t threshold_ticks; /* a gap >= this is an interruption */
	uint64_t *gap;		  /* caller-owned, cap entries: gap lengths in ticks */
	size_t cap, n;
	uint64_t overflow;  /* gaps past cap: counted, summed and maxed, not kept */
	uint64_t count;	    /* every gap >= threshold (n + overflow) */
	uint64_t sum_ticks; /* of every gap >= threshold */
	uint64_t max_ticks;
	uint64_t backwards; /* reads that went back: a broken TSC, not a gap */
};

void noise_gaps_init(struct noise_gaps *g, uint64_t *buf, size_t cap, uint64_t threshold_ticks);

/* Out of line, so the spin loop stays a few instructions: notes one pair of
 * consecutive reads that noise_step() found far apart (or backwards). */
void noise_gap(struct noise_gaps *g, uint64_t prev, uint64_t now);

/* The test of the spin loop: unsigned, so a backward step is also "far". */
static inline void noise_step(struct noise_gaps *g, uint64_t prev, uint64_t now)
{
	if (now - prev >= g->threshold_ticks)
		noise_gap(g, prev, now);
}

/* The same over an array of reads: the loop's logic, testable. */
void noise_scan(struct noise_gaps *g, const uint64_t *ticks, size_t n);

/* ---- statistics of one CPU's (or the machine's) gaps ---- */
struct noise_stats {
	double duration_ns;
	uint64_t interruptions;
	double per_s;
	double stolen_pct; /* sum of gaps / duration */
	double max_gap_ns;
	double p50_gap_ns, p99_gap_ns, p999_gap_ns; /* over the kept gaps; NaN if none */
	uint64_t kept, dropped;
	uint64_t backwards;
};

/*
 * G's gaps over DURATION_TICKS (spent by NCPU CPUs: the divisor of
 * stolen_pct is duration * ncpu) at HZ: fills S and adds every kept gap to H
 * (NULL: none). Scratch holds g->n doubles (NULL: percentiles left NaN).
 */
void noise_summarize(const struct noise_gaps *g, uint64_t duration_ticks, int ncpu, double hz,
		     double *scratch, struct noise_stats *s, struct loghist *h);

/* Adds src into dst (a machine total from per-CPU gaps); the buffers are
 * not merged: dst->n counts, dst->gap is left alone. */
void noise_gaps_add(struct noise_gaps *dst, const struct noise_gaps *src);

/*
 * Rounds (docs/probes/noise.md, "Rounds"): the interrupt and softirq
 * counts of every round's window added up, by row name, per CPU column
 * while every round had the same columns (at most NOISE_SUM_COLS; else the
 * totals alone), at most NOISE_SUM_ROWS rows (later names are left out and
 * counted in dropped). Plain arrays: it lives in the suite's shared memory.
 */
#define NOISE_SUM_ROWS 512
#define NOISE_SUM_COLS 64
struct noise_irqsum {
	int rounds;		/* deltas added */
	int ncol;
	int cpu[NOISE_SUM_COLS];
	size_t nrows, dropped;
	struct irqstat_row row[NOISE_SUM_ROWS];
	uint64_t count[NOISE_SUM_ROWS * NOISE_SUM_COLS];
};

void noise_irqsum_add(struct noise_irqsum *s, const struct irqstat_table *d);
/* The sum as a table to read (its arrays are the sum's: never freed). */
void noise_irqsum_view(struct noise_irqsum *s, struct irqstat_table *t);

#endif
