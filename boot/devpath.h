/* SPDX-License-Identifier: MIT */
/*
 * The boot partition from the stub's device path, EFI-free: the last Hard
 * Drive node, named in the contract's format (common/handoff.h,
 * the bootpart value of the stub's file). Tested by tests/unit/test_bootcmd.c.
 */
#ifndef TP_BOOT_DEVPATH_H
#define TP_BOOT_DEVPATH_H

#include <stddef.h>
#include <stdint.h>

#include "../common/buf.h"
#include "../common/handoff.h"

/* UEFI 2.10, 10.3.5.1 Hard Drive Media Device Path */
struct tp_hd_node {
	uint32_t part_number;
	uint64_t part_start;
	uint64_t part_size;
	uint8_t signature[16];
	uint8_t mbr_type;
	uint8_t sig_type;	/* 1 = MBR, 2 = GUID */
};

/* Walks a device path (at most max_len bytes) and copies its last Hard
 * Drive node. Returns 0, or -1 when there is none or the path is malformed. */
int tp_devpath_find_hd(const void *dp, size_t max_len, struct tp_hd_node *hd);

/* "gpt:<guid>", "mbr:<8 hex>:<n>", or "unknown" when sig_type is neither. */
void tp_bootpart_format(struct tp_buf *b, const struct tp_hd_node *hd);

#endif
