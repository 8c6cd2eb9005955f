/* SPDX-License-Identifier: MIT */
/*
 * The image onto the device and back, through descriptors only: the device's
 * is the one that was checked, so nothing here looks at a path.
 */
#ifndef TP_USBWRITE_COPY_H
#define TP_USBWRITE_COPY_H

#include <stdint.h>

/* Copies bytes from img to dev, both from offset 0; *done says how far it got. 0 or -errno. */
int copy_write(int img, int dev, uint64_t bytes, uint64_t *done);

/*
 * Reads bytes back from dev and compares them with img: 0 when equal, 1 with
 * the first differing offset in *at, or -errno (-ENODATA: a file ended early).
 */
int copy_verify(int img, int dev, uint64_t bytes, uint64_t *at);

#endif
