/* SPDX-License-Identifier: MIT */
/*
 * The CPU latency request the run holds, as cyclictest holds it
 * (rt-tests, set_latency_target()): /dev/cpu_dma_latency opened, the
 * limit written as a 32-bit number of microseconds, and the descriptor
 * kept open for the run; the kernel drops the request when it closes
 * (Documentation/power/pm_qos_interface.rst). While it is held, cpuidle
 * picks no idle state whose exit latency is above it, so a wake-up is not
 * slowed by leaving a deep one. The `run` record says what was held.
 */
#ifndef TP_DMALAT_H
#define TP_DMALAT_H

#include <stdint.h>

#include "../common/record.h"

#define DMALAT_DEV "/dev/cpu_dma_latency"

/* Holds US microseconds until the process ends (US < 0: nothing held);
 * 0, or -errno when the device is missing or refused the request. */
int dmalat_hold(int us);

/*
 * Into the run record: `cpu_dma_latency_us`, the limit held (null: none),
 * and when one was asked for but not held, `cpu_dma_latency_asked_us` and
 * `cpu_dma_latency_error` (why).
 */
void dmalat_emit(struct tp_rec *r);

/* The machine's limit in us as the device reads it: every process's
 * requests together (2000000000: none). 0, or -errno (not root: EACCES). */
int dmalat_limit_us(int32_t *v);

/* Why rc (-errno from dmalat_hold) held nothing, in words. */
const char *dmalat_why(int rc);

#endif
