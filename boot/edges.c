// SPDX-License-Identifier: MIT
/* A counter's rate from polled clock edges; see edges.h. */
#include "edges.h"
#include "../common/x86clock.h"	/* tp_muldiv64 */

int32_t tp_rtc_day_seconds(uint32_t hour, uint32_t minute, uint32_t second)
{
	/* UEFI 2.10, 8.3 EFI_TIME: Second 0-59 (a leap second may read 60) */
	if (hour > 23 || minute > 59 || second > 60)
		return -1;
	return (int32_t)(hour * 3600 + minute * 60 + second);
}

uint32_t tp_rtc_elapsed(int32_t a, int32_t b)
{
	return (uint32_t)(b >= a ? b - a : b + 86400 - a);
}

int tp_edge_rate(const struct tp_edge *first, const struct tp_edge *last, uint32_t secs,
		 struct tp_edge_rate *out)
{
	uint64_t mid0, mid1, ticks, slack, bound;

	out->hz = 0;
	out->bound_ppm = 0;
	if (!secs || first->hi < first->lo || last->hi < last->lo || last->lo <= first->hi)
		return -1;
	/* midpoints without overflow: lo + (hi - lo) / 2 */
	mid0 = first->lo + (first->hi - first->lo) / 2;
	mid1 = last->lo + (last->hi - last->lo) / 2;
	ticks = mid1 - mid0;
	out->hz = tp_muldiv64(ticks, 1, secs, 1);
	/* each midpoint is off by at most half its bracket, rounded up */
	slack = (first->hi - first->lo + 1) / 2 + (last->hi - last->lo + 1) / 2;
	bound = tp_muldiv64(slack, 1000000, ticks, 0);
	if ((unsigned __int128)bound * ticks < (unsigned __int128)slack * 1000000)
		bound++;	/* rounded up: a bound must not shrink */
	out->bound_ppm = bound > UINT32_MAX ? UINT32_MAX : (uint32_t)bound;
	return 0;
}

int64_t tp_ppm_milli(uint64_t measured, uint64_t claimed)
{
	if (measured >= claimed)
		return (int64_t)tp_muldiv64(measured - claimed, 1000000000, claimed, 1);
	return -(int64_t)tp_muldiv64(claimed - measured, 1000000000, claimed, 1);
}

int tp_claim_holds(uint64_t measured, uint64_t claimed, uint32_t bound_ppm)
{
	int64_t m;

	if (!claimed)
		return 0;
	m = tp_ppm_milli(measured, claimed);
	return (m < 0 ? -m : m) <= (int64_t)bound_ppm * 1000;
}
