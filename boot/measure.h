/* SPDX-License-Identifier: MIT */
/*
 * The measurement kernels: one timed round against one reference, producing
 * (TSC ticks, reference ticks). Nothing else happens here: statistics are in
 * calib.c, records in stub.c. EFI-free but privileged (port I/O, MMIO).
 */
#ifndef TP_BOOT_MEASURE_H
#define TP_BOOT_MEASURE_H

#include <stdint.h>

#include "acpi.h"
#include "calib.h"

/* Error codes of a round */
#define TP_MEASURE_OK 0
#define TP_MEASURE_TIMEOUT -1	/* the reference did not advance in time */
#define TP_MEASURE_STUCK -2	/* the reference did not move at all */

struct tp_hpet_state {
	uint64_t base;
	uint64_t gcap_id;
	uint64_t conf_found;	/* GEN_CONF as found, restored by tp_hpet_end() */
	uint32_t period_fs;
	int enabled_by_us;
};

/*
 * Each round waits until the reference has advanced by ~ms milliseconds and
 * gives up after timeout_tsc TSC ticks. A reference read is bracketed by two
 * TSC reads and stamped with their midpoint; the tightest of a few brackets
 * is used at each end of the round, so that a read stretched by an SMI is
 * not the one kept. The caller raises the TPL to TPL_HIGH_LEVEL around a round
 * (no timer interrupts), as Linux calibrates with interrupts disabled.
 */
int tp_measure_pmtimer(const struct tp_pm_timer *pm, uint32_t ms, uint64_t timeout_tsc,
		       struct tp_round *r);

/* Reads GCAP_ID and enables the main counter if it is stopped. */
int tp_hpet_begin(struct tp_hpet_state *h, uint64_t base);
/* Restores GEN_CONF's enable bit as found. */
void tp_hpet_end(struct tp_hpet_state *h);
int tp_measure_hpet(const struct tp_hpet_state *h, uint32_t ms, uint64_t timeout_tsc,
		    struct tp_round *r);

/* PIT channel 2, mode 0, gate via port 0x61 (Linux pit_calibrate_tsc()).
 * ms is capped at 54 (16-bit counter). Port 0x61 is restored afterwards. */
int tp_measure_pit(uint32_t ms, uint64_t timeout_tsc, struct tp_round *r);

/* A delay service (UEFI Stall) measured in microseconds. */
typedef void (*tp_stall_fn)(uint32_t us, void *ctx);
int tp_measure_stall(tp_stall_fn stall, void *ctx, uint32_t ms, struct tp_round *r);

/* A quick rough TSC frequency from one short stall, for timeouts only. */
uint64_t tp_rough_tsc_hz(tp_stall_fn stall, void *ctx);

#endif
