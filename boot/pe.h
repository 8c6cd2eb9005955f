/* SPDX-License-Identifier: MIT */
/*
 * The stub's own PE sections, EFI-free: finds .linux, .initrd and .cmdline
 * (the sections a Unified Kernel Image carries, added by boot/mkefi.sh) in
 * the stub's loaded image or in the file. Tested by tests/unit/test_pe.c on
 * a real build's headers. Layout: PE/COFF specification rev. 12.0 (Microsoft,
 * "PE Format"), sections 2 (MS-DOS stub), 3 (COFF file header, optional
 * header) and 4 (section table).
 */
#ifndef TP_BOOT_PE_H
#define TP_BOOT_PE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Where a section's bytes are: a loaded image has them at VirtualAddress
 * (UEFI 2.10, 9.1: LoadedImage->ImageBase is the image as the firmware
 * loaded it), a file at PointerToRawData.
 */
enum tp_pe_layout { TP_PE_LOADED, TP_PE_FILE };

/* PE format 3.4.1: "The MS-DOS stub ... e_lfanew at 0x3c" */
#define TP_PE_MAX_SECTIONS 96	/* PE format 3.3: the loader's limit */

struct tp_pe_section {
	const uint8_t *data;	/* NULL when absent */
	size_t size;		/* VirtualSize: the payload's exact length */
};

/*
 * Looks up the section `name` (at most 8 characters) in the image at base
 * (len readable bytes). Returns 1 when found (sec filled), 0 when absent,
 * or negative with *why set when the headers are malformed or the section
 * lies outside the image.
 */
int tp_pe_find_section(const void *base, size_t len, enum tp_pe_layout layout,
		       const char *name, struct tp_pe_section *sec, const char **why);

/* What a single-file timeprobe.efi carries; any part may be absent. */
struct tp_payload {
	struct tp_pe_section kernel;	/* .linux: the kernel's bzImage */
	struct tp_pe_section initrd;	/* .initrd: the initramfs */
	struct tp_pe_section cmdline;	/* .cmdline: default command line */
};

/* Finds the three sections. Returns 0, or negative with *why. */
int tp_payload_find(const void *base, size_t len, enum tp_pe_layout layout,
		    struct tp_payload *p, const char **why);

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

#endif
