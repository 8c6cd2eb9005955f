/* SPDX-License-Identifier: MIT */
/*
 * The boot timeline (docs/stub.md, "Boot timeline"): the `boot` record of
 * an appliance run, the phases from reset to power-off in us, each with the
 * clock it was derived from. The stub's six counter values (the TSC, or
 * CNTVCT_EL0 on arm64) come in the stub's file as boot_tsc (common/stubfile.h, handoff.h);
 * PID 1 reads the same counter first thing (boottime_mark_pid1()), the sink
 * notes its first probe result, and the record's own moment is the
 * power-off's (saving the results file and timeprobe.hold come after it).
 * All from one clock over the stub's calibrated frequency: the phases add
 * up to stub entry -> power-off.
 */
#ifndef TP_BOOTTIME_H
#define TP_BOOTTIME_H

#include <stdint.h>

#include "../common/handoff.h"
#include "stubvals.h"
#include "../common/recdecl.h"

enum boot_phase {
	BP_FIRMWARE,		/* reset -> stub entry */
	BP_STUB_SETUP,		/* stub entry -> calibration start */
	BP_CALIBRATION,
	BP_TSCSYNC,		/* the pre-OS TSC offsets (boot/mp.c) */
	BP_SCAN,		/* the pre-OS latency scan (boot/hwlat.c) */
	BP_STUB_HANDOVER,	/* scan end -> command line complete */
	BP_KERNEL,		/* hand-over -> PID 1's first instruction of ours */
	BP_PID1_FIRST_RESULT,	/* PID 1 -> the first probe result */
	BP_TO_POWEROFF,		/* first result -> this record */
	BP_COUNT
};

extern const char *const boot_phase_name[BP_COUNT];

struct boot_timeline {
	int64_t us[BP_COUNT];		/* -1: unknown (no result record) */
	int64_t entry_to_poweroff_us;	/* the same span measured at once */
	int64_t stub_overhead_us;	/* setup + hand-over: the stub without its measurements */
};

/*
 * The phases from the stub's TSC values, PID 1's (pid1), the first result's
 * (first, 0: none) and the end's, at tsc_hz. Returns NULL, or why there is
 * no timeline (the TSC went back between stages: reset, or a kernel that
 * wrote it).
 */
const char *boottime_compute(const struct tp_boot_tsc *s, uint64_t pid1, uint64_t first,
			     uint64_t end, uint64_t tsc_hz, struct boot_timeline *t);

/* PID 1's first TSC read: called first thing in main(). */
void boottime_mark_pid1(void);

/* The `boot` record and a line for people, from the stub's figures (its boot_tsc, tsc_hz). */
void boottime_emit(const struct stub_handoff *st);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key boottime_rec_keys[];

#endif
