/* SPDX-License-Identifier: MIT */
/*
 * The kernel hand-off, EFI-free: cleaning cmdline.txt, assembling the kernel
 * command line, naming the boot partition from its device path, checking the
 * kernel's PE header, UTF-8 to UCS-2. Tested by tests/unit/test_bootcmd.c.
 * The format is documented in docs/stub.md, "Command line hand-off".
 */
#ifndef TP_BOOT_BOOTCMD_H
#define TP_BOOT_BOOTCMD_H

#include <stddef.h>
#include <stdint.h>

/*
 * Longest command line handed to the kernel, in bytes without the NUL. The
 * x86 kernel keeps COMMAND_LINE_SIZE = 2048 bytes including the NUL
 * (arch/x86/include/asm/setup.h) and cuts anything longer silently; we cut
 * first, at a word boundary, and say so.
 */
#define TP_CMDLINE_MAX 2047
/* Largest cmdline.txt read; the rest of a bigger file is ignored. */
#define TP_CMDLINE_FILE_MAX 16384

/* Used when cmdline.txt is missing or unreadable (the file the image ships). */
#define TP_CMDLINE_DEFAULT \
	"console=ttyS0,115200 console=tty0 initrd=\\EFI\\timeprobe\\initramfs.img"

#include "../common/buf.h"
#include "../common/handoff.h"

/*
 * Cleans cmdline.txt: drops a UTF-8 BOM (a UTF-16LE BOM switches to
 * decoding UTF-16LE), skips lines whose first non-blank character is '#',
 * turns newlines and runs of blanks outside double quotes into one space,
 * drops other control characters, trims both ends. Writes a NUL-terminated
 * line of at most cap - 1 bytes; returns its length. *cut is set when the
 * output did not fit (the line then ends at a word boundary).
 */
size_t tp_cmdline_clean(char *out, size_t cap, const void *in, size_t in_len, int *cut);

/*
 * Finds the last parameter `name` (as "name=value" or a bare "name") in a
 * command line, words separated by spaces outside double quotes. Returns a
 * pointer to the value (after '=', or to "" for a bare name) and sets *vlen,
 * or NULL when absent.
 */
const char *tp_cmdline_find(const char *line, const char *name, size_t *vlen);

/* Iterates over every occurrence of `name`: start with *pos = 0. */
const char *tp_cmdline_next(const char *line, const char *name, size_t *pos, size_t *vlen);

/* Parses name=<decimal>; returns 1 and sets *v when present and valid. */
int tp_cmdline_get_uint(const char *line, const char *name, uint64_t *v);

/* 1 when the value of `name` equals val exactly. */
int tp_cmdline_value_is(const char *line, const char *name, const char *val);

/*
 * Removes every `name` parameter (bare or name=value) from line in place,
 * keeping the other words and single spaces. Returns how many were removed.
 * The single-file stub drops initrd= this way: its initramfs comes through
 * LINUX_EFI_INITRD_MEDIA_GUID instead. Tested by tests/unit/test_pe.c.
 */
unsigned int tp_cmdline_drop(char *line, const char *name);

struct tp_cmdline_extras {
	uint64_t tsc_hz;	/* 0: calibration failed, no TSC parameters */
	const char *tsc_ref;	/* "hpet", "pmtimer", ... */
	const char *tsc_calib;	/* "hpet:2893012345:12,pmtimer:..." or NULL */
	const char *bootpart;	/* "gpt:<guid>", "mbr:<sig>:<n>" or NULL */
};

struct tp_cmdline_report {
	int added_panic;
	int added_tsc_early;
	int dropped_tsc_calib;	/* timeprobe.tsc_calib= left out for length */
	unsigned int user_words_dropped;	/* cmdline.txt words cut from the end */
	size_t len;
};

/*
 * Assembles the kernel command line into out (cap >= TP_CMDLINE_MAX + 1):
 *   <user> [panic=10] [tsc_early_khz=K] timeprobe.tsc_hz=H timeprobe.tsc_ref=R
 *   timeprobe.bootpart=P timeprobe.tsc_calib=LIST
 * panic=10 unless user has panic=; tsc_early_khz unless user has it or says
 * timeprobe.tsc_early=off. When the whole does not fit in TP_CMDLINE_MAX,
 * timeprobe.tsc_calib= goes first, then cmdline.txt's last words; the
 * stub's other parameters always stay (they are short and the suite needs
 * them). Returns 0, 1 when something was dropped, -1 when cap is too small.
 */
int tp_cmdline_assemble(char *out, size_t cap, const char *user,
			const struct tp_cmdline_extras *x, struct tp_cmdline_report *rep);

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

struct tp_kernel_info {
	uint16_t machine;	/* PE machine, 0x8664 for x86-64 */
	uint16_t subsystem;	/* 10 = EFI application */
	int is_linux;		/* has the x86 boot protocol's "HdrS" */
	uint16_t boot_protocol;	/* e.g. 0x020f */
	char version[80];	/* the kernel_version string, if any */
};

/*
 * Checks a kernel image before LoadImage, as systemd-boot's linux.c does:
 * "MZ", e_lfanew in range, "PE\0\0", machine x86-64, PE32+ optional header,
 * subsystem EFI application. Returns 0, or negative with *why set.
 */
int tp_kernel_check(const void *buf, size_t len, struct tp_kernel_info *ki, const char **why);

/* UTF-8 to NUL-terminated UCS-2 (BMP; others become U+FFFD). Returns the
 * units written without the NUL; stops at cap_units - 1. */
size_t tp_utf8_to_ucs2(uint16_t *out, size_t cap_units, const char *in);

/* "2.70" style UEFI revision text: major.minor/10[.minor%10]. */
void tp_fmt_uefi_revision(struct tp_buf *b, uint32_t revision);

/* Text of an EFI status, e.g. "Not Found" (UEFI 2.10, Appendix D). */
const char *tp_efi_status_str(uint64_t status);

#endif
