/* SPDX-License-Identifier: MIT */
/*
 * Why a device that refused an exclusive open is busy, for the one line that
 * refuses it: the running root, a mount, swap, a device built on it (dm, md,
 * bcache: its holders), or else another exclusive holder (ZFS, btrfs, a writer).
 */
#ifndef TP_USBWRITE_BUSY_H
#define TP_USBWRITE_BUSY_H

#include <stddef.h>

#include "disk.h"

void busy_reason(const struct disk *d, char *buf, size_t len);

#endif
