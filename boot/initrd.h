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
	void *composed;		/* data, allocated by tp_initrd_compose() */
	struct tp_initrd_path path;
	EFI_HANDLE handle;
};

/* rd->data: rd->base, NULs to 4 bytes, the cpio holding file[0..len). */
EFI_STATUS tp_initrd_compose(struct tp_initrd *rd, const void *file, UINTN len);

/*
 * Installs the handle serving rd->data. Fails with EFI_ALREADY_STARTED
 * when a loader before us registered an initrd the same way (UEFI 2.10,
 * 7.3 InstallMultipleProtocolInterfaces: a device path already present on
 * another handle).
 */
EFI_STATUS tp_initrd_install(struct tp_initrd *rd);

/* Uninstalls the handle (the kernel came back) and frees what compose made. */
void tp_initrd_remove(struct tp_initrd *rd);

#endif
