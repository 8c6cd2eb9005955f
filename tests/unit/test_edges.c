// SPDX-License-Identifier: MIT
/* Host tests of the arm64 stub's arithmetic (boot/edges.c): a counter's rate
 * from polled RTC second edges, its bound, and ppm against CNTFRQ. TAP. */
#include <stdint.h>

#include "../../boot/edges.h"
#include "tap.h"

/* Edges of a 62.5 MHz counter (QEMU virt) with known brackets. */
static void rate_exact(void)
{
	struct tp_edge a = { 1000000, 1000000 }, b = { 1000000 + 3 * 62500000ull, 1000000 + 3 * 62500000ull };
	struct tp_edge_rate r;

	is_int(tp_edge_rate(&a, &b, 3, &r), 0, "exact edges: accepted");
	is_int(r.hz, 62500000, "exact edges: 62.5 MHz");
	is_int(r.bound_ppm, 0, "exact edges: no bound to add");
}

static void rate_bracketed(void)
{
	/* each edge known to 6250 ticks (100 us at 62.5 MHz): midpoints 3125 in */
	struct tp_edge a = { 0, 6250 }, b = { 187500000, 187506250 };
	struct tp_edge_rate r;

	is_int(tp_edge_rate(&a, &b, 3, &r), 0, "bracketed edges: accepted");
	is_int(r.hz, 62500000, "bracketed edges: rate from the midpoints");
	/* slack 3125 + 3125 ticks of 187500000: 33.3 ppm, rounded up to 34 */
	is_int(r.bound_ppm, 34, "bracketed edges: bound = both half-brackets, rounded up");
}

static void rate_bad(void)
{
	struct tp_edge a = { 10, 5 }, b = { 100, 200 }, c = { 0, 10 };
	struct tp_edge_rate r;

	is_int(tp_edge_rate(&a, &b, 1, &r), -1, "a bracket with hi < lo is refused");
	is_int(tp_edge_rate(&c, &c, 1, &r), -1, "the last edge not after the first is refused");
	is_int(tp_edge_rate(&c, &b, 0, &r), -1, "0 seconds is refused");
	is_int(r.hz, 0, "a refused rate is 0 Hz");
}

static void rtc_seconds(void)
{
	is_int(tp_rtc_day_seconds(0, 0, 0), 0, "midnight is second 0");
	is_int(tp_rtc_day_seconds(23, 59, 59), 86399, "23:59:59");
	is_int(tp_rtc_day_seconds(24, 0, 0), -1, "hour 24 is out of range");
	is_int(tp_rtc_day_seconds(1, 60, 0), -1, "minute 60 is out of range");
	is_int(tp_rtc_day_seconds(1, 0, 60), 3660, "a leap second reads 60");
	is_int(tp_rtc_elapsed(86398, 1), 3, "elapsed across midnight");
	is_int(tp_rtc_elapsed(100, 103), 3, "elapsed within the day");
}

static void ppm(void)
{
	is_int(tp_ppm_milli(62500000, 62500000), 0, "equal: 0 ppm");
	is_int(tp_ppm_milli(62503125, 62500000), 50000, "+50 ppm in thousandths");
	is_int(tp_ppm_milli(62496875, 62500000), -50000, "-50 ppm in thousandths");
	is_int(tp_ppm_milli(1000000001, 1000000000), 1, "1 GHz counter, +1 Hz: 0.001 ppm");
}

static void claim(void)
{
	ok(tp_claim_holds(62483196, 62500000, 5427), "-269 ppm within a 5427 ppm bound: the claim holds");
	ok(!tp_claim_holds(62483196, 62500000, 100), "-269 ppm beyond a 100 ppm bound: contradicted");
	ok(tp_claim_holds(62506250, 62500000, 100), "+100 ppm at a 100 ppm bound: holds (inclusive)");
	ok(!tp_claim_holds(62500000, 0, 1000000), "a claim of 0 Hz never holds");
}

int main(void)
{
	rate_exact();
	rate_bracketed();
	rate_bad();
	rtc_seconds();
	ppm();
	claim();
	return tap_done();
}
