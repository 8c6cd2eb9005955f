/* SPDX-License-Identifier: MIT */
/*
 * What the stub knows as it goes (efi_main in stub.c, in order): the
 * firmware, its own image and volume, the user's line and the one the
 * kernel gets, the calibration and pre-OS figures, the initramfs. The
 * steps that need more than one of these take the whole (cmdload.c,
 * cmdbuild.c, initrd.c, kernel.c).
 */
#ifndef TP_BOOT_STUB_H
#define TP_BOOT_STUB_H

#include <efi.h>

#include "../common/handoff.h"
#include "cmdfile.h"
#include "cmdline.h"
#include "console.h"
#include "file.h"
#include "hwlat.h"
#include "initrd.h"
#include "mp.h"
#include "pe.h"
#include "tsc.h"

#define TP_DIR "\\EFI\\timeprobe"
#define TP_KERNEL_PATH TP_DIR "\\vmlinuz"
#define TP_CMDLINE_PATH TP_DIR "\\cmdline.txt"
#define TP_INITRD_PATH TP_DIR "\\initramfs.img"

struct tp_stub {
	EFI_HANDLE image;
	EFI_SYSTEM_TABLE *st;
	EFI_LOADED_IMAGE *li;
	struct tp_volume vol;			/* the stub's own, for its files */
	struct tp_console con;
	struct tp_tsc_report tsc;
	struct tp_mp_report mp;			/* the pre-OS TSC offsets */
	struct tp_hwlat_report hwlat;		/* the pre-OS latency scan */
	struct tp_boot_tsc boot_tsc;		/* the TSC at the stub's milestones */
	char boot_tsc_word[TP_BOOT_TSC_WORD_MAX + 1];
	char bootpart[64];
	char firmware[TP_FW_WORD_MAX + 1];	/* the firmware value of its file */
	struct tp_payload pl;			/* the stub's own sections */
	int embedded;				/* .linux present: single-file mode */
	const char *cmdline_source;		/* "file", "embedded", "builtin" */
	const char *cmdline_from;		/* the file or section, for messages */
	int user_empty;				/* decoding left no word */
	enum tp_encoding encoding;		/* of the source, for stub_cmdline */
	unsigned int initrd_dropped;		/* words holding initrd= removed */
	int initrd_taken;			/* the initrd= files are the stub's to read */
	char initrd_words[TP_CMDLINE_MAX + 1];	/* the user's initrd= words, taken */
	struct tp_initrd initrd;
	char user[TP_CMDLINE_MAX + 1];		/* cleaned cmdline.txt */
	char cmdline[TP_CMDLINE_MAX + 1];	/* what the kernel gets */
	CHAR16 cmdline16[TP_CMDLINE_MAX + 1];
	/* a file's path, whole (a word of the line at most) */
	char path[TP_CMDLINE_MAX + 1];
};

#endif
