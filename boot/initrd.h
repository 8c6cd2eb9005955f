/* SPDX-License-Identifier: MIT */
/*
 * The initramfs the stub serves to Linux, in every mode and on both
 * architectures (docs/stub.md, "The stub's file"): the initrd= files or the
 * .initrd section, NULs to a 4-byte boundary, then the newc cpio of the
 * stub's records (common/stubfile.h), through EFI_LOAD_FILE2_PROTOCOL on
 * the LINUX_EFI_INITRD_MEDIA_GUID device path, as systemd-stub does.
 */
#ifndef TP_BOOT_INITRD_H
#define TP_BOOT_INITRD_H

#include <efi.h>

/*
 * Linux's EFI stub asks for its initramfs through this vendor media device
 * path before it looks at initrd= (Linux 6.1,
 * drivers/firmware/efi/libstub/efi-stub-helper.c, efi_load_initrd_dev_path;
 * include/linux/efi.h LINUX_EFI_INITRD_MEDIA_GUID).
 */
#define TP_LINUX_INITRD_MEDIA_GUID \
	{ 0x5568e427, 0x68fc, 0x4f3d, { 0xac, 0x74, 0xca, 0x55, 0x52, 0x31, 0xcc, 0x68 } }
/* UEFI 2.10, 13.2 EFI Load File 2 Protocol */
#define TP_LOAD_FILE2_PROTOCOL_GUID \
	{ 0x4006c0c1, 0xfcb3, 0x403e, { 0x99, 0x6d, 0x4a, 0x6c, 0x87, 0x24, 0xe0, 0x6d } }

/* UEFI 2.10, 10.3.5.6 Vendor-Defined Media Device Path, then the end node */
struct tp_initrd_path {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH end;
} __attribute__((packed));

/*
 * The initramfs handed to Linux: EFI_LOAD_FILE2_PROTOCOL has the same shape
 * as EFI_LOAD_FILE_PROTOCOL (one LoadFile member), so gnu-efi's type serves.
 * lf2 comes first: the protocol pointer Linux passes back is this struct.
 */
struct tp_initrd {
	EFI_LOAD_FILE_PROTOCOL lf2;
	const void *data;	/* what LoadFile2 serves: base, padding, the stub's cpio */
	UINTN size;
	const void *base;	/* the initramfs: .initrd or the initrd= files read */
	UINTN base_size;
	void *composed;		/* data, allocated by tp_initrd_register() */
	struct tp_initrd_path path;
	EFI_HANDLE handle;
};

struct tp_stub;

/*
 * The initramfs is the stub's to serve (LINUX_EFI_INITRD_MEDIA_GUID), so
 * no word of the kernel's line may name one: Linux's EFI stub finds
 * initrd= anywhere in its line (drivers/firmware/efi/libstub/file.c,
 * find_file_option). The user's initrd= words are kept in
 * s->initrd_words for the stub to read (none when .initrd is embedded);
 * every word holding initrd= leaves s->user, and one that holds it
 * inside (xinitrd=, a="initrd=...") is said.
 */
void tp_initrd_take(struct tp_stub *s);

/*
 * s->initrd.base: the .initrd section, or every initrd= file taken (each
 * must exist; one that is not a clean newc archive is said), joined at
 * 4-byte boundaries into *buf, which the caller frees. What fails is said.
 */
EFI_STATUS tp_initrd_gather(struct tp_stub *s, void **buf);

/*
 * The initramfs with the stub's file (every record so far) appended,
 * served to Linux, and the file's digest handed over (digest.h); what
 * fails is said, naming what (the kernel).
 */
EFI_STATUS tp_initrd_register(struct tp_stub *s, const char *what);

/* Uninstalls the handle (the kernel came back) and frees what compose made. */
void tp_initrd_remove(struct tp_initrd *rd);

#endif
