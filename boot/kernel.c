// SPDX-License-Identifier: MIT
/* The kernel loaded and started; see kernel.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "../common/stubfile.h"
#include "arch.h"
#include "kernel.h"
#include "stub.h"

/* Largest kernel we read into memory. */
#define TP_KERNEL_MAX (256u << 20)
/* How the single-file stub names its kernel in messages and records. */
#define TP_EMBEDDED_KERNEL ".linux section"

/* The kernel to start: its bytes, what messages call it, its device path. */
struct kernel {
	const void *data;
	UINTN size;
	void *owned;			/* data, when read from a file */
	const char *name;
	EFI_DEVICE_PATH *path;		/* for its LoadedImage; may be NULL */
	struct tp_kernel_info ki;
};

/*
 * The header checked before the firmware sees it (pe.c); a bad one is
 * said twice: "<said> is not an <arch> EFI kernel: <why>" and a
 * kernel_header stub_error.
 */
static EFI_STATUS check_header(struct tp_stub *s, struct kernel *k, const char *said)
{
	const char *why;
	char m[160];
	struct tp_buf b;

	if (!tp_kernel_check(k->data, k->size, &k->ki, &why))
		return EFI_SUCCESS;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, said);
	tp_buf_puts(&b, " is not an " TP_ARCH_NAME " EFI kernel: ");
	tp_buf_puts(&b, why);
	tp_con_msg(&s->con, m);
	tp_con_error(&s->con, "kernel_header", "bad kernel image", k->name, EFI_LOAD_ERROR);
	return EFI_LOAD_ERROR;
}

/*
 * File mode: \EFI\timeprobe\vmlinuz, read whole, with the file's device
 * path, so that the kernel's LoadedImage names our volume (Linux's EFI
 * stub opens initrd= files on that volume).
 */
static EFI_STATUS from_file(struct tp_stub *s, struct kernel *k)
{
	EFI_STATUS status;

	k->name = TP_KERNEL_PATH;
	status = tp_file_read(&s->vol, TP_KERNEL_PATH, TP_KERNEL_MAX, &k->owned, &k->size);
	if (EFI_ERROR(status)) {
		tp_con_error(&s->con, "kernel_read", "cannot read kernel", TP_KERNEL_PATH, status);
		return status;
	}
	k->data = k->owned;
	status = check_header(s, k, TP_KERNEL_PATH);
	if (!EFI_ERROR(status))
		k->path = FileDevicePath(s->li->DeviceHandle, L"" TP_KERNEL_PATH);
	return status;
}

/*
 * Single-file mode: the kernel from our .linux section. Its device path is
 * ours (device + \EFI\BOOT\BOOTX64.EFI or whatever we were started as):
 * the image it came from. LoadImage does not read it when given a buffer
 * (UEFI 2.10, 7.4); it may be NULL.
 */
static EFI_STATUS from_section(struct tp_stub *s, struct kernel *k)
{
	EFI_DEVICE_PATH *dev;
	EFI_STATUS status;

	k->name = TP_EMBEDDED_KERNEL;
	k->data = s->pl.kernel.data;
	k->size = s->pl.kernel.size;
	status = check_header(s, k, "the " TP_EMBEDDED_KERNEL);
	if (EFI_ERROR(status))
		return status;
	dev = DevicePathFromHandle(s->li->DeviceHandle);
	if (dev && s->li->FilePath)
		k->path = AppendDevicePath(dev, s->li->FilePath);
	return status;
}

/*
 * LoadImage and LoadOptions: the kernel from memory, with our command line.
 * *kimage is the handle to unload, set even when loading failed (UEFI 2.10,
 * 7.4: on EFI_SECURITY_VIOLATION an image handle may still have been
 * created; it must be unloaded).
 */
static EFI_STATUS load_kernel(struct tp_stub *s, const struct kernel *k, EFI_HANDLE *kimage)
{
	EFI_LOADED_IMAGE *kli;
	EFI_STATUS status;

	/* UEFI 2.10, 7.4 LoadImage: a memory-to-memory load from k->data */
	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, s->image, k->path, (void *)k->data,
				   k->size, kimage);
	if (EFI_ERROR(status)) {
		tp_con_error(&s->con, "kernel_load", "LoadImage failed for", k->name, status);
		return status;
	}
	status = uefi_call_wrapper(BS->HandleProtocol, 3, *kimage, &LoadedImageProtocol,
				   (void **)&kli);
	if (EFI_ERROR(status)) {
		tp_con_error(&s->con, "kernel_load", "no LoadedImage protocol on", k->name, status);
		return status;
	}
	/* UEFI 2.10, 9.1 EFI_LOADED_IMAGE_PROTOCOL: LoadOptionsSize in bytes */
	kli->LoadOptions = s->cmdline16;
	kli->LoadOptionsSize = (UINT32)((StrLen(s->cmdline16) + 1) * sizeof(CHAR16));
	return EFI_SUCCESS;
}

/* The stub_start record: the kernel about to start and how its initrd comes. */
static void say_start(struct tp_stub *s, const struct kernel *k)
{
	struct tp_rec *r = tp_con_rec(&s->con, "stub_start");

	tp_rec_str(r, "kernel", k->name);
	tp_rec_uint(r, "size", k->size);
	tp_rec_bool(r, "linux", k->ki.is_linux);
	tp_rec_str(r, "kernel_version", k->ki.version);
	tp_rec_str(r, "mode", s->embedded ? "single-file" : "file");
	tp_rec_str(r, "initrd", "initrd_media_guid");
	tp_rec_uint(r, "initrd_size", s->initrd.base_size);
	tp_rec_str(r, "stub_file", TP_STUB_FILE_PATH);
	if (s->con.kept_lost)
		tp_rec_uint(r, "stub_file_records_lost", s->con.kept_lost);
	tp_con_emit(&s->con);
	if (s->con.kept_lost)
		tp_con_msg(&s->con, "WARNING: the pool was full: records above are missing from "
				    "the stub's file (stub_file_records_lost)");
}

/*
 * LoadImage, LoadOptions, StartImage. Returns only when the kernel could
 * not start or came back.
 */
static EFI_STATUS start_kernel(struct tp_stub *s, const struct kernel *k)
{
	EFI_HANDLE kimage = NULL;
	UINTN exit_size = 0;
	CHAR16 *exit_data = NULL;
	EFI_STATUS status;

	status = load_kernel(s, k, &kimage);
	if (EFI_ERROR(status))
		goto fail;
	say_start(s, k);
	/* last: the file holds every record, stub_start too */
	status = tp_initrd_register(s, k->name);
	if (EFI_ERROR(status))
		goto fail;

	/* UEFI 2.10, 7.4 StartImage: returns only if the kernel exits */
	status = uefi_call_wrapper(BS->StartImage, 3, kimage, &exit_size, &exit_data);
	tp_con_error(&s->con, "kernel_exit", "StartImage returned from", k->name, status);
	if (!EFI_ERROR(status))
		status = EFI_LOAD_ERROR;	/* a kernel that returns did not boot */
	if (exit_data)
		FreePool(exit_data);
	kimage = NULL;				/* an exited image is unloaded */
fail:
	if (kimage)
		uefi_call_wrapper(BS->UnloadImage, 1, kimage);
	return status;
}

/* What is started: the kernel and where its initramfs comes from. */
static const char *start_text(const struct tp_stub *s)
{
	if (!s->embedded)
		return "starting " TP_KERNEL_PATH;
	return s->pl.initrd.data ? "starting the embedded kernel with the embedded initramfs "
				   "(LINUX_EFI_INITRD_MEDIA_GUID)" : "starting the embedded kernel";
}

EFI_STATUS tp_kernel_boot(struct tp_stub *s)
{
	struct kernel k = { 0 };
	void *ibuf = NULL;
	EFI_STATUS status;

	status = s->embedded ? from_section(s, &k) : from_file(s, &k);
	if (!EFI_ERROR(status))
		status = tp_initrd_gather(s, &ibuf);
	if (!EFI_ERROR(status)) {
		tp_con_msg(&s->con, start_text(s));
		status = start_kernel(s, &k);
		tp_initrd_remove(&s->initrd);
	}
	if (k.owned)
		FreePool(k.owned);
	if (ibuf)
		FreePool(ibuf);
	if (k.path)
		FreePool(k.path);
	return status;
}
