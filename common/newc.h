/* SPDX-License-Identifier: MIT */
/*
 * Reading newc cpio archives (Linux,
 * Documentation/driver-api/early-userspace/buffer-format.rst): the walk
 * over their entries, PID 1's tests' lookup of one file, and the stub's
 * check of each user initrd= file before it appends its own archive
 * (docs/stub.md, "User initrds"). Freestanding; tests/unit/test_newc.c.
 */
#ifndef TP_COMMON_NEWC_H
#define TP_COMMON_NEWC_H

#include <stddef.h>
#include <stdint.h>

#define TP_CPIO_HEADER 110	/* "070701" and 13 fields of 8 hex digits */

/* One entry, pointing into the archive. */
struct tp_cpio_entry {
	const char *name;	/* up to its NUL (Linux uses the name as a C string) */
	size_t name_len;
	uint32_t mode;
	const uint8_t *data;
	size_t size;		/* c_filesize */
};

/*
 * The entry at p[*at..n) into e, *at past it (and its padding to 4):
 * 1. 0 when *at + TP_CPIO_HEADER passes n. -1 when the entry is malformed
 * (no magic "070701"/"070702", a field not hex, a name without its NUL, or
 * a name or c_filesize running past n); *why says which.
 */
int tp_cpio_next(const void *p, size_t n, size_t *at, struct tp_cpio_entry *e, const char **why);

/* 1 when e is the TRAILER!!! entry that ends an archive. */
int tp_cpio_is_trailer(const struct tp_cpio_entry *e);

/*
 * The data of the regular file called name in the newc archive p[0..n),
 * or NULL when there is none or the archive is malformed before it.
 */
const void *tp_cpio_find(const void *p, size_t n, const char *name, size_t *len);

/* A user initrd= file, as the stub judges it before appending its own archive. */
enum tp_initrd_check {
	TP_INITRD_OK,		/* newc, TRAILER!!! last, then NULs only, nothing under run/timeprobe */
	TP_INITRD_COMPRESSED,	/* a compressor's magic: not looked into */
	TP_INITRD_MALFORMED,	/* not newc, cut, or bytes past its trailer */
	TP_INITRD_STUB_PATH,	/* an entry names the stub's directory (TP_STUB_DIR) */
};

/*
 * Judges p[0..n); *why is a phrase for the warning, *name the entry at
 * fault (NULL when none; name_len bytes, not NUL-terminated).
 */
enum tp_initrd_check tp_initrd_check(const void *p, size_t n, const char **why, const char **name,
				     size_t *name_len);

#endif
