// SPDX-License-Identifier: MIT
/* The boot timeline and its `boot` record; see boottime.h. */
#include <stdio.h>
#include <string.h>

#include "../common/x86clock.h"
#include "boottime.h"
#include "sink.h"
#include "timeutil.h"

const char *const boot_phase_name[BP_COUNT] = {
	[BP_FIRMWARE] = "firmware",
	[BP_STUB_SETUP] = "stub_setup",
	[BP_CALIBRATION] = "stub_calibration",
	[BP_TSCSYNC] = "stub_tscsync",
	[BP_SCAN] = "stub_hwlat",
	[BP_STUB_HANDOVER] = "stub_handover",
	[BP_KERNEL] = "kernel",
	[BP_PID1_FIRST_RESULT] = "pid1_to_first_result",
	[BP_TO_POWEROFF] = "first_result_to_poweroff",
};

static uint64_t pid1_tsc;

/*
 * The counter the stub's milestones were read with (boot/arch.h): the TSC,
 * or CNTVCT_EL0; 0 where there is none (the timeline then says why not).
 */
static uint64_t tsc_now(void)
{
#if TP_HAVE_COUNTER
	return tp_counter_ordered();
#else
	return 0;
#endif
}

/* What the firmware phase counts from, on this architecture. */
#if TP_HAVE_TSC
#define FIRMWARE_CLOCK "tsc since reset (Intel SDM vol. 3, 18.17), as systemd-boot's LoaderTimeInitUSec"
#else
#define FIRMWARE_CLOCK "cntvct since the system counter started: 0 at cold reset on most " \
		       "systems and under QEMU; a CNTVOFF_EL2 set by firmware shifts it"
#endif

void boottime_mark_pid1(void)
{
	pid1_tsc = tsc_now();
}

static int64_t us(uint64_t from, uint64_t to, uint64_t hz)
{
	return (int64_t)tp_muldiv64(to - from, 1000000, hz, 1);
}

const char *boottime_compute(const struct tp_boot_tsc *s, uint64_t pid1, uint64_t first,
			     uint64_t end, uint64_t tsc_hz, struct boot_timeline *t)
{
	const uint64_t at[] = { 0, s->entry, s->calib_start, s->calibrated, s->scan_start,
				s->scanned, s->handover, pid1 };

	memset(t, 0, sizeof(*t));
	if (!tsc_hz)
		return "no TSC frequency from the stub";
	for (size_t i = 1; i < sizeof(at) / sizeof(at[0]); i++) {
		if (at[i] < at[i - 1])
			return "the counter went back between the stub and PID 1 (a reset, or a "
			       "kernel that wrote it)";
		t->us[i - 1] = us(at[i - 1], at[i], tsc_hz);
	}
	if (end < pid1 || (first && (first < pid1 || end < first)))
		return "the counter went back in PID 1";
	t->us[BP_PID1_FIRST_RESULT] = first ? us(pid1, first, tsc_hz) : -1;
	t->us[BP_TO_POWEROFF] = first ? us(first, end, tsc_hz) : -1;
	t->entry_to_poweroff_us = us(s->entry, end, tsc_hz);
	t->stub_overhead_us = t->us[BP_STUB_SETUP] + t->us[BP_STUB_HANDOVER];
	return NULL;
}

static void say(const struct boot_timeline *t)
{
	sink_human("timeprobe: boot timeline (us, " TP_COUNTER_NAME "): firmware %lld, stub %lld (overhead %lld), "
		   "kernel %lld, PID 1 to first result %lld, to power-off %lld\n",
		   (long long)t->us[BP_FIRMWARE],
		   (long long)(t->us[BP_STUB_SETUP] + t->us[BP_CALIBRATION] + t->us[BP_TSCSYNC] +
			       t->us[BP_SCAN] + t->us[BP_STUB_HANDOVER]),
		   (long long)t->stub_overhead_us, (long long)t->us[BP_KERNEL],
		   (long long)t->us[BP_PID1_FIRST_RESULT], (long long)t->us[BP_TO_POWEROFF]);
}

void boottime_emit(const struct stub_handoff *st)
{
	uint64_t end = tsc_now();
	struct boot_timeline t;
	const char *why = st->have_boot_tsc ? 0 : st->found ? "the stub's file (stub.tp1) gave no boot_tsc"
							   : STUB_NONE;
	struct tp_rec r;

	if (!why)
		why = boottime_compute(&st->boot_tsc, pid1_tsc, sink_first_result_tsc(), end,
				       (uint64_t)st->tsc_hz, &t);
	tp_rec_begin(&r, "boot");
	tp_rec_str(&r, "clock", TP_COUNTER_NAME);
	tp_rec_uint(&r, "tsc_hz", (uint64_t)st->tsc_hz);
	if (why) {
		tp_rec_str(&r, "reason", why);
		sink_emit(&r);
		sink_human("timeprobe: no boot timeline: %s\n", why);
		return;
	}
	/* flat <phase>_us keys: the report lines them up across runs like figures */
	for (int i = 0; i < BP_COUNT; i++) {
		char key[48];

		snprintf(key, sizeof(key), "%s_us", boot_phase_name[i]);
		if (t.us[i] >= 0)
			tp_rec_int(&r, key, t.us[i]);
		else
			tp_rec_null(&r, key);
	}
	tp_rec_int(&r, "entry_to_poweroff_us", t.entry_to_poweroff_us);
	tp_rec_int(&r, "stub_overhead_us", t.stub_overhead_us);
	tp_rec_int(&r, "kernel_boottime_us", now_ns(CLOCK_BOOTTIME) / 1000);
	tp_rec_str(&r, "firmware_clock", FIRMWARE_CLOCK);
	tp_rec_str(&r, "poweroff_is", "this record; saving the results and timeprobe.hold follow");
	sink_emit(&r);
	say(&t);
}

/* What the keys of the boot record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key boottime_rec_keys[] = {
	/* their lengths are the stub's choice; what varies is a window retried (calib's retried) */
	{ "boot", "stub_calibration_us", TP_KEY_BUDGET, "the stub's calibration: its references' rounds of windows, and any window it retried" },
	{ "boot", "stub_hwlat_us", TP_KEY_BUDGET, "the pre-OS scan: the length timeprobe.hwlat_ms= gave it" },
	{ "boot", "*_us", TP_KEY_FIGURE, "a boot phase or span in us (TSC over the stub's frequency)" },
	{ "boot", "*", TP_KEY_CONTEXT, "the boot timeline: the clock, its frequency, how to read it" },
	TP_REC_KEYS_END,
};
