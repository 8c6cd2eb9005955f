/* SPDX-License-Identifier: MIT */
/*
 * Time hidden from the TSC in the pre-OS scan (docs/readiness.md,
 * `hidden_gaps`): the BSP reads an independent reference (HPET, else the
 * ACPI PM timer) between two TSC reads at the edges of its window's
 * chunks; a chunk where the TSC, converted at the stub's chosen frequency,
 * advanced less than the reference did by more than the uncertainty of
 * both reads (half of each edge's TSC bracket, one reference tick, the
 * calibration's ppm over the chunk) is a hidden gap: time the TSC did not
 * count (SMM that stops or rewinds it). Here: the chunk's arithmetic and
 * the sum over the window; the reads are boot/hwlatrun.c's. Freestanding C
 * (no libc), tested by tests/unit/test_hidden.c.
 */
#ifndef TP_COMMON_HIDDEN_H
#define TP_COMMON_HIDDEN_H

#include <stdint.h>

/* A chunk of the BSP's window between two reads of the reference. */
#define TP_HIDDEN_CHUNK_MS 10

/* How ticks of both counters become ns, and how well their rates are known. */
struct tp_hidden_scale {
	uint64_t tsc_hz;		/* the stub's chosen frequency */
	uint64_t ns_mul, ns_div;	/* reference ns = ticks * ns_mul / ns_div */
	unsigned int bits;		/* the reference's width as read (it wraps) */
	uint32_t ppm;			/* the TSC's rate against the reference, its uncertainty */
};

/* One edge: the reference read between the TSC reads tsc_a and tsc_b. */
struct tp_hidden_edge {
	uint64_t tsc_a, tsc_b;
	uint64_t ref;
};

/* One chunk: the reference's advance minus the TSC's, in ns, and its uncertainty. */
struct tp_hidden_chunk {
	int64_t deficit_ns;
	uint64_t unc_ns;
};

/* The window's chunks: compared, hidden gaps, the largest deficit and its uncertainty. */
struct tp_hidden_sum {
	uint32_t chunks, gaps;
	int64_t max_deficit_ns;
	uint64_t max_unc_ns;
};

/* A reference of ref_hz (the PM timer's ACPI_PM_TIMER_HZ). */
void tp_hidden_scale_hz(struct tp_hidden_scale *s, uint64_t ref_hz);
/* A reference whose period is period_fs femtoseconds (the HPET's). */
void tp_hidden_scale_fs(struct tp_hidden_scale *s, uint32_t period_fs);
/*
 * The reference read ppm fast (timeprobe.inject=skew:REF:PPM, common/skew.h),
 * as the calibration read it: its ns are (1 + ppm/1e6) times as many.
 */
void tp_hidden_scale_skew(struct tp_hidden_scale *s, int32_t ppm);

/* The chunk from edge e0 to edge e1 (the reference wrapped at most once between them). */
void tp_hidden_chunk(const struct tp_hidden_scale *s, const struct tp_hidden_edge *e0,
		     const struct tp_hidden_edge *e1, struct tp_hidden_chunk *c);

/* 1 when the TSC advanced less than the reference by more than the uncertainty. */
int tp_hidden_is_gap(const struct tp_hidden_chunk *c);

/* Counts chunk c into sum (zeroed before the first). */
void tp_hidden_add(struct tp_hidden_sum *sum, const struct tp_hidden_chunk *c);

#endif
