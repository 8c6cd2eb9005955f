// SPDX-License-Identifier: MIT
/*
 * The initramfs: the user's initrd= words taken from the line, their files
 * checked and read, or the .initrd section; the stub's records appended;
 * served through LINUX_EFI_INITRD_MEDIA_GUID. See initrd.h.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "../common/newc.h"
#include "../common/stubfile.h"
#include "../common/words.h"
#include "digest.h"
#include "initrd.h"
#include "stub.h"

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
/* rd->data: rd->base, NULs to 4 bytes, the cpio holding file[0..len). */
static EFI_STATUS initrd_compose(struct tp_initrd *rd, const void *file, UINTN len)
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

/*
 * Installs the handle serving rd->data. Fails with EFI_ALREADY_STARTED
 * when a loader before us registered an initrd the same way (UEFI 2.10,
 * 7.3 InstallMultipleProtocolInterfaces: a device path already present on
 * another handle).
 */
static EFI_STATUS initrd_install(struct tp_initrd *rd)
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

/*
 * The one walk over initrd= words: fn(ctx, v, n) for each word's value
 * v[0..n) in line, in order, until fn fails; its status then.
 */
typedef EFI_STATUS initrd_word_fn(void *ctx, const char *v, size_t n);

static EFI_STATUS each_initrd(const char *line, initrd_word_fn *fn, void *ctx)
{
	size_t pos = 0, n;
	const char *v;
	EFI_STATUS status;

	while ((v = tp_cmdline_next(line, tp_words[TPW_INITRD].name, &pos, &n))) {
		status = fn(ctx, v, n);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

/* tp_initrd_take's count of named files and the words it keeps. */
struct take {
	int embedded;			/* .initrd serves: no word is kept */
	unsigned int named;
	struct tp_buf words;
};

static EFI_STATUS take_one(void *ctx, const char *v, size_t n)
{
	struct take *t = ctx;

	t->named += n != 0;
	if (!n || t->embedded)
		return EFI_SUCCESS;
	tp_buf_puts(&t->words, t->words.len ? " initrd=" : "initrd=");
	tp_buf_putn(&t->words, v, n);
	return EFI_SUCCESS;
}

void tp_initrd_take(struct tp_stub *s)
{
	struct take t = { .embedded = s->embedded && s->pl.initrd.data != NULL };

	tp_buf_init(&t.words, s->initrd_words, sizeof(s->initrd_words));
	each_initrd(s->user, take_one, &t);
	s->initrd_dropped = tp_cmdline_drop_substr(s->user, "initrd=");
	s->initrd_taken = 1;
	if (s->initrd_dropped > t.named) {
		struct tp_rec *r = tp_con_warn(&s->con, "cmdline_initrd_inside", s->cmdline_from,
					       "a word holds initrd= inside it (Linux's EFI stub would "
					       "load that as a file): dropped");

		tp_rec_uint(r, "words", s->initrd_dropped - t.named);
		tp_con_emit(&s->con);
	}
}

/* s->path: the word's value v[0..n), whole (a word of the line fits). */
static const char *word_path(struct tp_stub *s, const char *v, size_t n)
{
	struct tp_buf b;

	tp_buf_init(&b, s->path, sizeof(s->path));
	tp_buf_putn(&b, v, n);
	return s->path;
}

/* check_all's count of files, each of which exists. */
struct check {
	struct tp_stub *s;
	unsigned int files;
};

static EFI_STATUS check_one(void *ctx, const char *v, size_t n)
{
	struct check *c = ctx;
	EFI_STATUS status = tp_file_exists(&c->s->vol, v, n);

	c->files++;
	if (EFI_ERROR(status))
		tp_con_error(&c->s->con, "initrd_missing", "initrd missing:", word_path(c->s, v, n),
			     status);
	return status;
}

/*
 * Every initrd= file must exist: the kernel would otherwise find no init,
 * panic and stay there. We return to the firmware instead, whose boot
 * manager can try the next entry.
 */
static EFI_STATUS check_all(struct tp_stub *s)
{
	struct check c = { .s = s };
	EFI_STATUS status = each_initrd(s->initrd_words, check_one, &c);

	if (EFI_ERROR(status))
		return status;
	/* no initrd= and no initramfs file (else the line fell back): no init */
	if (!c.files) {
		tp_con_error(&s->con, "initrd_missing", "no initrd= on the command line, and no",
			     TP_INITRD_PATH, EFI_NOT_FOUND);
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

/*
 * A user's initrd= file is passed on whatever it holds, but one the stub
 * cannot see to end cleanly (common/newc.h: compressed, malformed, or
 * reaching into run/timeprobe/) may hide or replace the stub's file from
 * PID 1: a stub_warning says so. The digest PID 1 checks (tp_initrd_register)
 * keeps the figures safe either way.
 */
static void check_archive(struct tp_stub *s, const void *p, UINTN n)
{
	const char *why, *name;
	size_t name_len;
	enum tp_initrd_check c = tp_initrd_check(p, n, &why, &name, &name_len);
	struct tp_rec *r;
	char m[192];
	struct tp_buf b;

	if (c == TP_INITRD_OK)
		return;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, c == TP_INITRD_COMPRESSED ? "a compressed archive (" : "not a clean newc archive (");
	tp_buf_puts(&b, why);
	tp_buf_puts(&b, "): passed on unchecked; the stub's file may not reach PID 1");
	r = tp_con_warn(&s->con, c == TP_INITRD_COMPRESSED ? "initrd_compressed" : "initrd_archive", s->path, m);
	tp_rec_str(r, "why", why);
	if (name)
		tp_rec_strn(r, "entry", name, name_len < 64 ? name_len : 64);
	tp_con_emit(&s->con);
}

/* *all grown by the file one at a 4-byte boundary (as newc wants); *total updated. */
static EFI_STATUS initrd_join(void **all, UINTN *total, const void *one, UINTN size)
{
	UINTN at = (*total + 3) & ~(UINTN)3;
	uint8_t *p = at + size + 1 > at ? AllocatePool(at + size + 1) : NULL;

	if (!p)
		return EFI_OUT_OF_RESOURCES;
	if (*all) {
		CopyMem(p, *all, *total);
		FreePool(*all);
	}
	for (UINTN i = *total; i < at; i++)
		p[i] = 0;
	CopyMem(p + at, (void *)one, size);
	*all = p;
	*total = at + size;
	return EFI_SUCCESS;
}

/* read_all's initramfs so far. */
struct gather {
	struct tp_stub *s;
	void *all;
	UINTN total;
};

static EFI_STATUS read_one(void *ctx, const char *v, size_t n)
{
	struct gather *g = ctx;
	struct tp_stub *s = g->s;
	const char *path = word_path(s, v, n);
	void *one;
	UINTN size = 0;
	EFI_STATUS status = tp_file_read(&s->vol, path, TP_NO_CAP, &one, &size);

	if (EFI_ERROR(status)) {
		tp_con_error(&s->con, "initrd_read", "cannot read initramfs", path, status);
		return status;
	}
	check_archive(s, one, size);
	status = initrd_join(&g->all, &g->total, one, size);
	FreePool(one);
	if (EFI_ERROR(status))
		tp_con_error(&s->con, "initrd_read", "no memory for initramfs", path, status);
	return status;
}

/*
 * Every initrd= file, read whole (no cap but memory: one the firmware
 * cannot give room for is a stub_error), checked and joined into
 * s->initrd.base; *buf is freed by the caller.
 */
static EFI_STATUS read_all(struct tp_stub *s, void **buf)
{
	struct gather g = { .s = s };
	EFI_STATUS status = each_initrd(s->initrd_words, read_one, &g);

	*buf = g.all;
	s->initrd.base = g.all;
	s->initrd.base_size = g.total;
	return status;
}

EFI_STATUS tp_initrd_gather(struct tp_stub *s, void **buf)
{
	EFI_STATUS status;

	*buf = NULL;
	if (s->embedded && s->pl.initrd.data) {
		s->initrd.base = s->pl.initrd.data;
		s->initrd.base_size = s->pl.initrd.size;
		return EFI_SUCCESS;
	}
	if (!s->vol.root)
		return EFI_SUCCESS;
	status = check_all(s);
	if (!EFI_ERROR(status))
		status = read_all(s, buf);
	return status;
}

EFI_STATUS tp_initrd_register(struct tp_stub *s, const char *what)
{
	EFI_STATUS status = initrd_compose(&s->initrd, s->con.kept, s->con.kept_len);

	if (EFI_ERROR(status)) {
		tp_con_error(&s->con, "initrd_register",
			     "cannot add the stub's records to the initramfs for", what, status);
		return status;
	}
	tp_digest_hand_over(&s->con);
	status = initrd_install(&s->initrd);
	if (EFI_ERROR(status))
		tp_con_error(&s->con, "initrd_register",
			     "cannot register the initramfs as LINUX_EFI_INITRD_MEDIA_GUID for",
			     what, status);
	return status;
}
