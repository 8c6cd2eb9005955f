// SPDX-License-Identifier: MIT
/* cmdline.txt to one clean line; see cmdfile.h and docs/stub.md. EFI-free. */
#include "cmdfile.h"
#include "cmdline.h"
#include "../common/buf.h"
#include "../common/words.h"

/* Pairs looked at to tell UTF-16 from 8-bit text. */
#define SNIFF_PAIRS 256

/* Linux's blanks (common/words.h) within a line; LF and CR end one (clean_byte). */
static int is_blank(unsigned char c)
{
	return tp_line_blank((char)c) && c != '\n' && c != '\r';
}

const char *tp_encoding_name(enum tp_encoding e)
{
	return e == TP_ENC_UTF16LE ? "UTF-16LE" : e == TP_ENC_UTF16BE ? "UTF-16BE" : "UTF-8";
}

/*
 * Without a BOM (Unicode 15, 3.10 D98, D99), UTF-16 text in a Latin script
 * has a NUL in every other byte: the high byte of each unit, odd offsets in
 * LE, even ones in BE. UTF-8 and ASCII have none (a NUL ends the file for
 * the cleaner). Most pairs of the first SNIFF_PAIRS having the NUL on one
 * side, and none on the other, decides it.
 */
enum tp_encoding tp_cmdfile_encoding(const uint8_t *p, size_t n, int *bom)
{
	size_t pairs = n / 2 < SNIFF_PAIRS ? n / 2 : SNIFF_PAIRS, le = 0, be = 0;

	*bom = 1;
	if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
		return TP_ENC_UTF16LE;
	if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
		return TP_ENC_UTF16BE;
	*bom = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf;
	for (size_t i = 0; i < pairs; i++) {
		le += p[2 * i] && !p[2 * i + 1];
		be += !p[2 * i] && p[2 * i + 1];
	}
	if (pairs && le * 2 > pairs && !be)
		return TP_ENC_UTF16LE;
	if (pairs && be * 2 > pairs && !le)
		return TP_ENC_UTF16BE;
	return TP_ENC_UTF8;
}

/*
 * The cleaner reads the input as a stream of bytes (UTF-16 is first turned
 * into UTF-8 one unit at a time) and keeps a little state: where the current
 * line and word started, whether the line is a comment, whether we are in
 * quotes, whether the current word still fits.
 */
struct cleaner {
	struct tp_buf out;
	struct tp_clean_report *rep;
	size_t word_start;	/* out.len before the current word's separator */
	size_t word_len;	/* bytes of the current word, stored or not */
	int in_word;
	int bad;		/* the current word holds a refused character: dropped */
	int skipping;		/* the current word does not fit: not stored */
	int full;		/* a word that fits alone did not: the line ends */
	int at_line_start;	/* nothing but blanks seen on this line */
	int in_comment;
	int in_quotes;
	int pending_space;	/* a separator is due before the next word */
};

static void end_word(struct cleaner *c)
{
	if (!c->in_word)
		return;
	c->in_word = 0;
	if (c->bad) {
		/* take the word back out, separator and all */
		c->bad = 0;
		c->rep->bad_words++;
		if (!c->skipping) {
			c->out.len = c->word_start;
			c->out.s[c->out.len] = 0;
		}
		return;
	}
	if (!c->skipping)
		return;
	if (c->word_len > c->out.cap - 1) {
		if (!c->rep->long_words++)
			c->rep->long_word_bytes = c->word_len;
	} else {
		c->full = 1;
		c->rep->cut_words++;
	}
}

static void begin_word(struct cleaner *c)
{
	if (c->in_word)
		return;
	c->in_word = 1;
	c->word_len = 0;
	c->word_start = c->out.len;
	c->skipping = c->full;
	if (!c->skipping && c->pending_space)
		tp_buf_putc(&c->out, ' ');
	c->pending_space = 0;
}

static void word_byte(struct cleaner *c, unsigned char ch)
{
	begin_word(c);
	c->word_len++;
	if (ch == '"')
		c->in_quotes = !c->in_quotes;
	if (c->skipping)
		return;
	tp_buf_putc(&c->out, (char)ch);
	if (c->out.overflow) {
		/* take the word back out, separator and all */
		c->skipping = 1;
		c->out.overflow = 0;
		c->out.len = c->word_start;
		c->out.s[c->out.len] = 0;
	}
}

/*
 * A line that ends inside double quotes would make the kernel read every
 * later word, the stub's among them, as part of this one: close the quote
 * where the line ends. A word that no longer fits with it is dropped whole.
 */
static void close_quote(struct cleaner *c)
{
	if (!c->in_quotes)
		return;
	word_byte(c, '"');	/* and in_quotes is 0 again */
	if (!c->skipping)
		c->rep->closed_quotes++;
}

/*
 * A refused character at byte offset at of the file: the word it is part of
 * (or starts) is dropped at its end; a comment line drops it anyway.
 */
static void refuse(struct cleaner *c, size_t at, const char *why)
{
	struct tp_clean_report *r = c->rep;

	if (c->in_comment)
		return;
	c->at_line_start = 0;
	begin_word(c);
	c->bad = 1;
	r->refused++;
	if (r->n_bad < TP_CLEAN_BAD_MAX) {
		r->bad[r->n_bad].offset = at;
		r->bad[r->n_bad].why = why;
		r->n_bad++;
	}
}

/*
 * Byte 0xA0 outside quotes: the last byte of U+00A0 (C2 A0), of `Р` (D0 A0)
 * and others, and a blank to Linux, which ends its word there (lib/ctype.c).
 * It ends the cleaner's word too, so a dropped word is Linux's word, and
 * stays as it is: a space would leave the character's first byte alone.
 * Not at the start of the line; tp_cmdline_clean() repairs a byte left
 * alone by a dropped word (tp_cmdline_utf8_repair()).
 */
static void sep_a0(struct cleaner *c)
{
	end_word(c);
	if (!c->out.len || c->full)
		return;
	tp_buf_putc(&c->out, (char)0xa0);
	if (c->out.overflow) {
		c->out.overflow = 0;
		c->out.s[--c->out.len] = 0;
	}
	c->pending_space = 0;
}

/* Controls a line may hold: tab, newline, VT, FF, CR (blanks to the cleaner). */
static int refused_control(uint32_t cp)
{
	if (cp == '\t' || cp == '\n' || cp == '\v' || cp == '\f' || cp == '\r')
		return 0;
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

static void clean_byte(struct cleaner *c, unsigned char ch)
{
	int blank = is_blank(ch);

	/* LF, CRLF and CR alone each end a line (a CR-only file has comment lines too) */
	if (ch == '\n' || ch == '\r') {
		close_quote(c);
		end_word(c);
		c->at_line_start = 1;
		c->in_comment = 0;
		c->pending_space = c->out.len != 0;
		return;
	}
	if (c->in_comment || (c->at_line_start && blank))
		return;
	if (c->at_line_start && ch == '#') {
		c->in_comment = 1;
		return;
	}
	c->at_line_start = 0;
	if (!c->in_quotes && ch == 0xa0) {
		sep_a0(c);
		return;
	}
	if (!c->in_quotes && blank) {
		end_word(c);
		c->pending_space = c->out.len != 0;
		return;
	}
	word_byte(c, blank && ch != 0xa0 ? ' ' : ch);
}

/* One code point as UTF-8, through the cleaner. */
static void clean_cp(struct cleaner *c, uint32_t cp)
{
	if (cp < 0x80) {
		clean_byte(c, (unsigned char)cp);
	} else if (cp < 0x800) {
		clean_byte(c, (unsigned char)(0xc0 | cp >> 6));
		clean_byte(c, (unsigned char)(0x80 | (cp & 0x3f)));
	} else {
		clean_byte(c, (unsigned char)(0xe0 | cp >> 12));
		clean_byte(c, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
		clean_byte(c, (unsigned char)(0x80 | (cp & 0x3f)));
	}
}

static uint32_t unit16(const uint8_t *p, int be)
{
	return be ? (uint32_t)(p[0] << 8 | p[1]) : (uint32_t)(p[0] | p[1] << 8);
}

static void clean_utf16(struct cleaner *c, const uint8_t *p, size_t n, int be, size_t start)
{
	for (size_t i = start; i + 1 < n; i += 2) {
		uint32_t u = unit16(p + i, be);

		if (u == 0)
			refuse(c, i, "U+0000");
		else if (u >= 0xd800 && u < 0xdc00 && i + 3 < n &&
		    unit16(p + i + 2, be) >= 0xdc00 && unit16(p + i + 2, be) < 0xe000) {
			refuse(c, i, "outside the BMP (LoadOptions are UCS-2)");
			i += 2;
		} else if (u >= 0xd800 && u < 0xe000) {
			refuse(c, i, "lone surrogate");
		} else if (refused_control(u)) {
			refuse(c, i, "control character");
		} else {
			clean_cp(c, u);
		}
	}
}

/*
 * Length of the well-formed UTF-8 sequence at p[0..n) (Unicode 15, Table
 * 3-7), or 0 with *why; *skip is how many bytes a refused one spans.
 */
static size_t utf8_seq(const uint8_t *p, size_t n, const char **why, size_t *skip)
{
	uint8_t b = p[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	*why = 0;
	len = b < 0xc0 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : b < 0xf8 ? 4 : 1;
	if (b >= 0x80 && b < 0xc0)
		*why = "stray continuation byte";
	else if (b == 0xc0 || b == 0xc1)
		*why = "overlong form";
	else if (b >= 0xf5)
		*why = "not a UTF-8 byte";
	if (b == 0xe0)
		lo = 0xa0;		/* below: overlong */
	else if (b == 0xed)
		hi = 0x9f;		/* above: a surrogate */
	else if (b == 0xf0)
		lo = 0x90;
	else if (b == 0xf4)
		hi = 0x8f;		/* above: beyond U+10FFFF */
	for (i = 1; i < len && i < n && p[i] >= 0x80 && p[i] < 0xc0; i++)
		if (!*why && i == 1 && (p[i] < lo || p[i] > hi))
			*why = b == 0xed ? "surrogate" : b == 0xf4 ? "beyond U+10FFFF" : "overlong form";
	*skip = i;
	if (!*why && i < len)
		*why = "truncated sequence";
	if (!*why && len == 4)
		*why = "outside the BMP (LoadOptions are UCS-2)";
	return *why ? 0 : len;
}

static void clean_utf8(struct cleaner *c, const uint8_t *p, size_t n, size_t start)
{
	for (size_t i = start; i < n;) {
		const char *why = 0;
		size_t skip, len = utf8_seq(p + i, n - i, &why, &skip);

		if (!len) {
			refuse(c, i, why);
			i += skip;
			continue;
		}
		/* a NUL drops its word, not the rest of the file */
		if (p[i] == 0)
			why = "U+0000";
		else if (refused_control(p[i]) ||
			 (len == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0))
			why = "control character";
		if (why) {
			refuse(c, i, why);
		} else {
			for (size_t k = 0; k < len; k++)
				clean_byte(c, p[i + k]);
		}
		i += len;
	}
}

size_t tp_cmdline_clean(char *out, size_t cap, const void *in, size_t in_len,
			struct tp_clean_report *rep)
{
	const uint8_t *p = in;
	struct tp_clean_report spare;
	struct cleaner c = { .at_line_start = 1 };

	c.rep = rep ? rep : &spare;
	*c.rep = (struct tp_clean_report){ 0 };
	tp_buf_init(&c.out, out, cap);
	if (cap < 2)
		return 0;
	c.rep->encoding = tp_cmdfile_encoding(p, in_len, &c.rep->bom);
	if (c.rep->encoding != TP_ENC_UTF8) {
		clean_utf16(&c, p, in_len, c.rep->encoding == TP_ENC_UTF16BE, c.rep->bom ? 2 : 0);
	} else {
		clean_utf8(&c, p, in_len, c.rep->bom ? 3 : 0);
	}
	close_quote(&c);
	end_word(&c);
	tp_cmdline_utf8_repair(c.out.s);
	c.rep->len = c.out.len;
	return c.out.len;
}
