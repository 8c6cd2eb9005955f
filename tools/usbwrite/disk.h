/* SPDX-License-Identifier: MIT */
/*
 * What the kernel says about one block device, found by its device number
 * (/sys/dev/block/MAJ:MIN, Documentation/ABI/stable/sysfs-dev), never by the
 * path a user typed: its name, size, vendor, model, serial and transport,
 * and whether it looks like a stick. Every string is printable ASCII.
 */
#ifndef TP_USBWRITE_DISK_H
#define TP_USBWRITE_DISK_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define DISK_TEXT_MAX 64

struct disk {
	dev_t rdev;
	char node[PATH_MAX];		/* the resolved sysfs directory */
	char name[DISK_TEXT_MAX];	/* the kernel's name: sdb, mmcblk0, loop3 */
	char whole[DISK_TEXT_MAX];	/* a partition's disk, "" for a whole disk */
	char vendor[DISK_TEXT_MAX];
	char model[DISK_TEXT_MAX];
	char serial[DISK_TEXT_MAX];	/* "" when the device has none */
	char tran[16];			/* usb, mmc, sata, nvme, virtio, virtual, ... */
	char card_type[16];		/* an mmc card's: SD or MMC (eMMC), else "" */
	int removable;			/* the removable attribute */
	uint64_t bytes;			/* the size attribute x 512 */
};

/* The sysfs root: /sys, or in the test build $TP_USB_SYSFS. */
const char *disk_sysfs(void);

/* Fills d for the device numbered rdev; 0, or -errno when sysfs has no such device. */
int disk_read(dev_t rdev, struct disk *d);

/* 1 when both name the same device with the same size and identity. */
int disk_same(const struct disk *a, const struct disk *b);

/* 1 when d is removable, on USB or an SD card: what a stick looks like. */
int disk_is_stick(const struct disk *d);

/* 1 when the device numbered other is d or one of d's partitions. */
int disk_covers(const struct disk *d, dev_t other);

/* 1 and a holder's name (dm-0, md127, bcache0) when something is built on d or its partitions. */
int disk_holder(const struct disk *d, char *name, size_t len);

/* One line per partition of d ("    sdb1  15.9 GB"), or one saying there are none. */
void disk_print_partitions(const struct disk *d, FILE *out);

/* bytes as "15.9" (GB, 10^9, as sticks are labelled). */
const char *disk_gb(uint64_t bytes, char buf[32]);

#endif
