// SPDX-License-Identifier: MIT
/*
 * The boot timeline (userland/boottime.h): phases from the stub's six TSC
 * values, PID 1's, the first result's and the end's, at a known rate; they
 * add up to entry -> power-off; a counter that went back gives no timeline.
 */
#include <stdint.h>

#include "../../userland/boottime.h"
#include "tap.h"

#define HZ 1000000000ull	/* 1 GHz: a tick is a ns */

int main(void)
{
	struct tp_boot_tsc s = { .entry = 2000000000, .calib_start = 2005000000,
				 .calibrated = 2255000000, .scan_start = 2275000000,
				 .scanned = 3275000000, .handover = 3276000000 };
	struct boot_timeline t;
	int64_t sum = 0;

	ok(!boottime_compute(&s, 3400000000, 3900000000, 4000000000, HZ, &t), "a timeline");
	is_int(t.us[BP_FIRMWARE], 2000000, "firmware: reset to entry, 2 s");
	is_int(t.us[BP_STUB_SETUP], 5000, "stub setup 5 ms");
	is_int(t.us[BP_CALIBRATION], 250000, "calibration 250 ms");
	is_int(t.us[BP_TSCSYNC], 20000, "TSC offsets 20 ms");
	is_int(t.us[BP_SCAN], 1000000, "scan 1 s");
	is_int(t.us[BP_STUB_HANDOVER], 1000, "hand-over 1 ms");
	is_int(t.us[BP_KERNEL], 124000, "kernel 124 ms");
	is_int(t.us[BP_PID1_FIRST_RESULT], 500000, "PID 1 to first result 500 ms");
	is_int(t.us[BP_TO_POWEROFF], 100000, "first result to power-off 100 ms");
	is_int(t.stub_overhead_us, 6000, "stub overhead: setup + hand-over");
	for (int i = BP_STUB_SETUP; i < BP_COUNT; i++)
		sum += t.us[i];
	is_int(sum, t.entry_to_poweroff_us, "the phases after entry add up to entry -> power-off");
	ok(!boottime_compute(&s, 3400000000, 0, 4000000000, HZ, &t) &&
		   t.us[BP_PID1_FIRST_RESULT] == -1 && t.us[BP_TO_POWEROFF] == -1,
	   "no result record: those two phases unknown");
	ok(boottime_compute(&s, 3000000000, 0, 4000000000, HZ, &t) != NULL,
	   "PID 1 before the hand-over: the counter went back, no timeline");
	ok(boottime_compute(&s, 3400000000, 3900000000, 4000000000, 0, &t) != NULL,
	   "no frequency: no timeline");
	ok(boottime_compute(&s, 3400000000, 4100000000, 4000000000, HZ, &t) != NULL,
	   "a first result after the end: no timeline");
	return tap_done();
}
