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
#include "file.h"
#include "ucs2.h"
#include "console.h"
#include "mp.h"
#include "pe.h"
#include "spcr.h"
#include "tsc.h"
#include "kernel.h"
#include "stub.h"

#define TP_STUB_VERSION "0.1.0"
/* How long an error stays on screen before we return to the firmware. */
#define TP_ERROR_PAUSE_US (5 * 1000 * 1000)

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
		r = tp_con_warn(&s->con, "cmdline_bad_char", what, m);
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
		r = tp_con_warn(&s->con, "cmdline_long_word", what, "a word longer than 2047 bytes dropped, "
			 "the other words kept");
		tp_rec_uint(r, "words", rep.long_words);
		tp_rec_uint(r, "word_bytes", rep.long_word_bytes);
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_con_emit(&s->con);
	}
	if (rep.cut_words) {
		r = tp_con_warn(&s->con, "cmdline_file_cut", what, "holds more than 2047 bytes of parameters: "
			 "cut at a word boundary");
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_rec_uint(r, "file_bytes", size);
		tp_rec_uint(r, "words_dropped", rep.cut_words);
		tp_con_emit(&s->con);
	}
	say_refused(s, &rep, what);
	if (rep.closed_quotes) {
		r = tp_con_warn(&s->con, "cmdline_quote_closed", what, "a line ended inside double quotes: "
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

	if (s->vol.root)
		status = tp_file_read(&s->vol, TP_CMDLINE_PATH, TP_CMDLINE_FILE_MAX, &buf, &size);
	if (!EFI_ERROR(status)) {
		if (s->embedded)
			tp_con_msg(&s->con, TP_CMDLINE_PATH " overrides the embedded command line");
		clean_user(s, buf, size, TP_CMDLINE_PATH);
		FreePool(buf);
		s->cmdline_source = "file";
		return;
	}
	if (s->embedded && s->pl.cmdline.data) {
		if (s->vol.root && status != EFI_NOT_FOUND)
			tp_con_error(&s->con, "cmdline_read", "cannot read", TP_CMDLINE_PATH, status);
		tp_con_msg(&s->con, "using the embedded command line (.cmdline section)");
		clean_user(s, s->pl.cmdline.data, s->pl.cmdline.size, ".cmdline section");
		s->cmdline_source = "embedded";
		return;
	}
	tp_con_error(&s->con, "cmdline_read", "cannot read", TP_CMDLINE_PATH, status);
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
	env->initrd_file = !embedded_initrd && !s->initrd_taken && s->vol.root &&
			   !EFI_ERROR(tp_file_exists(&s->vol, TP_INITRD_PATH, sizeof(TP_INITRD_PATH) - 1));
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
	r = tp_con_warn(&s->con, "cmdline_fallback", s->cmdline_from, m);
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
		tp_con_error(&s->con, "cmdline_handover", "the UCS-2 LoadOptions are not the line assembled for",
			   TP_KERNEL_PATH, EFI_INVALID_PARAMETER);
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
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
	r = tp_con_warn(&s->con, "cmdline_init_words", s->cmdline_from, m);
	tp_rec_uint(r, "args_dropped", cap.args_dropped);
	tp_rec_uint(r, "envs_dropped", cap.envs_dropped);
	tp_rec_uint(r, "args_limit", TP_INIT_ARGS_MAX);
	tp_rec_uint(r, "envs_limit", TP_INIT_ENVS_MAX);
	tp_con_emit(&s->con);
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
		tp_con_error(&s->con, "stub_image", "no LoadedImage protocol on the stub", NULL, status);
		goto fail;
	}
	find_bootpart(s);
	find_payload(s);
	s->vol.root = LibOpenRoot(s->li->DeviceHandle);
	if (!s->vol.root && !s->embedded) {
		status = EFI_NOT_FOUND;
		tp_con_error(&s->con, "volume_open", "cannot open the stub's own volume for", TP_KERNEL_PATH, status);
		goto fail;
	}
	if (!s->vol.root)
		tp_con_msg(&s->con, "no file system on the boot device (network boot?): "
				    "no " TP_CMDLINE_PATH " can override the embedded line");
	load_cmdline(s);
	spcr_console(s);
	if (check_user(s))
		spcr_console(s);
	tp_initrd_take(s);
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
		status = tp_kernel_boot(s);
fail:
	tp_con_msg(&s->con, "returning to the firmware in 5 s");
	uefi_call_wrapper(BS->Stall, 1, TP_ERROR_PAUSE_US);
	return status;
}
