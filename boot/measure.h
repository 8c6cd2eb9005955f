/* SPDX-License-Identifier: MIT */
/*
 * The measurement kernels: one timed round against one reference, producing
 * (TSC ticks, reference ticks). Nothing else happens here: ticks become Hz
 * in common/x86clock.c, rounds one rate in calib.c, records are printed by
 * tsc.c. EFI-free but privileged (port I/O, MMIO).
 */
#ifndef TP_BOOT_MEASURE_H
#define TP_BOOT_MEASURE_H

#include <stdint.h>

#include "../common/acpi.h"
#include "../common/x86clock.h"
#include "calib.h"

/* Error codes of a round */
#define TP_MEASURE_OK 0
#define TP_MEASURE_TIMEOUT -1	/* the reference did not advance in time */
#define TP_MEASURE_STUCK -2	/* the reference did not move at all */
#define TP_MEASURE_NOISY -3	/* an end of the round could not be pinned down
				 * within max_bracket_tsc (SMI, host preemption) */

struct tp_hpet_state {
	uint64_t base;
	uint64_t gcap_id;
	uint64_t conf_found;	/* GEN_CONF as found, restored by tp_hpet_end() */
	uint32_t period_fs;
	int enabled_by_us;
};

/*
 * An end of a round whose TSC bracket is wider than this is not trusted: 20 us
 * is 400 ppm of a 50 ms window, while a clean port or MMIO read takes about
 * 1 us on hardware and under QEMU. Such a round is retried, up to
 * TP_MEASURE_RETRIES times.
 */
#define TP_MEASURE_MAX_BRACKET_US 20
#define TP_MEASURE_RETRIES 3

/* Limits of a round, in TSC ticks (from a rough estimate of the TSC rate). */
struct tp_measure_limits {
	uint64_t timeout_tsc;		/* give up on the reference after this */
	uint64_t max_bracket_tsc;	/* widest acceptable TSC bracket of an end */
};

/*
 * Each round waits until the reference has advanced by ~ms milliseconds and
 * gives up after lim->timeout_tsc TSC ticks. A reference read is bracketed by two
 * TSC reads and stamped with their midpoint; the tightest of a few brackets
 * is used at each end of the round, so that a read stretched by an SMI is
 * not the one kept. The caller raises the TPL to TPL_HIGH_LEVEL around a round
 * (no timer interrupts), as Linux calibrates with interrupts disabled.
 */
int tp_measure_pmtimer(const struct tp_pm_timer *pm, uint32_t ms, const struct tp_measure_limits *lim,
		       struct tp_round *r);

/* Reads GCAP_ID and enables the main counter if it is stopped. */
int tp_hpet_begin(struct tp_hpet_state *h, uint64_t base);
/* Restores GEN_CONF's enable bit as found. */
void tp_hpet_end(struct tp_hpet_state *h);
int tp_measure_hpet(const struct tp_hpet_state *h, uint32_t ms, const struct tp_measure_limits *lim,
		    struct tp_round *r);

/*
 * One read of a counter, for a caller of its own (the pre-OS scan's edges,
 * hwlatrun.c): the PM timer (ctx a struct tp_pm_timer, its declared width)
 * and the HPET's low 32 bits (ctx a struct tp_hpet_state after tp_hpet_begin()).
 */
uint32_t tp_pm_read(const void *ctx);
uint32_t tp_hpet_read(const void *ctx);

/* PIT channel 2, mode 0, gate via port 0x61 (Linux pit_calibrate_tsc()).
 * ms is capped at 54 (16-bit counter). Port 0x61 is restored afterwards.
 * The start is bracketed by TSC reads around the count's MSB write, the end
 * by the last poll that saw OUT2 low and the first that saw it high. */
int tp_measure_pit(uint32_t ms, const struct tp_measure_limits *lim, struct tp_round *r);

/* A delay service (UEFI Stall) measured in microseconds. */
typedef void (*tp_stall_fn)(uint32_t us, void *ctx);
int tp_measure_stall(tp_stall_fn stall, void *ctx, uint32_t ms, struct tp_round *r);

/* A quick rough TSC frequency from one short stall, for timeouts only. */
uint64_t tp_rough_tsc_hz(tp_stall_fn stall, void *ctx);

#endif
