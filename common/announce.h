/* SPDX-License-Identifier: MIT */
/*
 * The watcher's protocol. A phase that may stay silent longer than the
 * launcher's watcher allows (tools/qemu_watch.py: 60 s under KVM, 180 s
 * under TCG) first announces how long it may last, in one human line:
 *
 *     timeprobe: WHAT, limit N s
 *
 * The watcher does not count silence for N s (plus its margin) after it
 * reads that line. The stub announces its calibration, the suite each probe
 * and the hold before power-off. Freestanding C, shared by the stub and the
 * suite: both print the line their console's way, with the "timeprobe: "
 * prefix every human line of theirs has.
 */
#ifndef TP_COMMON_ANNOUNCE_H
#define TP_COMMON_ANNOUNCE_H

#include <stdint.h>

#include "buf.h"

/* Appends "WHAT, limit N s" (no prefix, no newline) to b. */
void tp_announce(struct tp_buf *b, const char *what, uint64_t limit_s);

#endif
