// SPDX-License-Identifier: MIT
/* Files on the stub's own volume; see file.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "file.h"

/*
 * UEFI 2.10, 13.5 EFI_FILE_PROTOCOL.Open: path[0..n) (a word of the line,
 * so it fits v->path16 whole), '/' as '\\'.
 */
static EFI_STATUS open_file(struct tp_volume *v, const char *path, size_t n, EFI_FILE_HANDLE *f)
{
	size_t i;

	for (i = 0; i < n && path[i] && i + 1 < sizeof(v->path16) / sizeof(v->path16[0]); i++)
		v->path16[i] = (CHAR16)(path[i] == '/' ? '\\' : (unsigned char)path[i]);
	v->path16[i] = 0;
	if (i < n && path[i])
		return EFI_BAD_BUFFER_SIZE;
	return uefi_call_wrapper(v->root->Open, 5, v->root, f, v->path16, EFI_FILE_MODE_READ, 0);
}

/* Reads n bytes of the open file f into *buf (from the pool, NUL after them). */
static EFI_STATUS read_open(EFI_FILE_HANDLE f, UINTN n, void **buf, UINTN *size)
{
	EFI_STATUS status;

	*buf = n != TP_NO_CAP ? AllocatePool(n + 1) : NULL;	/* +1: the NUL */
	if (!*buf)
		return EFI_OUT_OF_RESOURCES;
	*size = n;
	status = uefi_call_wrapper(f->Read, 3, f, size, *buf);
	if (!EFI_ERROR(status) && *size != n)
		status = EFI_END_OF_FILE;	/* shorter than its FileSize */
	if (EFI_ERROR(status)) {
		FreePool(*buf);
		*buf = NULL;
		return status;
	}
	((char *)*buf)[*size] = 0;
	return EFI_SUCCESS;
}

EFI_STATUS tp_file_read(struct tp_volume *v, const char *path, UINTN max, void **buf,
			UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS status;

	*buf = NULL;
	*size = 0;
	status = open_file(v, path, tp_strlen(path), &f);
	if (EFI_ERROR(status))
		return status;
	info = LibFileInfo(f);
	if (!info)
		status = EFI_DEVICE_ERROR;
	else if (info->Attribute & EFI_FILE_DIRECTORY)
		status = EFI_NOT_FOUND;
	else
		status = read_open(f, info->FileSize > max ? max : (UINTN)info->FileSize, buf, size);
	if (info)
		FreePool(info);
	uefi_call_wrapper(f->Close, 1, f);
	return status;
}

EFI_STATUS tp_file_exists(struct tp_volume *v, const char *path, size_t n)
{
	EFI_FILE_HANDLE f;
	EFI_STATUS status = open_file(v, path, n, &f);

	if (!EFI_ERROR(status))
		uefi_call_wrapper(f->Close, 1, f);
	return status;
}
