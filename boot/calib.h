/* SPDX-License-Identifier: MIT */
/*
 * The stub's calibration rules: EFI-free, no floating point, tested on the
 * host (tests/unit/test_calib.c). The rounds are measured in measure.c and
 * turned into Hz by the shared clock arithmetic (common/x86clock.h); this
 * file reduces one reference's rounds to a rate (median, outlier rule,
 * spread), bounds a round and the whole calibration in time, and measures
 * how far the references disagree. See docs/stub.md, "Calibration".
 */
#ifndef TP_BOOT_CALIB_H
#define TP_BOOT_CALIB_H

#include <stddef.h>
#include <stdint.h>

#include "../common/words.h"	/* TP_CALIB_ROUNDS_MAX, the contract's bound */

/*
 * Outlier rule: a round is rejected when it lies further from the median of
 * all rounds than max(TP_CALIB_OUTLIER_FLOOR_PPM, TP_CALIB_OUTLIER_MADS x
 * 1.4826 x MAD), MAD being the median absolute deviation in ppm (1.4826 MAD
 * estimates one standard deviation for normal noise). The floor keeps a set
 * of nearly identical rounds from rejecting a member that is 3 ppm off.
 */
#define TP_CALIB_OUTLIER_FLOOR_PPM 50
#define TP_CALIB_OUTLIER_MADS 3

/* Hardware references disagreeing by more than this earn a warning. */
#define TP_CALIB_WARN_PPM 500

struct tp_round {
	uint64_t tsc_ticks;	/* TSC delta over the round */
	uint64_t ref_ticks;	/* reference delta over the round */
};

struct tp_calib_result {
	uint64_t tsc_hz;	/* median of the kept rounds */
	uint32_t spread_ppm;	/* (max - min) / median of the kept rounds */
	uint32_t rounds;	/* rounds measured */
	uint32_t rejected;	/* rounds rejected as outliers or invalid */
	uint32_t threshold_ppm;	/* the outlier threshold that was applied */
};

/* Median of n values; sorts v in place. 0 when n == 0. For even n, the mean
 * of the two middle values (rounded down). */
uint64_t tp_median_u64(uint64_t *v, size_t n);

/*
 * Reduces per-round TSC frequencies to one result with the outlier rule
 * above. hz[] holds n <= TP_CALIB_ROUNDS_MAX values; zero entries are invalid
 * rounds (timeouts) and count as rejected. Returns 0, or -1 when no round
 * survived (res->tsc_hz = 0).
 */
int tp_calib_reduce(const uint64_t *hz, size_t n, struct tp_calib_result *res);

/*
 * A round's limits in TSC ticks from a rough TSC rate (tp_rough_tsc_hz(); 0
 * when unknown: then TP_CALIB_ROUGH_HZ_UNKNOWN, above any CPU's, so that no
 * limit is too short). The timeout only tells a dead counter from a slow one:
 * 20 windows of ms plus 2 s, generous because under QEMU TCG on a loaded
 * host a vCPU can lose the host CPU for hundreds of ms inside one window.
 */
#define TP_CALIB_ROUGH_HZ_UNKNOWN 10000000000ull
uint64_t tp_calib_timeout_tsc(uint64_t rough_hz, uint32_t ms);
/* That timeout in milliseconds, for a window of ms. */
uint64_t tp_calib_timeout_ms(uint32_t ms);

/*
 * The most a whole calibration takes, in seconds (rounded up), announced to
 * the launcher's watcher before it starts (common/announce.h): each of refs
 * references runs rounds rounds of ms, every round tried `attempts` times,
 * plus one round that gives up at its timeout (a reference that does not
 * count), plus 1 s for the rough rate and the set-up.
 */
uint32_t tp_calib_limit_s(uint32_t refs, uint32_t rounds, uint32_t ms, uint32_t attempts);
/* us microseconds in TSC ticks at rough_hz (0: unknown, as above), rounded down. */
uint64_t tp_calib_tsc_for_us(uint64_t rough_hz, uint64_t us);

/* Largest pairwise disagreement of n frequencies, in ppm of ref_hz. */
uint32_t tp_max_disagreement_ppm(const uint64_t *hz, size_t n, uint64_t ref_hz);

#endif
