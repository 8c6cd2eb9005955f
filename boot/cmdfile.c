// SPDX-License-Identifier: MIT
/* cmdline.txt to one clean line; see cmdfile.h and docs/stub.md. EFI-free. */
#include "cmdfile.h"
#include "../common/buf.h"

/* Pairs looked at to tell UTF-16 from 8-bit text. */
#define SNIFF_PAIRS 256

static int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
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

static void word_byte(struct cleaner *c, unsigned char ch)
{
	if (!c->in_word) {
		c->in_word = 1;
		c->word_len = 0;
		c->word_start = c->out.len;
		c->skipping = c->full;
		if (!c->skipping && c->pending_space)
			tp_buf_putc(&c->out, ' ');
		c->pending_space = 0;
	}
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

static void clean_byte(struct cleaner *c, unsigned char ch)
{
	/* controls count as blanks: collapsed outside quotes, kept as ' ' inside */
	int blank = is_blank(ch) || ch < 0x20 || ch == 0x7f;

	if (ch == '\n') {
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
	if (!c->in_quotes && blank) {
		end_word(c);
		c->pending_space = c->out.len != 0;
		return;
	}
	word_byte(c, blank ? ' ' : ch);
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

static void clean_utf16(struct cleaner *c, const uint8_t *p, size_t n, int be, size_t start)
{
	for (size_t i = start; i + 1 < n; i += 2) {
		uint32_t u = be ? (uint32_t)(p[i] << 8 | p[i + 1]) : (uint32_t)(p[i] | p[i + 1] << 8);

		if (u == 0)
			break;
		/* a kernel parameter has no use for characters outside the BMP */
		clean_cp(c, u >= 0xd800 && u < 0xe000 ? 0xfffd : u);
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
		for (size_t i = c.rep->bom ? 3 : 0; i < in_len && p[i]; i++)
			clean_byte(&c, p[i]);
	}
	close_quote(&c);
	end_word(&c);
	c.rep->len = c.out.len;
	return c.out.len;
}
