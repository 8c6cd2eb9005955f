/* SPDX-License-Identifier: MIT */
/*
 * Fault injection of a reference's rate: the item `skew:REF:PPM` of
 * `timeprobe.inject=` (REF one of hpet, pmtimer, pit, stall; PPM a signed
 * integer, at most TP_SKEW_PPM_MAX either way). The stub's calibration and
 * the suite's drift probe then read REF as if it ran PPM fast, so the
 * reference vote (common/readiness.h) must name it. Honoured only when the
 * item is on the line; nothing else sets it. Freestanding C (no libc),
 * tested by tests/unit/test_readiness.c.
 */
#ifndef TP_COMMON_SKEW_H
#define TP_COMMON_SKEW_H

#include <stddef.h>
#include <stdint.h>

#define TP_SKEW_PREFIX "skew:"
#define TP_SKEW_PPM_MAX 100000

struct tp_skew {
	char ref[8];		/* "" when nothing is injected */
	int32_t ppm;
};

/* 1 when s[0..n) starts with TP_SKEW_PREFIX: an item of this kind, well formed or not. */
int tp_skew_is(const char *s, size_t n);

/* 0 and *k from one item "skew:REF:PPM"; -1 when it is not one (k untouched). */
int tp_skew_parse(const char *s, size_t n, struct tp_skew *k);

/* The last well-formed skew item of a comma-separated list into *k; 1 found, 0 none. */
int tp_skew_from_list(const char *s, size_t n, struct tp_skew *k);

/* 1 when k injects a skew into the reference named ref. */
int tp_skew_applies(const struct tp_skew *k, const char *ref);

/*
 * A reference's rate as its reader takes it: ref_hz, the rate the reader
 * converts ticks with, divided by (1 + ppm/1e6), which is the same as
 * reading (1 + ppm/1e6) times the ticks. Untouched when k does not apply.
 */
double tp_skew_ref_hz(const struct tp_skew *k, const char *ref, double ref_hz);

/* The TSC's rate measured against a skewed ref: tsc_hz / (1 + ppm/1e6), rounded. */
uint64_t tp_skew_tsc_hz(const struct tp_skew *k, const char *ref, uint64_t tsc_hz);

#endif
