// SPDX-License-Identifier: MIT
/* The initramfs the stub serves through LINUX_EFI_INITRD_MEDIA_GUID; see initrd.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/stubfile.h"
#include "initrd.h"

/*
 * UEFI 2.10, 13.2 EFI_LOAD_FILE2_PROTOCOL.LoadFile(): the size first (Linux
 * calls with no buffer and expects EFI_BUFFER_TOO_SMALL), then the bytes.
 */
static EFI_STATUS EFIAPI initrd_load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH *path,
					  BOOLEAN boot_policy, UINTN *size, VOID *buf)
{
	struct tp_initrd *rd = (struct tp_initrd *)this;

	(void)path;
	if (!this || !size)
		return EFI_INVALID_PARAMETER;
	/* LoadFile2 "does not support BootPolicy": TRUE is Unsupported */
	if (boot_policy)
		return EFI_UNSUPPORTED;
	if (!buf || *size < rd->size) {
		*size = rd->size;
		return EFI_BUFFER_TOO_SMALL;
	}
	CopyMem(buf, (void *)rd->data, rd->size);
	*size = rd->size;
	return EFI_SUCCESS;
}

static EFI_GUID initrd_media_guid = TP_LINUX_INITRD_MEDIA_GUID;
static EFI_GUID load_file2_guid = TP_LOAD_FILE2_PROTOCOL_GUID;

/*
 * Concatenated newc archives unpack in order, and the kernel skips the NULs
 * between them but wants each to start 4-byte aligned (Linux,
 * init/initramfs.c; Documentation/driver-api/early-userspace/buffer-format.rst).
 */
EFI_STATUS tp_initrd_compose(struct tp_initrd *rd, const void *file, UINTN len)
{
	UINTN base = (rd->base_size + 3) & ~(UINTN)3;
	UINTN n = base + tp_cpio_stub_size(len);
	struct tp_cpio c;
	uint8_t *p = AllocatePool(n);

	if (!p)
		return EFI_OUT_OF_RESOURCES;
	if (rd->base_size)
		CopyMem(p, (void *)rd->base, rd->base_size);
	for (UINTN i = rd->base_size; i < base; i++)
		p[i] = 0;
	tp_cpio_init(&c, p + base, n - base);
	tp_cpio_stub(&c, file, len);
	if (c.overflow) {
		FreePool(p);
		return EFI_BUFFER_TOO_SMALL;
	}
	rd->composed = p;
	rd->data = p;
	rd->size = base + c.len;
	return EFI_SUCCESS;
}

EFI_STATUS tp_initrd_install(struct tp_initrd *rd)
{
	EFI_STATUS status;

	rd->lf2.LoadFile = initrd_load_file;
	rd->path.vendor.Header.Type = MEDIA_DEVICE_PATH;
	rd->path.vendor.Header.SubType = MEDIA_VENDOR_DP;
	SetDevicePathNodeLength(&rd->path.vendor.Header, sizeof(rd->path.vendor));
	rd->path.vendor.Guid = initrd_media_guid;
	SetDevicePathEndNode(&rd->path.end);
	rd->handle = NULL;
	status = uefi_call_wrapper(BS->InstallMultipleProtocolInterfaces, 5, &rd->handle,
				   &DevicePathProtocol, &rd->path, &load_file2_guid, &rd->lf2,
				   NULL);
	if (EFI_ERROR(status))
		rd->handle = NULL;
	return status;
}

void tp_initrd_remove(struct tp_initrd *rd)
{
	if (rd->handle)
		uefi_call_wrapper(BS->UninstallMultipleProtocolInterfaces, 5, rd->handle,
				  &DevicePathProtocol, &rd->path, &load_file2_guid, &rd->lf2, NULL);
	rd->handle = NULL;
	if (rd->composed)
		FreePool(rd->composed);
	rd->composed = NULL;
}
