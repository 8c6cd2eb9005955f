// SPDX-License-Identifier: MIT
/*
 * timeprobe's UEFI stub (BOOTX64.EFI): reports the firmware, calibrates the
 * TSC, assembles the kernel command line and starts \EFI\timeprobe\vmlinuz.
 * See docs/stub.md. Everything that can be computed without firmware lives
 * in calib.c, acpi.c and bootcmd.c and is tested on the host.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/record.h"
#include "bootcmd.h"
#include "console.h"
#include "tsc.h"

#define TP_STUB_VERSION "0.1.0"
#define TP_DIR "\\EFI\\timeprobe"
#define TP_KERNEL_PATH TP_DIR "\\vmlinuz"
#define TP_CMDLINE_PATH TP_DIR "\\cmdline.txt"
/* How long an error stays on screen before we return to the firmware. */
#define TP_ERROR_PAUSE_US (5 * 1000 * 1000)
/* Largest kernel we read into memory. */
#define TP_KERNEL_MAX (256u << 20)

struct tp_stub {
	EFI_HANDLE image;
	EFI_SYSTEM_TABLE *st;
	EFI_LOADED_IMAGE *li;
	EFI_FILE_HANDLE root;
	struct tp_console con;
	struct tp_tsc_report tsc;
	char bootpart[64];
	char user[TP_CMDLINE_MAX + 1];		/* cleaned cmdline.txt */
	char cmdline[TP_CMDLINE_MAX + 1];	/* what the kernel gets */
	CHAR16 cmdline16[TP_CMDLINE_MAX + 1];
};

/* ~12 KiB of buffers: static rather than on the firmware's stack. */
static struct tp_stub stub;

/*
 * One failure, said twice: a line for people ("<text> <file>: Not Found (EFI
 * status 0x800000000000000e)") and a stub_error record for programs.
 */
static void msg_status(struct tp_stub *s, const char *key, const char *what, const char *file,
		       EFI_STATUS status)
{
	char m[256];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, what);
	if (file) {
		tp_buf_puts(&b, " ");
		tp_buf_puts(&b, file);
	}
	tp_buf_puts(&b, ": ");
	tp_buf_puts(&b, tp_efi_status_str(status));
	tp_buf_puts(&b, " (EFI status 0x");
	tp_buf_puthex(&b, status, 1);
	tp_buf_puts(&b, ")");
	tp_con_msg(&s->con, m);

	r = tp_con_rec(&s->con, "stub_error");
	tp_rec_str(r, "what", key);
	if (file)
		tp_rec_str(r, "file", file);
	tp_rec_str(r, "status", tp_efi_status_str(status));
	tp_rec_uint(r, "status_code", status);
	tp_con_emit(&s->con);
}

static void to_char16(CHAR16 *out, size_t cap, const char *in)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < cap; i++)
		out[i] = (CHAR16)(in[i] == '/' ? '\\' : (unsigned char)in[i]);
	out[i] = 0;
}

/* Reads a whole file of at most max bytes; *buf is from AllocatePool. */
static EFI_STATUS read_file(struct tp_stub *s, const char *path, UINTN max, void **buf,
			    UINTN *size)
{
	CHAR16 p16[256];
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS status;
	UINTN n;

	*buf = NULL;
	*size = 0;
	to_char16(p16, 256, path);
	/* UEFI 2.10, 13.5 EFI_FILE_PROTOCOL.Open */
	status = uefi_call_wrapper(s->root->Open, 5, s->root, &f, p16, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status))
		return status;
	info = LibFileInfo(f);
	if (!info) {
		status = EFI_DEVICE_ERROR;
		goto out;
	}
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		status = EFI_NOT_FOUND;
		goto out;
	}
	n = info->FileSize > max ? max : info->FileSize;
	*buf = AllocatePool(n + 1);
	if (!*buf) {
		status = EFI_OUT_OF_RESOURCES;
		goto out;
	}
	*size = n;
	status = uefi_call_wrapper(f->Read, 3, f, size, *buf);
	if (EFI_ERROR(status)) {
		FreePool(*buf);
		*buf = NULL;
		goto out;
	}
	((char *)*buf)[*size] = 0;
out:
	if (info)
		FreePool(info);
	uefi_call_wrapper(f->Close, 1, f);
	return status;
}

static EFI_STATUS file_exists(struct tp_stub *s, const char *path, size_t n)
{
	char p[256];
	CHAR16 p16[256];
	EFI_FILE_HANDLE f;
	EFI_STATUS status;
	size_t i;

	for (i = 0; i < n && i + 1 < sizeof(p); i++)
		p[i] = path[i];
	p[i] = 0;
	to_char16(p16, 256, p);
	status = uefi_call_wrapper(s->root->Open, 5, s->root, &f, p16, EFI_FILE_MODE_READ, 0);
	if (!EFI_ERROR(status))
		uefi_call_wrapper(f->Close, 1, f);
	return status;
}

static void stub_record(struct tp_stub *s)
{
	char vendor[128], rev[16];
	struct tp_buf b;
	struct tp_rec *r;
	size_t i;

	for (i = 0; s->st->FirmwareVendor && s->st->FirmwareVendor[i] && i + 1 < sizeof(vendor); i++) {
		CHAR16 c = s->st->FirmwareVendor[i];

		vendor[i] = c < 0x80 ? (char)c : '?';
	}
	vendor[i] = 0;
	tp_buf_init(&b, rev, sizeof(rev));
	tp_fmt_uefi_revision(&b, s->st->Hdr.Revision);

	r = tp_con_rec(&s->con, "stub");
	tp_rec_str(r, "version", TP_STUB_VERSION);
	tp_rec_str(r, "firmware_vendor", vendor);
	tp_rec_uint(r, "firmware_revision", s->st->FirmwareRevision);
	tp_rec_str(r, "uefi_revision", rev);
	tp_rec_bool(r, "conout_serial", s->con.conout_serial);
	tp_rec_bool(r, "serial_io", s->con.serial || s->con.rec_serial);
	tp_rec_uint(r, "conout_columns", s->con.columns);
	tp_con_emit(&s->con);
}

/* timeprobe.bootpart: UEFI 2.10, 10.3.5.1 Hard Drive Media Device Path */
static void find_bootpart(struct tp_stub *s)
{
	EFI_DEVICE_PATH *dp = DevicePathFromHandle(s->li->DeviceHandle);
	struct tp_hd_node hd;
	struct tp_buf b;

	tp_buf_init(&b, s->bootpart, sizeof(s->bootpart));
	if (dp && tp_devpath_find_hd(dp, DevicePathSize(dp), &hd) == 0)
		tp_bootpart_format(&b, &hd);
	else
		tp_buf_puts(&b, "unknown");
}

static void load_cmdline_txt(struct tp_stub *s)
{
	void *buf;
	UINTN size;
	EFI_STATUS status;
	int cut = 0;
	struct tp_rec *r;

	status = read_file(s, TP_CMDLINE_PATH, TP_CMDLINE_FILE_MAX, &buf, &size);
	if (EFI_ERROR(status)) {
		msg_status(s, "cmdline_read", "cannot read", TP_CMDLINE_PATH, status);
		tp_con_msg(&s->con, "using the built-in command line: " TP_CMDLINE_DEFAULT);
		tp_cmdline_clean(s->user, sizeof(s->user), TP_CMDLINE_DEFAULT,
				 sizeof(TP_CMDLINE_DEFAULT) - 1, &cut);
		r = tp_con_rec(&s->con, "stub_warning");
		tp_rec_str(r, "what", "cmdline_default");
		tp_rec_str(r, "status", tp_efi_status_str(status));
		tp_con_emit(&s->con);
		return;
	}
	tp_cmdline_clean(s->user, sizeof(s->user), buf, size, &cut);
	FreePool(buf);
	if (cut) {
		tp_con_msg(&s->con, "WARNING: " TP_CMDLINE_PATH " holds more than 2047 bytes of "
				    "parameters: cut at a word boundary");
		r = tp_con_rec(&s->con, "stub_warning");
		tp_rec_str(r, "what", "cmdline_file_cut");
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_rec_uint(r, "file_bytes", size);
		tp_con_emit(&s->con);
	}
}

/* timeprobe.calib_rounds= and timeprobe.calib_ms= from cmdline.txt */
static void calib_params(struct tp_stub *s, uint32_t *rounds, uint32_t *ms)
{
	uint64_t v;

	*rounds = TP_CALIB_ROUNDS_DEFAULT;
	*ms = TP_CALIB_MS_DEFAULT;
	if (tp_cmdline_get_uint(s->user, "timeprobe.calib_rounds", &v)) {
		if (v >= 1 && v <= TP_CALIB_ROUNDS_MAX)
			*rounds = (uint32_t)v;
		else
			tp_con_msg(&s->con, "timeprobe.calib_rounds= out of range 1..32: ignored");
	}
	if (tp_cmdline_get_uint(s->user, "timeprobe.calib_ms", &v)) {
		if (v >= TP_CALIB_MS_MIN && v <= TP_CALIB_MS_MAX)
			*ms = (uint32_t)v;
		else
			tp_con_msg(&s->con, "timeprobe.calib_ms= out of range 1..1000: ignored");
	}
}

static void build_cmdline(struct tp_stub *s)
{
	struct tp_cmdline_extras x = {
		.tsc_hz = s->tsc.tsc_hz,
		.tsc_ref = s->tsc.chosen,
		.tsc_calib = s->tsc.calib_list,
		.bootpart = s->bootpart,
	};
	struct tp_cmdline_report rep;
	struct tp_rec *r;

	if (tp_cmdline_assemble(s->cmdline, sizeof(s->cmdline), s->user, &x, &rep) > 0) {
		char m[200];
		struct tp_buf b;

		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, "WARNING: kernel command line over 2047 bytes:");
		if (rep.dropped_tsc_calib)
			tp_buf_puts(&b, " dropped timeprobe.tsc_calib=;");
		if (rep.user_words_dropped) {
			tp_buf_puts(&b, " dropped the last ");
			tp_buf_putu(&b, rep.user_words_dropped);
			tp_buf_puts(&b, " word(s) of cmdline.txt;");
		}
		tp_con_msg(&s->con, m);
		r = tp_con_rec(&s->con, "stub_warning");
		tp_rec_str(r, "what", "cmdline_truncated");
		tp_rec_bool(r, "dropped_tsc_calib", rep.dropped_tsc_calib);
		tp_rec_uint(r, "user_words_dropped", rep.user_words_dropped);
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_con_emit(&s->con);
	}
	tp_utf8_to_ucs2((uint16_t *)s->cmdline16, TP_CMDLINE_MAX + 1, s->cmdline);

	r = tp_con_rec(&s->con, "stub_cmdline");
	tp_rec_str(r, "cmdline", s->cmdline);
	tp_rec_uint(r, "len", rep.len);
	tp_rec_bool(r, "added_panic", rep.added_panic);
	tp_rec_bool(r, "added_tsc_early", rep.added_tsc_early);
	tp_con_emit(&s->con);
}

/*
 * Every initrd= must exist: Linux's EFI stub would otherwise stop with a
 * message of its own, or, were the file later missing, the kernel would
 * panic without an init and reboot (panic=10) into the same failure. We
 * return to the firmware instead, whose boot manager can try the next entry.
 */
static EFI_STATUS check_initrds(struct tp_stub *s)
{
	size_t pos = 0, vlen;
	const char *v;

	while ((v = tp_cmdline_next(s->cmdline, "initrd", &pos, &vlen)) != NULL) {
		EFI_STATUS status = file_exists(s, v, vlen);

		if (EFI_ERROR(status)) {
			char name[128];
			struct tp_buf b;

			tp_buf_init(&b, name, sizeof(name));
			tp_buf_putn(&b, v, vlen);
			msg_status(s, "initrd_missing", "initrd missing:", name, status);
			return status;
		}
	}
	return EFI_SUCCESS;
}

/* Reads the kernel and checks its header before the firmware sees it. */
static EFI_STATUS read_kernel(struct tp_stub *s, void **buf, UINTN *size,
			      struct tp_kernel_info *ki)
{
	const char *why;
	EFI_STATUS status;

	status = read_file(s, TP_KERNEL_PATH, TP_KERNEL_MAX, buf, size);
	if (EFI_ERROR(status)) {
		msg_status(s, "kernel_read", "cannot read kernel", TP_KERNEL_PATH, status);
		return status;
	}
	if (tp_kernel_check(*buf, *size, ki, &why)) {
		char m[160];
		struct tp_buf b;

		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, TP_KERNEL_PATH " is not an x86-64 EFI kernel: ");
		tp_buf_puts(&b, why);
		tp_con_msg(&s->con, m);
		FreePool(*buf);
		*buf = NULL;
		status = EFI_LOAD_ERROR;
		msg_status(s, "kernel_header", "bad kernel image", TP_KERNEL_PATH, status);
	}
	return status;
}

/* Frees buf in all cases. Returns only when the kernel could not start. */
static EFI_STATUS start_kernel(struct tp_stub *s, void *buf, UINTN size,
			       const struct tp_kernel_info *ki)
{
	EFI_DEVICE_PATH *kpath;
	EFI_HANDLE kimage = NULL;
	EFI_LOADED_IMAGE *kli;
	UINTN exit_size = 0;
	CHAR16 *exit_data = NULL;
	EFI_STATUS status;
	struct tp_rec *r;

	/* UEFI 2.10, 7.4 LoadImage: from our buffer, with the file's device
	 * path so that the kernel's LoadedImage names our volume (Linux's EFI
	 * stub opens initrd= files on that volume). */
	kpath = FileDevicePath(s->li->DeviceHandle, L"" TP_KERNEL_PATH);
	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, s->image, kpath, buf, size, &kimage);
	FreePool(buf);
	if (EFI_ERROR(status)) {
		msg_status(s, "kernel_load", "LoadImage failed for", TP_KERNEL_PATH, status);
		/* UEFI 2.10, 7.4: on EFI_SECURITY_VIOLATION an image handle may
		 * still have been created; it must be unloaded. */
		goto fail;
	}
	status = uefi_call_wrapper(BS->HandleProtocol, 3, kimage, &LoadedImageProtocol,
				   (void **)&kli);
	if (EFI_ERROR(status)) {
		msg_status(s, "kernel_load", "no LoadedImage protocol on", TP_KERNEL_PATH, status);
		goto fail;
	}
	/* UEFI 2.10, 9.1 EFI_LOADED_IMAGE_PROTOCOL: LoadOptionsSize in bytes */
	kli->LoadOptions = s->cmdline16;
	kli->LoadOptionsSize = (UINT32)((StrLen(s->cmdline16) + 1) * sizeof(CHAR16));

	r = tp_con_rec(&s->con, "stub_start");
	tp_rec_str(r, "kernel", TP_KERNEL_PATH);
	tp_rec_uint(r, "size", size);
	tp_rec_bool(r, "linux", ki->is_linux);
	tp_rec_str(r, "kernel_version", ki->version);
	tp_con_emit(&s->con);

	/* UEFI 2.10, 7.4 StartImage: returns only if the kernel exits */
	status = uefi_call_wrapper(BS->StartImage, 3, kimage, &exit_size, &exit_data);
	msg_status(s, "kernel_exit", "StartImage returned from", TP_KERNEL_PATH, status);
	if (!EFI_ERROR(status))
		status = EFI_LOAD_ERROR;	/* a kernel that returns did not boot */
	if (exit_data)
		FreePool(exit_data);
	kimage = NULL;				/* an exited image is unloaded */
fail:
	if (kimage)
		uefi_call_wrapper(BS->UnloadImage, 1, kimage);
	if (kpath)
		FreePool(kpath);
	return status;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct tp_stub *s = &stub;
	struct tp_kernel_info ki;
	uint32_t rounds, ms;
	void *kbuf = NULL;
	UINTN ksize = 0;
	EFI_STATUS status;

	InitializeLib(image, st);
	s->image = image;
	s->st = st;
	tp_con_init(&s->con, st);
	tp_con_msg(&s->con, "stub " TP_STUB_VERSION " (" TP_KERNEL_PATH ")");
	stub_record(s);

	status = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
				   (void **)&s->li);
	if (EFI_ERROR(status)) {
		msg_status(s, "stub_image", "no LoadedImage protocol on the stub", NULL, status);
		goto fail;
	}
	find_bootpart(s);
	s->root = LibOpenRoot(s->li->DeviceHandle);
	if (!s->root) {
		status = EFI_NOT_FOUND;
		msg_status(s, "volume_open", "cannot open the stub's own volume for", TP_KERNEL_PATH, status);
		goto fail;
	}
	load_cmdline_txt(s);
	calib_params(s, &rounds, &ms);
	tp_con_msg(&s->con, "calibrating the TSC");
	tp_tsc_calibrate(&s->con, st, rounds, ms, &s->tsc);
	build_cmdline(s);
	status = read_kernel(s, &kbuf, &ksize, &ki);
	if (EFI_ERROR(status))
		goto fail;
	status = check_initrds(s);
	if (EFI_ERROR(status)) {
		FreePool(kbuf);
		goto fail;
	}
	tp_con_msg(&s->con, "starting " TP_KERNEL_PATH);
	status = start_kernel(s, kbuf, ksize, &ki);
fail:
	tp_con_msg(&s->con, "returning to the firmware in 5 s");
	uefi_call_wrapper(BS->Stall, 1, TP_ERROR_PAUSE_US);
	return status;
}
