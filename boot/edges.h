/* SPDX-License-Identifier: MIT */
/*
 * A counter's rate from the edges of a slower clock that can only be polled
 * (the UEFI RTC's seconds, GetTime): EFI-free, no floating point, tested on
 * the host (tests/unit/test_edges.c). Each edge is known to lie between the
 * counter read before the poll that still showed the old second began (lo)
 * and the read after the poll that showed the new one (hi); its estimate is
 * the midpoint, and the rate's bound is the sum of both half-widths over the
 * ticks between the edges.
 */
#ifndef TP_BOOT_EDGES_H
#define TP_BOOT_EDGES_H

#include <stdint.h>

struct tp_edge {
	uint64_t lo, hi;	/* counter ticks bracketing the edge, lo <= hi */
};

struct tp_edge_rate {
	uint64_t hz;		/* counter ticks per second of the slow clock */
	uint32_t bound_ppm;	/* half-width of the interval hz lies in, rounded up */
};

/* Seconds since midnight of an RTC reading; -1 when a field is out of range. */
int32_t tp_rtc_day_seconds(uint32_t hour, uint32_t minute, uint32_t second);

/* Seconds from a to b on a 24-hour dial (b after a, at most one day later). */
uint32_t tp_rtc_elapsed(int32_t a, int32_t b);

/*
 * The rate between two edges secs seconds apart. Returns 0, or -1 when the
 * edges are malformed (hi < lo, the second not after the first) or secs is 0.
 */
int tp_edge_rate(const struct tp_edge *first, const struct tp_edge *last, uint32_t secs,
		 struct tp_edge_rate *out);

/* (measured - claimed) / claimed in thousandths of a ppm (claimed > 0). */
int64_t tp_ppm_milli(uint64_t measured, uint64_t claimed);

/* 1 when measured lies within bound_ppm of claimed (a claim of 0 never holds). */
int tp_claim_holds(uint64_t measured, uint64_t claimed, uint32_t bound_ppm);

#endif
