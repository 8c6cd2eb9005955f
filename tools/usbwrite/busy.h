/* SPDX-License-Identifier: MIT */
/*
 * Who uses a device, for the one line that refuses it. Why one that refused
 * an exclusive open is busy: the running root, a mount, swap, a device built
 * on it (dm, md, bcache: its holders), or else another exclusive holder (ZFS,
 * btrfs, a writer). And the user the exclusive open cannot see: a loop device.
 */
#ifndef TP_USBWRITE_BUSY_H
#define TP_USBWRITE_BUSY_H

#include <stddef.h>

#include "disk.h"

void busy_reason(const struct disk *d, char *buf, size_t len);

/*
 * 1, and which one into buf, when a loop device's backing file is d or one
 * of its partitions: a loop device claims nothing, so the exclusive open
 * does not see it.
 */
int busy_loop_over(const struct disk *d, char *buf, size_t len);

#endif
