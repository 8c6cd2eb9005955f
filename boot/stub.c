// SPDX-License-Identifier: MIT
/*
 * timeprobe's UEFI stub (BOOTX64.EFI): reports the firmware, calibrates the
 * TSC, assembles the kernel command line and starts \EFI\timeprobe\vmlinuz
 * (file mode) or, built as the single file timeprobe.efi, the kernel and
 * initramfs carried in its own .linux and .initrd sections. See docs/stub.md.
 * Everything that can be computed without firmware lives in calib.c,
 * cmdfile.c, cmdline.c, devpath.c, efitext.c, ucs2.c, pe.c, spcr.c and
 * common/ and is tested on the host.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/announce.h"
#include "../common/record.h"
#include "../common/handoff.h"
#include "../common/sha256.h"
#include "../common/stubfile.h"
#include "../common/words.h"
#include "arch.h"
#include "cmdfile.h"
#include "hwlat.h"
#include "initrd.h"
#include "cmdline.h"
#include "devpath.h"
#include "efitext.h"
#include "ucs2.h"
#include "console.h"
#include "mp.h"
#include "pe.h"
#include "spcr.h"
#include "tsc.h"

#define TP_STUB_VERSION "0.1.0"
#define TP_DIR "\\EFI\\timeprobe"
#define TP_KERNEL_PATH TP_DIR "\\vmlinuz"
#define TP_CMDLINE_PATH TP_DIR "\\cmdline.txt"
#define TP_INITRD_PATH TP_DIR "\\initramfs.img"
/* How long an error stays on screen before we return to the firmware. */
#define TP_ERROR_PAUSE_US (5 * 1000 * 1000)
/* Largest kernel we read into memory. */
#define TP_KERNEL_MAX (256u << 20)
/* How the single-file stub names its kernel in messages and records. */
#define TP_EMBEDDED_KERNEL ".linux section"

struct tp_stub {
	EFI_HANDLE image;
	EFI_SYSTEM_TABLE *st;
	EFI_LOADED_IMAGE *li;
	EFI_FILE_HANDLE root;
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
	CHAR16 path16[TP_CMDLINE_MAX + 1];
};


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

/*
 * UEFI 2.10, 13.5 EFI_FILE_PROTOCOL.Open: path[0..n) (a word of the line,
 * so it fits s->path16 whole), '/' as '\\'.
 */
static EFI_STATUS open_file(struct tp_stub *s, const char *path, size_t n, EFI_FILE_HANDLE *f)
{
	size_t i;

	for (i = 0; i < n && path[i] && i + 1 < sizeof(s->path16) / sizeof(s->path16[0]); i++)
		s->path16[i] = (CHAR16)(path[i] == '/' ? '\\' : (unsigned char)path[i]);
	s->path16[i] = 0;
	if (i < n && path[i])
		return EFI_BAD_BUFFER_SIZE;
	return uefi_call_wrapper(s->root->Open, 5, s->root, f, s->path16, EFI_FILE_MODE_READ, 0);
}

/*
 * Reads a whole file of at most max bytes (cut there; TP_NO_CAP: every
 * byte, or EFI_OUT_OF_RESOURCES); *buf is from AllocatePool.
 */
#define TP_NO_CAP ((UINTN)-1)
static EFI_STATUS read_file(struct tp_stub *s, const char *path, UINTN max, void **buf,
			    UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS status;
	UINTN n;

	*buf = NULL;
	*size = 0;
	status = open_file(s, path, tp_strlen(path), &f);
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
	n = info->FileSize > max ? max : (UINTN)info->FileSize;
	*buf = n != TP_NO_CAP ? AllocatePool(n + 1) : NULL;	/* +1: the NUL */
	if (!*buf) {
		status = EFI_OUT_OF_RESOURCES;
		goto out;
	}
	*size = n;
	status = uefi_call_wrapper(f->Read, 3, f, size, *buf);
	if (!EFI_ERROR(status) && *size != n)
		status = EFI_END_OF_FILE;	/* shorter than its FileSize */
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
	EFI_FILE_HANDLE f;
	EFI_STATUS status = open_file(s, path, n, &f);

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
	tp_buf_init(&b, s->firmware, sizeof(s->firmware));
	tp_firmware_fmt(&b, (const uint16_t *)s->st->FirmwareVendor, s->st->FirmwareRevision,
			s->st->Hdr.Revision);
	tp_rec_bool(r, "serial_io", s->con.serial || s->con.rec_serial);
	tp_rec_uint(r, "conout_columns", s->con.columns);
	tp_con_emit(&s->con);
}

/* The bootpart value of its file: UEFI 2.10, 10.3.5.1 Hard Drive Media Device Path */
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

/* "WARNING: <what>: <text>" on screen and a stub_warning record naming the file. */
static struct tp_rec *warn(struct tp_stub *s, const char *key, const char *what, const char *text)
{
	char m[256];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "WARNING: ");
	tp_buf_puts(&b, what);
	tp_buf_puts(&b, ": ");
	tp_buf_puts(&b, text);
	tp_con_msg(&s->con, m);
	r = tp_con_rec(&s->con, "stub_warning");
	tp_rec_str(r, "what", key);
	tp_rec_str(r, "file", what);
	return r;
}

/*
 * Each refused character the cleaner names: a message and a stub_warning
 * (cmdline_bad_char) with its byte offset in the file; its word was dropped.
 */
static void say_refused(struct tp_stub *s, const struct tp_clean_report *rep, const char *what)
{
	for (unsigned int i = 0; i < rep->n_bad; i++) {
		char m[160];
		struct tp_buf b;
		struct tp_rec *r;

		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, rep->bad[i].why);
		tp_buf_puts(&b, " at byte ");
		tp_buf_putu(&b, rep->bad[i].offset);
		tp_buf_puts(&b, ": that word dropped, the others kept");
		r = warn(s, "cmdline_bad_char", what, m);
		tp_rec_uint(r, "offset", rep->bad[i].offset);
		tp_rec_str(r, "reason", rep->bad[i].why);
		tp_rec_uint(r, "words_dropped", rep->bad_words);
		tp_rec_uint(r, "refused", rep->refused);
		tp_con_emit(&s->con);
	}
}

/* Cleans a command line source into s->user and says what it dropped. */
static void clean_user(struct tp_stub *s, const void *text, size_t size, const char *what)
{
	struct tp_clean_report rep;
	struct tp_rec *r;

	tp_cmdline_clean(s->user, sizeof(s->user), text, size, &rep);
	s->cmdline_from = what;
	s->user_empty = rep.len == 0;
	if (rep.encoding != TP_ENC_UTF8) {
		char m[200];
		struct tp_buf b;

		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, what);
		tp_buf_puts(&b, rep.bom ? " is " : " looks like ");
		tp_buf_puts(&b, tp_encoding_name(rep.encoding));
		tp_buf_puts(&b, rep.bom ? " (byte-order mark): decoded" : " (no byte-order mark): decoded");
		tp_con_msg(&s->con, m);
	}
	if (rep.long_words) {
		r = warn(s, "cmdline_long_word", what, "a word longer than 2047 bytes dropped, "
			 "the other words kept");
		tp_rec_uint(r, "words", rep.long_words);
		tp_rec_uint(r, "word_bytes", rep.long_word_bytes);
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_con_emit(&s->con);
	}
	if (rep.cut_words) {
		r = warn(s, "cmdline_file_cut", what, "holds more than 2047 bytes of parameters: "
			 "cut at a word boundary");
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_rec_uint(r, "file_bytes", size);
		tp_rec_uint(r, "words_dropped", rep.cut_words);
		tp_con_emit(&s->con);
	}
	say_refused(s, &rep, what);
	if (rep.closed_quotes) {
		r = warn(s, "cmdline_quote_closed", what, "a line ended inside double quotes: "
			 "closed there, so the stub's words stay words of their own");
		tp_rec_uint(r, "lines", rep.closed_quotes);
		tp_con_emit(&s->con);
	}
	s->encoding = rep.encoding;
}

/*
 * The user's part of the command line: \EFI\timeprobe\cmdline.txt when the
 * stub's volume has one; else, in single-file mode, the embedded .cmdline;
 * else the built-in line. In single-file mode a missing cmdline.txt is the
 * normal case, not an error.
 */
static void load_cmdline(struct tp_stub *s)
{
	EFI_STATUS status = EFI_NO_MEDIA;	/* no volume (e.g. network boot) */
	void *buf = NULL;
	UINTN size = 0;
	struct tp_rec *r;

	if (s->root)
		status = read_file(s, TP_CMDLINE_PATH, TP_CMDLINE_FILE_MAX, &buf, &size);
	if (!EFI_ERROR(status)) {
		if (s->embedded)
			tp_con_msg(&s->con, TP_CMDLINE_PATH " overrides the embedded command line");
		clean_user(s, buf, size, TP_CMDLINE_PATH);
		FreePool(buf);
		s->cmdline_source = "file";
		return;
	}
	if (s->embedded && s->pl.cmdline.data) {
		if (s->root && status != EFI_NOT_FOUND)
			msg_status(s, "cmdline_read", "cannot read", TP_CMDLINE_PATH, status);
		tp_con_msg(&s->con, "using the embedded command line (.cmdline section)");
		clean_user(s, s->pl.cmdline.data, s->pl.cmdline.size, ".cmdline section");
		s->cmdline_source = "embedded";
		return;
	}
	msg_status(s, "cmdline_read", "cannot read", TP_CMDLINE_PATH, status);
	tp_con_msg(&s->con, "using the built-in command line: " TP_CMDLINE_DEFAULT);
	clean_user(s, TP_CMDLINE_DEFAULT, sizeof(TP_CMDLINE_DEFAULT) - 1, "built-in line");
	s->cmdline_source = "builtin";
	r = tp_con_rec(&s->con, "stub_warning");
	tp_rec_str(r, "what", "cmdline_default");
	tp_rec_str(r, "status", tp_efi_status_str(status));
	tp_con_emit(&s->con);
}

/*
 * Single-file mode: the stub's own .linux, .initrd and .cmdline sections
 * (UEFI 2.10, 9.1: LoadedImage->ImageBase/ImageSize is our image as loaded).
 */
static void find_payload(struct tp_stub *s)
{
	const char *why;
	char m[200];
	struct tp_buf b;
	struct tp_rec *r;

	if (tp_payload_find(s->li->ImageBase, s->li->ImageSize, TP_PE_LOADED, &s->pl, &why) < 0) {
		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, "WARNING: cannot read the stub's own PE sections (");
		tp_buf_puts(&b, why);
		tp_buf_puts(&b, "): file mode");
		tp_con_msg(&s->con, m);
		r = tp_con_rec(&s->con, "stub_warning");
		tp_rec_str(r, "what", "pe_sections");
		tp_rec_str(r, "reason", why);
		tp_con_emit(&s->con);
		s->pl = (struct tp_payload){ 0 };
	}
	s->embedded = s->pl.kernel.data != NULL;
	tp_buf_init(&b, m, sizeof(m));
	if (!s->embedded) {
		tp_buf_puts(&b, "file mode: kernel " TP_KERNEL_PATH);
	} else {
		tp_buf_puts(&b, "single-file mode: embedded kernel ");
		tp_buf_putu(&b, s->pl.kernel.size);
		tp_buf_puts(&b, " bytes, initramfs ");
		tp_buf_putu(&b, s->pl.initrd.size);
		tp_buf_puts(&b, " bytes, command line ");
		tp_buf_putu(&b, s->pl.cmdline.size);
		tp_buf_puts(&b, " bytes");
	}
	tp_con_msg(&s->con, m);
}

/* What the SPCR gave: shown on screen and as the stub_console record. */
struct spcr_outcome {
	const void *table;	/* NULL: none found */
	struct tp_spcr sp;	/* as far as the table could be read */
	int usable;		/* sp describes a UART Linux can use */
	enum tp_spcr_add add;	/* when usable */
	const char *why;	/* when nothing was added and nothing named */
	char word[64];		/* the console= word, when usable */
};

/* Finds and parses the SPCR: o->table, o->sp and o->usable, or o->why. */
static void spcr_find(EFI_SYSTEM_TABLE *st, struct spcr_outcome *o)
{
	struct tp_acpi_root root;
	uint32_t len = 0;
	int bad = 0;

	o->why = tp_efi_acpi_root(st, &root);
	if (o->why)
		return;
	o->table = tp_acpi_find(&root, "SPCR", tp_acpi_map_identity, NULL, &len, &bad);
	if (!o->table)
		o->why = bad ? "SPCR checksum bad" : "no SPCR table";
	else
		o->usable = tp_spcr_parse(o->table, len, &o->sp, &o->why) == 0;
}

static void spcr_message(struct tp_stub *s, const struct spcr_outcome *o)
{
	char m[200];
	struct tp_buf b;

	tp_buf_init(&b, m, sizeof(m));
	if (o->usable && o->add == TP_SPCR_ADDED) {
		tp_buf_puts(&b, "serial console from ACPI SPCR: added ");
		tp_buf_puts(&b, o->word);
	} else if (o->usable && o->add == TP_SPCR_NAMED) {
		tp_buf_puts(&b, "serial console from ACPI SPCR: the command line already has ");
		tp_buf_puts(&b, o->word);
	} else {
		tp_buf_puts(&b, "no serial console from ACPI SPCR: ");
		tp_buf_puts(&b, o->why);
	}
	tp_con_msg(&s->con, m);
}

static void spcr_record(struct tp_stub *s, const struct spcr_outcome *o)
{
	int added = o->usable && o->add == TP_SPCR_ADDED;
	int named = o->usable && o->add == TP_SPCR_NAMED;
	struct tp_rec *r = tp_con_rec(&s->con, "stub_console");
	const struct tp_spcr *sp = &o->sp;

	tp_rec_bool(r, "spcr", o->table != NULL);
	if (o->table) {
		char addr[24];
		struct tp_buf a;

		tp_buf_init(&a, addr, sizeof(addr));
		tp_buf_puts(&a, "0x");
		tp_buf_puthex(&a, sp->address, 1);
		tp_rec_uint(r, "revision", sp->revision);
		tp_rec_uint(r, "interface_type", sp->interface_type);
		tp_rec_str(r, "interface", tp_spcr_interface_name(sp->interface_type));
		tp_rec_str(r, "space", sp->space == ACPI_GAS_IO ? "io" :
				       sp->space == ACPI_GAS_MEMORY ? "mmio" : "other");
		tp_rec_str(r, "address", addr);
		tp_rec_uint(r, "baud", sp->baud);
	}
	if (o->usable)
		tp_rec_str(r, "console", o->word);
	tp_rec_bool(r, "added", added);
	tp_rec_bool(r, "already_named", named);
	if (!added && !named)
		tp_rec_str(r, "reason", o->why);
	tp_con_emit(&s->con);
}

/*
 * A serial console for Linux from the ACPI SPCR table (Microsoft, "Serial
 * Port Console Redirection Table"): the UART the firmware redirects to.
 * Added to the user's words unless they already name that UART.
 */
static void spcr_console(struct tp_stub *s)
{
	struct spcr_outcome o = { 0 };
	struct tp_buf w;

	spcr_find(s->st, &o);
	if (o.usable) {
		tp_buf_init(&w, o.word, sizeof(o.word));
		o.add = tp_spcr_console_add(s->user, &o.sp, &w);
		if (o.add == TP_SPCR_NO_ROOM)
			o.why = "no room on the command line";
	}
	spcr_message(s, &o);
	spcr_record(s, &o);
}

/*
 * One of the stub's own options from cmdline.txt, with the contract's bounds
 * (common/words.c; the suite checks the same word the same way). An absent
 * or bad word gives the row's default; a bad one is said.
 */
static uint32_t stub_option(struct tp_stub *s, enum tp_word_id id)
{
	const struct tp_word *w = &tp_words[id];
	char key[48], m[200];
	struct tp_buf k, b;
	enum tp_word_err e;
	const char *v;
	size_t n = 0;
	int64_t x;

	tp_buf_init(&k, key, sizeof(key));
	tp_buf_puts(&k, TP_WORD_PREFIX);
	tp_buf_puts(&k, w->name);
	v = tp_cmdline_find(s->user, key, &n);
	if (!v)
		return (uint32_t)w->def;
	e = tp_word_int(w, v, n, &x);
	if (e == TP_WE_OK)
		return (uint32_t)x;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, key);
	tp_buf_putc(&b, '=');
	tp_buf_putn(&b, v, n < 32 ? n : 32);
	tp_buf_puts(&b, ": ");
	tp_word_why(&b, w, e, 0);
	tp_buf_puts(&b, "; default kept");
	tp_con_msg(&s->con, m);
	return (uint32_t)w->def;
}

/*
 * The stub's one reader of timeprobe.inject=: a skew:REF:PPM item of the
 * user's line (common/skew.h) skews REF in the calibration (tsc.c). Only
 * the last timeprobe.inject= word counts, as for the suite (the last
 * value wins, userland/options.c). Nothing but the line sets it; it is said.
 */
static void inject_skew(struct tp_stub *s)
{
	char m[80];
	struct tp_buf b;
	size_t n;
	const char *v = tp_cmdline_find(s->user, TP_WORD_PREFIX "inject", &n);

	if (v)
		tp_skew_from_list(v, n, &s->tsc.skew);
	if (!s->tsc.skew.ref[0])
		return;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "fault injection: ");
	tp_buf_puts(&b, s->tsc.skew.ref);
	tp_buf_puts(&b, " read ");
	tp_buf_puti(&b, s->tsc.skew.ppm);
	tp_buf_puts(&b, " ppm fast in the calibration");
	tp_con_msg(&s->con, m);
}

/*
 * The TSC offsets of the APs against the BSP before the OS (mp.c), after
 * the calibration (its figure sizes the time-outs).
 */
static void preos_tscsync(struct tp_stub *s)
{
	tp_con_msg(&s->con, "measuring the " TP_ARCH_COUNTER " offsets between the CPUs" TP_ARCH_MP_VIA);
	tp_mp_tscsync(&s->con, s->st, s->tsc.tsc_hz, &s->mp);
}

/*
 * The pre-OS latency scan on every CPU (boot/hwlat.c): its window is
 * timeprobe.hwlat_ms= or the profile's (1 s quick, 10 s full).
 */
static void preos_hwlat(struct tp_stub *s)
{
	struct tp_hwlat_ref ref;
	uint32_t window_ms = stub_option(s, TPW_HWLAT_MS);
	size_t n, pos = 0;
	const char *v;
	int64_t quick = 0, x;

	/* the profile the suite takes: the last valid timeprobe.profile= */
	while ((v = tp_cmdline_next(s->user, TP_WORD_PREFIX "profile", &pos, &n)) != NULL)
		if (tp_word_choice(&tp_words[TPW_PROFILE], v, n, &x) == TP_WE_OK)
			quick = x;
	if (window_ms == (uint32_t)-1)
		window_ms = quick == 1 ? TP_HWLAT_MS_QUICK : TP_HWLAT_MS_FULL;
	if (window_ms) {
		char line[80];
		struct tp_buf b;

		/* the window, the APs' start, their return and the firmware's word */
		tp_buf_init(&b, line, sizeof(line));
		tp_announce(&b, "pre-OS latency scan on every CPU",
			    tp_hwlat_limit_s(window_ms, s->mp.cpus));
		tp_con_msg(&s->con, line);
	}
	tp_tsc_scan_ref(&s->tsc, &ref);
	tp_hwlat_scan(s->st, s->tsc.tsc_hz, window_ms, stub_option(s, TPW_HWLAT_THRESH_US),
		      stub_option(s, TPW_HWLAT_STUCK) == 1, &ref, &s->hwlat);
	tp_tsc_scan_ref_end();
	tp_hwlat_say(&s->con, &s->hwlat);
}

/* What the line is checked against before the kernel gets it (cmdline.h). */
static void cmdline_env(struct tp_stub *s, struct tp_cmdline_env *env)
{
	int embedded_initrd = s->embedded && s->pl.initrd.data;

	env->user_empty = s->user_empty && s->cmdline_source[0] != 'b';
	env->initrd_file = !embedded_initrd && !s->initrd_taken && s->root &&
			   !EFI_ERROR(file_exists(s, TP_INITRD_PATH, sizeof(TP_INITRD_PATH) - 1));
	env->serial = s->con.serial || s->con.rec_serial || s->con.conout_serial;
	env->drop_initrd = embedded_initrd || s->initrd_taken;
}

static void say_fallback(struct tp_stub *s, const struct tp_cmdline_final *f)
{
	char m[200];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_cmdline_faults_text(&b, f->faults);
	tp_buf_puts(&b, "; booting the built-in line with ");
	tp_buf_putu(&b, f->fallback_kept);
	tp_buf_puts(&b, " timeprobe.* word(s) of it");
	r = warn(s, "cmdline_fallback", s->cmdline_from, m);
	tp_rec_bool(r, "empty", !!(f->faults & TP_CF_EMPTY));
	tp_rec_bool(r, "no_initrd", !!(f->faults & (TP_CF_NO_INITRD | TP_CF_NOINITRD)));
	tp_rec_bool(r, "no_console", !!(f->faults & TP_CF_NO_CONSOLE));
	tp_rec_uint(r, "words_kept", f->fallback_kept);
	tp_con_emit(&s->con);
	s->cmdline_source = "fallback";
}

/*
 * The user's line checked before the SPCR console is settled and the TSC
 * calibrated, so that a fallback line gets the SPCR port's console= too and
 * the stub's own options are read from the line that will boot. The same
 * check runs again on the final line (cutting it to length may drop words).
 * Returns 1 when the built-in line replaced the user's.
 */
static int check_user(struct tp_stub *s)
{
	static const struct tp_cmdline_extras none = { 0 };
	struct tp_cmdline_env env;
	struct tp_cmdline_final f;

	cmdline_env(s, &env);
	tp_cmdline_final(s->cmdline, sizeof(s->cmdline), s->user, &none, &env, &f);
	if (!f.faults)
		return 0;
	say_fallback(s, &f);
	s->user_empty = 0;
	return 1;
}

/* The line was cut to TP_CMDLINE_MAX: a message and a stub_warning record. */
static void say_truncated(struct tp_stub *s, const struct tp_cmdline_report *rep)
{
	char m[200];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_cmdline_report_text(&b, rep);
	tp_con_msg(&s->con, m);
	r = tp_con_rec(&s->con, "stub_warning");
	tp_rec_str(r, "what", "cmdline_truncated");
	tp_rec_uint(r, "user_words_dropped", rep->user_words_dropped);
	tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
	tp_con_emit(&s->con);
}

/*
 * The stub_handoff record: the values PID 1 takes from the stub's file
 * alone (common/stubfile.h), under the contract's names; the calibration
 * per reference and the per-CPU figures are records of their own.
 */
static void say_handoff(struct tp_stub *s)
{
	struct tp_stub_values v = {
		.tsc_hz = s->tsc.tsc_hz,
		.tsc_ref = s->tsc.tsc_hz ? s->tsc.chosen : NULL,
		.bootpart = s->bootpart,
		.firmware = s->firmware,
		.boot_tsc = s->boot_tsc_word,
	};

	tp_stub_handoff(tp_con_rec(&s->con, TP_STUB_HANDOFF), &v);
	tp_con_emit(&s->con);
}

static EFI_STATUS build_cmdline(struct tp_stub *s)
{
	struct tp_cmdline_extras x = { .tsc_hz = s->tsc.tsc_hz };
	struct tp_cmdline_env env;
	struct tp_cmdline_final f;
	struct tp_rec *r;
	struct tp_buf tb;

	cmdline_env(s, &env);
	s->boot_tsc.handover = tp_counter();
	tp_buf_init(&tb, s->boot_tsc_word, sizeof(s->boot_tsc_word));
	tp_boot_tsc_fmt(&tb, &s->boot_tsc);
	say_handoff(s);
	if (tp_cmdline_final(s->cmdline, sizeof(s->cmdline), s->user, &x, &env, &f) > 0)
		say_truncated(s, &f.rep);
	if (f.faults)
		say_fallback(s, &f);
	tp_utf8_to_ucs2((uint16_t *)s->cmdline16, TP_CMDLINE_MAX + 1, s->cmdline);

	r = tp_con_rec(&s->con, "stub_cmdline");
	tp_rec_str(r, "cmdline", s->cmdline);
	tp_rec_uint(r, "len", f.rep.len);
	tp_rec_bool(r, "added_panic", f.rep.added_panic);
	tp_rec_bool(r, "added_tsc_early", f.rep.added_tsc_early);
	tp_rec_str(r, "source", s->cmdline_source);
	tp_rec_str(r, "encoding", tp_encoding_name(s->encoding));
	tp_rec_uint(r, "initrd_dropped", s->initrd_dropped);
	tp_rec_bool(r, "before_dashes", f.rep.before_dashes);
	tp_con_emit(&s->con);
	/* the LoadOptions must say the line above, no more and no less */
	if (!tp_ucs2_is_line((const uint16_t *)s->cmdline16, s->cmdline)) {
		msg_status(s, "cmdline_handover", "the UCS-2 LoadOptions are not the line assembled for",
			   TP_KERNEL_PATH, EFI_INVALID_PARAMETER);
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

/*
 * Every initrd= file must exist: the kernel would otherwise find no init,
 * panic and stay there. We return to the firmware instead, whose boot
 * manager can try the next entry.
 */
static EFI_STATUS check_initrds(struct tp_stub *s)
{
	size_t pos = 0, vlen;
	const char *v;
	unsigned int n = 0;

	while ((v = tp_cmdline_next(s->initrd_words, tp_words[TPW_INITRD].name, &pos, &vlen))) {
		EFI_STATUS status = file_exists(s, v, vlen);

		n++;
		if (EFI_ERROR(status)) {
			struct tp_buf b;

			tp_buf_init(&b, s->path, sizeof(s->path));
			tp_buf_putn(&b, v, vlen);
			msg_status(s, "initrd_missing", "initrd missing:", s->path, status);
			return status;
		}
	}
	/* no initrd= and no initramfs file (else the line fell back): no init */
	if (!n) {
		msg_status(s, "initrd_missing", "no initrd= on the command line, and no",
			   TP_INITRD_PATH, EFI_NOT_FOUND);
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

/*
 * The initramfs is the stub's to serve (LINUX_EFI_INITRD_MEDIA_GUID), so
 * no word of the kernel's line may name one: Linux's EFI stub finds
 * initrd= anywhere in its line (drivers/firmware/efi/libstub/file.c,
 * find_file_option). The user's initrd= words are kept in
 * s->initrd_words for the stub to read (none when .initrd is embedded);
 * every word holding initrd= leaves the line, and one that holds it
 * inside (xinitrd=, a="initrd=...") is said.
 */
static void take_initrds(struct tp_stub *s)
{
	size_t pos = 0, vlen;
	const char *v;
	unsigned int named = 0;
	struct tp_buf b;

	tp_buf_init(&b, s->initrd_words, sizeof(s->initrd_words));
	while ((v = tp_cmdline_next(s->user, tp_words[TPW_INITRD].name, &pos, &vlen))) {
		named += vlen != 0;
		if (!vlen || (s->embedded && s->pl.initrd.data))
			continue;
		tp_buf_puts(&b, b.len ? " initrd=" : "initrd=");
		tp_buf_putn(&b, v, vlen);
	}
	s->initrd_dropped = tp_cmdline_drop_substr(s->user, "initrd=");
	s->initrd_taken = 1;
	if (s->initrd_dropped > named) {
		struct tp_rec *r = warn(s, "cmdline_initrd_inside", s->cmdline_from,
					"a word holds initrd= inside it (Linux's EFI stub would "
					"load that as a file): dropped");

		tp_rec_uint(r, "words", s->initrd_dropped - named);
		tp_con_emit(&s->con);
	}
}

/*
 * Linux hands init at most 31 arguments and 30 environment entries of
 * the user's and panics on one more (cmdline.h, TP_INIT_*): the words
 * past them are dropped, and said.
 */
static void cap_init_words(struct tp_stub *s)
{
	struct tp_init_cap cap;
	struct tp_rec *r;
	char m[160];
	struct tp_buf b;

	if (!tp_cmdline_cap_init(s->user, &cap))
		return;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_putu(&b, cap.args_dropped + cap.envs_dropped);
	tp_buf_puts(&b, " word(s) past what Linux hands init (31 arguments, 30 environment "
		    "entries) dropped, so the kernel does not panic");
	r = warn(s, "cmdline_init_words", s->cmdline_from, m);
	tp_rec_uint(r, "args_dropped", cap.args_dropped);
	tp_rec_uint(r, "envs_dropped", cap.envs_dropped);
	tp_rec_uint(r, "args_limit", TP_INIT_ARGS_MAX);
	tp_rec_uint(r, "envs_limit", TP_INIT_ENVS_MAX);
	tp_con_emit(&s->con);
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
		tp_buf_puts(&b, TP_KERNEL_PATH " is not an " TP_ARCH_NAME " EFI kernel: ");
		tp_buf_puts(&b, why);
		tp_con_msg(&s->con, m);
		FreePool(*buf);
		*buf = NULL;
		status = EFI_LOAD_ERROR;
		msg_status(s, "kernel_header", "bad kernel image", TP_KERNEL_PATH, status);
	}
	return status;
}

/*
 * The SHA-256 of the stub's file into the volatile variable PID 1 checks it
 * by (common/stubfile.h, TP_STUB_DIGEST_VAR): any old one deleted first
 * (UEFI 2.10, 8.2 SetVariable: size 0 deletes; a variable of other
 * attributes could not be overwritten), then set anew. A failure is a
 * stub_error after the file (not in it); PID 1 then takes no stub value.
 */
static void digest_hand_over(struct tp_stub *s)
{
	static CHAR16 name[] = L"" TP_STUB_DIGEST_VAR;
	const struct tp_guid *g = &tp_vendor_guid;
	EFI_GUID guid = { g->d1, g->d2, g->d3, { 0 } };
	uint8_t digest[TP_SHA256_LEN];
	char m[128];
	struct tp_buf b;
	EFI_STATUS status;

	for (int i = 0; i < 8; i++)
		guid.Data4[i] = g->d4[i];
	tp_sha256(s->con.kept, s->con.kept_len, digest);
	uefi_call_wrapper(RT->SetVariable, 5, name, &guid, 0, 0, NULL);
	status = uefi_call_wrapper(RT->SetVariable, 5, name, &guid, TP_STUB_DIGEST_ATTRS,
				   sizeof(digest), digest);
	if (EFI_ERROR(status)) {
		msg_status(s, "digest_variable", "cannot set the EFI variable",
			   TP_STUB_DIGEST_VAR "-" TP_VENDOR_GUID_STR, status);
		return;
	}
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "the stub's file: SHA-256 ");
	for (int i = 0; i < TP_SHA256_LEN; i++)
		tp_buf_puthex(&b, digest[i], 2);
	tp_buf_puts(&b, " in EFI variable " TP_STUB_DIGEST_VAR);
	tp_con_msg(&s->con, m);
}

/*
 * The initramfs with the stub's file appended, served to Linux through
 * LINUX_EFI_INITRD_MEDIA_GUID (initrd.c), and the file's digest handed
 * over; what fails is said, naming what.
 */
static EFI_STATUS initrd_register(struct tp_stub *s, const char *what)
{
	EFI_STATUS status = tp_initrd_compose(&s->initrd, s->con.kept, s->con.kept_len);

	if (EFI_ERROR(status)) {
		msg_status(s, "initrd_register", "cannot add the stub's records to the initramfs for",
			   what, status);
		return status;
	}
	digest_hand_over(s);
	status = tp_initrd_install(&s->initrd);
	if (EFI_ERROR(status))
		msg_status(s, "initrd_register",
			   "cannot register the initramfs as LINUX_EFI_INITRD_MEDIA_GUID for",
			   what, status);
	return status;
}

/*
 * LoadImage and LoadOptions: the kernel from buf, with our command line.
 * *kimage is the handle to unload, set even when loading failed (UEFI 2.10,
 * 7.4: on EFI_SECURITY_VIOLATION an image handle may still have been
 * created; it must be unloaded).
 */
static EFI_STATUS load_kernel(struct tp_stub *s, EFI_DEVICE_PATH *kpath, const char *name,
			      void *buf, UINTN size, EFI_HANDLE *kimage)
{
	EFI_LOADED_IMAGE *kli;
	EFI_STATUS status;

	/* UEFI 2.10, 7.4 LoadImage: a memory-to-memory load from buf */
	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, s->image, kpath, buf, size, kimage);
	if (EFI_ERROR(status)) {
		msg_status(s, "kernel_load", "LoadImage failed for", name, status);
		return status;
	}
	status = uefi_call_wrapper(BS->HandleProtocol, 3, *kimage, &LoadedImageProtocol,
				   (void **)&kli);
	if (EFI_ERROR(status)) {
		msg_status(s, "kernel_load", "no LoadedImage protocol on", name, status);
		return status;
	}
	/* UEFI 2.10, 9.1 EFI_LOADED_IMAGE_PROTOCOL: LoadOptionsSize in bytes */
	kli->LoadOptions = s->cmdline16;
	kli->LoadOptionsSize = (UINT32)((StrLen(s->cmdline16) + 1) * sizeof(CHAR16));
	return EFI_SUCCESS;
}

/* The stub_start record: the kernel about to start and how its initrd comes. */
static void say_start(struct tp_stub *s, const char *name, UINTN size,
		      const struct tp_kernel_info *ki)
{
	struct tp_rec *r = tp_con_rec(&s->con, "stub_start");

	tp_rec_str(r, "kernel", name);
	tp_rec_uint(r, "size", size);
	tp_rec_bool(r, "linux", ki->is_linux);
	tp_rec_str(r, "kernel_version", ki->version);
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
 * LoadImage, LoadOptions, StartImage. kpath is the device path the kernel's
 * LoadedImage will carry; name is what messages call it. Returns only when
 * the kernel could not start or came back.
 */
static EFI_STATUS start_kernel(struct tp_stub *s, EFI_DEVICE_PATH *kpath, const char *name,
			       void *buf, UINTN size, const struct tp_kernel_info *ki)
{
	EFI_HANDLE kimage = NULL;
	UINTN exit_size = 0;
	CHAR16 *exit_data = NULL;
	EFI_STATUS status;

	status = load_kernel(s, kpath, name, buf, size, &kimage);
	if (EFI_ERROR(status))
		goto fail;
	say_start(s, name, size, ki);
	/* last: the file holds every record, stub_start too */
	status = initrd_register(s, name);
	if (EFI_ERROR(status))
		goto fail;

	/* UEFI 2.10, 7.4 StartImage: returns only if the kernel exits */
	status = uefi_call_wrapper(BS->StartImage, 3, kimage, &exit_size, &exit_data);
	msg_status(s, "kernel_exit", "StartImage returned from", name, status);
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

/*
 * A user's initrd= file is passed on whatever it holds, but one the stub
 * cannot see to end cleanly (common/newc.h: compressed, malformed, or
 * reaching into run/timeprobe/) may hide or replace the stub's file from
 * PID 1: a stub_warning says so. The digest PID 1 checks (initrd_register)
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
	r = warn(s, c == TP_INITRD_COMPRESSED ? "initrd_compressed" : "initrd_archive", s->path, m);
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

/*
 * Every initrd= file, read whole (no cap but memory: one the firmware
 * cannot give room for is a stub_error), checked and joined into
 * s->initrd.base; the stub serves them itself (initrd_register), on both
 * architectures. *buf is freed by the caller.
 */
static EFI_STATUS initrd_read(struct tp_stub *s, void **buf)
{
	size_t pos = 0, vlen;
	const char *v;
	UINTN total = 0;
	EFI_STATUS status = EFI_SUCCESS;

	*buf = NULL;
	while ((v = tp_cmdline_next(s->initrd_words, tp_words[TPW_INITRD].name, &pos, &vlen))) {
		struct tp_buf b;
		void *one;
		UINTN size = 0;

		tp_buf_init(&b, s->path, sizeof(s->path));
		tp_buf_putn(&b, v, vlen);
		status = read_file(s, s->path, TP_NO_CAP, &one, &size);
		if (EFI_ERROR(status)) {
			msg_status(s, "initrd_read", "cannot read initramfs", s->path, status);
			break;
		}
		check_archive(s, one, size);
		status = initrd_join(buf, &total, one, size);
		FreePool(one);
		if (EFI_ERROR(status)) {
			msg_status(s, "initrd_read", "no memory for initramfs", s->path, status);
			break;
		}
	}
	s->initrd.base = *buf;
	s->initrd.base_size = total;
	return status;
}

/* File mode: \EFI\timeprobe\vmlinuz, initrd= files on the same volume. */
static EFI_STATUS boot_file(struct tp_stub *s)
{
	struct tp_kernel_info ki;
	EFI_DEVICE_PATH *kpath;
	void *kbuf = NULL, *ibuf = NULL;
	UINTN ksize = 0;
	EFI_STATUS status;

	status = read_kernel(s, &kbuf, &ksize, &ki);
	if (EFI_ERROR(status))
		return status;
	status = check_initrds(s);
	if (EFI_ERROR(status)) {
		FreePool(kbuf);
		return status;
	}
	status = initrd_read(s, &ibuf);
	if (EFI_ERROR(status)) {
		FreePool(kbuf);
		if (ibuf)
			FreePool(ibuf);
		return status;
	}
	tp_con_msg(&s->con, "starting " TP_KERNEL_PATH);
	/* the file's device path, so that the kernel's LoadedImage names our
	 * volume (Linux's EFI stub opens initrd= files on that volume) */
	kpath = FileDevicePath(s->li->DeviceHandle, L"" TP_KERNEL_PATH);
	status = start_kernel(s, kpath, TP_KERNEL_PATH, kbuf, ksize, &ki);
	tp_initrd_remove(&s->initrd);
	FreePool(kbuf);
	if (ibuf)
		FreePool(ibuf);
	if (kpath)
		FreePool(kpath);
	return status;
}

/*
 * Single-file mode: the kernel from our .linux section, the initramfs from
 * .initrd through LINUX_EFI_INITRD_MEDIA_GUID (an initrd= path cannot name
 * a file inside this image).
 */
static EFI_STATUS boot_embedded(struct tp_stub *s)
{
	struct tp_kernel_info ki;
	EFI_DEVICE_PATH *dev, *kpath = NULL;
	const char *why;
	void *ibuf = NULL;
	EFI_STATUS status;

	if (tp_kernel_check(s->pl.kernel.data, s->pl.kernel.size, &ki, &why)) {
		char m[160];
		struct tp_buf b;

		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, "the " TP_EMBEDDED_KERNEL " is not an " TP_ARCH_NAME " EFI kernel: ");
		tp_buf_puts(&b, why);
		tp_con_msg(&s->con, m);
		status = EFI_LOAD_ERROR;
		msg_status(s, "kernel_header", "bad kernel image", TP_EMBEDDED_KERNEL, status);
		return status;
	}
	if (s->pl.initrd.data) {
		s->initrd.base = s->pl.initrd.data;
		s->initrd.base_size = s->pl.initrd.size;
	} else if (s->root) {
		status = check_initrds(s);
		if (!EFI_ERROR(status))
			status = initrd_read(s, &ibuf);
		if (EFI_ERROR(status)) {
			if (ibuf)
				FreePool(ibuf);
			return status;
		}
	}
	/*
	 * The kernel's device path is ours (device + \EFI\BOOT\BOOTX64.EFI or
	 * whatever we were started as): the image it came from. LoadImage does
	 * not read it when given a buffer (UEFI 2.10, 7.4); it may be NULL.
	 */
	dev = DevicePathFromHandle(s->li->DeviceHandle);
	if (dev && s->li->FilePath)
		kpath = AppendDevicePath(dev, s->li->FilePath);
	tp_con_msg(&s->con, s->pl.initrd.data ?
		   "starting the embedded kernel with the embedded initramfs "
		   "(LINUX_EFI_INITRD_MEDIA_GUID)" : "starting the embedded kernel");
	status = start_kernel(s, kpath, TP_EMBEDDED_KERNEL, (void *)s->pl.kernel.data,
			      s->pl.kernel.size, &ki);
	tp_initrd_remove(&s->initrd);
	if (ibuf)
		FreePool(ibuf);
	if (kpath)
		FreePool(kpath);
	return status;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	uint64_t entry_tsc = tp_counter();	/* first: the boot timeline's stub entry */
	struct tp_stub *s;
	uint32_t rounds, ms;
	EFI_STATUS status;

	InitializeLib(image, st);
	/*
	 * ~45 KiB of buffers, from the pool: neither on the firmware's stack
	 * nor as zeros in the file (a static lands in .data, and in every
	 * copy of the single EFI file)
	 */
	s = AllocateZeroPool(sizeof(*s));
	if (!s) {
		Print(L"timeprobe: stub: out of memory for its %d bytes of buffers\r\n", (int)sizeof(*s));
		return EFI_OUT_OF_RESOURCES;
	}
	s->boot_tsc.entry = entry_tsc;
	s->image = image;
	s->st = st;
	tp_con_init(&s->con, st);
	tp_con_msg(&s->con, "stub " TP_STUB_VERSION);
	stub_record(s);

	status = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
				   (void **)&s->li);
	if (EFI_ERROR(status)) {
		msg_status(s, "stub_image", "no LoadedImage protocol on the stub", NULL, status);
		goto fail;
	}
	find_bootpart(s);
	find_payload(s);
	s->root = LibOpenRoot(s->li->DeviceHandle);
	if (!s->root && !s->embedded) {
		status = EFI_NOT_FOUND;
		msg_status(s, "volume_open", "cannot open the stub's own volume for", TP_KERNEL_PATH, status);
		goto fail;
	}
	if (!s->root)
		tp_con_msg(&s->con, "no file system on the boot device (network boot?): "
				    "no " TP_CMDLINE_PATH " can override the embedded line");
	load_cmdline(s);
	spcr_console(s);
	if (check_user(s))
		spcr_console(s);
	take_initrds(s);
	cap_init_words(s);
	inject_skew(s);
	rounds = stub_option(s, TPW_CALIB_ROUNDS);
	ms = stub_option(s, TPW_CALIB_MS);
	s->boot_tsc.calib_start = tp_counter();
	tp_tsc_calibrate(&s->con, st, rounds, ms, &s->tsc);
	s->boot_tsc.calibrated = tp_counter();
	preos_tscsync(s);
	s->boot_tsc.scan_start = tp_counter();
	preos_hwlat(s);
	s->boot_tsc.scanned = tp_counter();
	status = build_cmdline(s);
	if (!EFI_ERROR(status))
		status = s->embedded ? boot_embedded(s) : boot_file(s);
fail:
	tp_con_msg(&s->con, "returning to the firmware in 5 s");
	uefi_call_wrapper(BS->Stall, 1, TP_ERROR_PAUSE_US);
	return status;
}
