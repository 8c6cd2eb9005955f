/* SPDX-License-Identifier: MIT */
/*
 * Files on the stub's own volume (UEFI 2.10, 13.5 EFI_FILE_PROTOCOL): a
 * path of the command line opened ('/' as '\\'), read whole, or checked
 * to exist. The kernel, cmdline.txt and the initrd= files come this way.
 */
#ifndef TP_BOOT_FILE_H
#define TP_BOOT_FILE_H

#include <efi.h>

#include "cmdline.h"

/* The volume's root and the UCS-2 copy of a path (a word of the line at most). */
struct tp_volume {
	EFI_FILE_HANDLE root;	/* NULL: no file system (e.g. network boot) */
	CHAR16 path16[TP_CMDLINE_MAX + 1];
};

/* No cap on a file's size but memory (tp_file_read). */
#define TP_NO_CAP ((UINTN)-1)

/*
 * Reads the whole file path of at most max bytes (cut there; TP_NO_CAP:
 * every byte, or EFI_OUT_OF_RESOURCES) into *buf from AllocatePool, NUL
 * after its *size bytes.
 */
EFI_STATUS tp_file_read(struct tp_volume *v, const char *path, UINTN max, void **buf,
			UINTN *size);

/* Whether path[0..n) opens. */
EFI_STATUS tp_file_exists(struct tp_volume *v, const char *path, size_t n);

#endif
