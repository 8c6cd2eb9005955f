// SPDX-License-Identifier: MIT
/* The user's words from their source; see cmdload.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "cmdload.h"
#include "efitext.h"
#include "stub.h"

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

/* A source not in UTF-8 was decoded: said, with whether a byte-order mark said so. */
static void say_decoded(struct tp_stub *s, const struct tp_clean_report *rep, const char *what)
{
	char m[200];
	struct tp_buf b;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, what);
	tp_buf_puts(&b, rep->bom ? " is " : " looks like ");
	tp_buf_puts(&b, tp_encoding_name(rep->encoding));
	tp_buf_puts(&b, rep->bom ? " (byte-order mark): decoded" : " (no byte-order mark): decoded");
	tp_con_msg(&s->con, m);
}

/* Cleans a command line source into s->user and says what it dropped. */
static void clean_user(struct tp_stub *s, const void *text, size_t size, const char *what)
{
	struct tp_clean_report rep;
	struct tp_rec *r;

	tp_cmdline_clean(s->user, sizeof(s->user), text, size, &rep);
	s->cmdline_from = what;
	s->user_empty = rep.len == 0;
	if (rep.encoding != TP_ENC_UTF8)
		say_decoded(s, &rep, what);
	if (rep.long_words) {
		r = tp_con_warn(&s->con, "cmdline_long_word", what, "a word longer than " TP_STR(TP_CMDLINE_MAX) " bytes dropped, "
			 "the other words kept");
		tp_rec_uint(r, "words", rep.long_words);
		tp_rec_uint(r, "word_bytes", rep.long_word_bytes);
		tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
		tp_con_emit(&s->con);
	}
	if (rep.cut_words) {
		r = tp_con_warn(&s->con, "cmdline_file_cut", what, "holds more than " TP_STR(TP_CMDLINE_MAX) " bytes of parameters: "
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
void tp_cmd_load(struct tp_stub *s)
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
