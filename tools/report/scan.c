// SPDX-License-Identifier: MIT
/*
 * Log scanning; see scan.h. Records are found by "TP1 {" anywhere in a
 * cleaned line and accepted only when their CRC matches (common/record.c),
 * so whatever else the console printed cannot be mistaken for a figure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/record.h"
#include "scan.h"
#include "util.h"

#define ESC 0x1b
#define BEL 0x07

struct scanner {
	scan_fn *fn;		/* gets each record */
	void *ctx;
	struct scan_stats *st;
	struct sbuf line;	/* the line so far: at most SCAN_LINE_MAX bytes */
	size_t lineno;
	int too_long;		/* the line outgrew SCAN_LINE_MAX: skipped to its end */
	int after_cr;		/* the last line ended in CR: a LF now ends nothing */
	struct sbuf pending;	/* the first part of a record, waiting for its end */
	size_t pending_line;
	int pending_wait;	/* lines skipped while waiting */
	int has_pending;
	struct sbuf join;
};

/* Length of the escape sequence at s[0] == ESC (at least 1). */
static size_t escape_len(const unsigned char *s, size_t n)
{
	size_t i;

	if (n < 2)
		return n;
	switch (s[1]) {
	case '[':	/* CSI: parameters 0x30-0x3f, intermediates 0x20-0x2f, final 0x40-0x7e */
		for (i = 2; i < n && s[i] >= 0x20 && s[i] <= 0x3f; i++)
			;
		if (i < n && s[i] >= 0x40 && s[i] <= 0x7e)
			i++;
		return i;
	case ']':	/* OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \) */
	case 'P':
	case 'X':
	case '^':
	case '_':
		for (i = 2; i < n; i++) {
			if (s[i] == BEL)
				return i + 1;
			if (s[i] == ESC && i + 1 < n && s[i + 1] == '\\')
				return i + 2;
		}
		return n;
	case '(':	/* character set designations take one more byte */
	case ')':
	case '*':
	case '+':
		return n < 3 ? n : 3;
	default:
		return 2;
	}
}

size_t scan_clean_line(char *s, size_t n)
{
	unsigned char *u = (unsigned char *)s;
	size_t r = 0, w = 0;

	while (r < n) {
		if (u[r] == ESC) {
			r += escape_len(u + r, n - r);
			continue;
		}
		/* records hold no raw controls (the emitter escapes them) */
		if ((u[r] < 0x20 && u[r] != '\t') || u[r] == 0x7f) {
			r++;
			continue;
		}
		u[w++] = u[r++];
	}
	return w;
}

const char *scan_find_record(const char *s, size_t n)
{
	static const char tag[] = "TP1 {";
	const char *end = s + n;

	while ((size_t)(end - s) >= sizeof(tag) - 1) {
		const char *t = memchr(s, 'T', (size_t)(end - s) - (sizeof(tag) - 2));

		if (!t)
			return NULL;
		if (!memcmp(t, tag, sizeof(tag) - 1))
			return t;
		s = t + 1;
	}
	return NULL;
}

int scan_is_kernel_stamp(const char *s, size_t n)
{
	size_t i = 1, d;

	if (n < 4 || s[0] != '[')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || i >= n || s[i] != '.')
		return 0;
	for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	return i > d && i < n && s[i] == ']';
}

/* The first kernel timestamp in s[0..n), or NULL. */
static const char *find_kernel_stamp(const char *s, size_t n)
{
	const char *end = s + n, *p = s;

	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		if (scan_is_kernel_stamp(p, (size_t)(end - p)))
			return p;
		p++;
	}
	return NULL;
}

#define TAG "TP1 {"
#define TAG_LEN 5

/* Ends in a CRC tail (tp_rec_tail) of either case: a record that was complete. */
static int ends_in_tail(const char *s, size_t n)
{
	uint32_t crc;

	return n >= TP_REC_TAIL_LEN && tp_rec_tail(s + n - TP_REC_TAIL_LEN, TP_REC_TAIL_LEN, &crc);
}

static size_t trim_end(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

static void add_record(struct scanner *sc, const char *json, size_t n, size_t line)
{
	json_error_t err;
	json_t *obj, *type;

	obj = json_loadb(json, n, 0, &err);
	/* jansson refuses integers beyond int64_t; a uint64_t figure is still a figure */
	if (!obj)
		obj = json_loadb(json, n, JSON_DECODE_INT_AS_REAL, &err);
	type = json_object_get(obj, "type");
	if (!json_is_object(obj) || !json_is_string(type)) {
		json_decref(obj);
		sc->st->unparsable++;
		return;
	}
	sc->st->records++;
	sc->fn(sc->ctx, &(struct rec){ obj, json_string_value(type), line });
}

/*
 * The record that starts at the tag s[at]: its JSON runs to the first CRC
 * tail whose value is the CRC of the bytes before it, outside a JSON string.
 * One pass with a running CRC, which stops at the next tag outside a string
 * (a record may end at the " *xxxxxxxx" just before the next "TP1 {") or
 * where a record would grow longer than TP_REC_LINE_MAX, so a line is read
 * a bounded number of times. Returns the offset just after the record
 * (read, or counted as not a JSON object), or 0 if there is none.
 */
static size_t try_record(struct scanner *sc, const char *s, size_t n, size_t at, size_t line)
{
	/* the last tail that fits begins at at + TP_REC_LINE_MAX - TP_REC_TAIL_LEN */
	size_t json = at + 4, done = json, room = TP_REC_LINE_MAX - TP_REC_TAIL_LEN + 1;
	size_t limit = n - at > room ? at + room : n;
	uint32_t crc = 0, want;
	int in_str = 0, esc = 0;

	for (size_t i = json; i < limit; i++) {
		char c = s[i];

		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == ' ' && tp_rec_tail(s + i, n - i, &want) == 1) {
			crc = tp_crc32(crc, s + done, i - done);
			done = i;
			if (crc == want) {
				add_record(sc, s + json, i - json, line);
				return i + TP_REC_TAIL_LEN;
			}
		} else if (c == 'T' && i + TAG_LEN <= n && !memcmp(s + i, TAG, TAG_LEN)) {
			break;
		}
	}
	return 0;
}

static void set_pending(struct scanner *sc, const char *s, size_t n, size_t line)
{
	sbuf_reset(&sc->pending);
	sbuf_add(&sc->pending, s, n);
	sc->pending_line = line;
	sc->pending_wait = 0;
	sc->has_pending = 1;
}

/*
 * Text outside any record: a CRC tail after a '{' there is a record whose
 * "TP1 {" tag was damaged ("TP! {", "T\0P1 {", lost bytes); count it.
 */
static void other_text(struct scanner *sc, const char *s, size_t n)
{
	int brace = 0;
	uint32_t crc;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '{')
			brace = 1;
		else if (brace && s[i] == ' ' && tp_rec_tail(s + i, n - i, &crc)) {
			sc->st->damaged_tag++;
			brace = 0;
			i += TP_REC_TAIL_LEN - 1;
		}
	}
}

/*
 * A complete record rec[0..len) (it ends in a CRC tail) that was not read:
 * longer than any the emitter writes, or its CRC does not match.
 */
static void refused(struct scanner *sc, const char *rec, size_t len)
{
	const char *json;

	if (tp_rec_check(rec, len, &json) == -2)
		sc->st->too_long++;
	else
		sc->st->bad_crc++;
}

/*
 * A tag at s[at] that starts no record: what became of it. Another tag on
 * the line: it was cut short (or complete with a bad CRC). The last one:
 * a kernel message may have split it, so it waits for its end.
 * Returns where to go on.
 */
static size_t failed_tag(struct scanner *sc, const char *s, size_t n, size_t at, size_t line)
{
	const char *p = s + at, *next = scan_find_record(p + 1, n - at - 1);
	size_t len = trim_end(p, next ? (size_t)(next - p) : n - at);
	const char *stamp;

	if (next) {
		if (ends_in_tail(p, len))
			refused(sc, p, len);
		else
			sc->st->cut++;
		return (size_t)(next - s);
	}
	stamp = find_kernel_stamp(p, len);
	if (stamp)
		len = trim_end(p, (size_t)(stamp - p));
	if (ends_in_tail(p, len))
		refused(sc, p, len);
	else
		set_pending(sc, p, len, line);
	return n;
}

/* Every record of s[from..n), and whatever damage lies between them. */
static void scan_from(struct scanner *sc, const char *s, size_t n, size_t from, size_t line)
{
	size_t pos = from;

	while (pos < n) {
		const char *p = scan_find_record(s + pos, n - pos);
		size_t at, end;

		other_text(sc, s + pos, (size_t)((p ? p : s + n) - (s + pos)));
		if (!p)
			return;
		at = (size_t)(p - s);
		end = try_record(sc, s, n, at, line);
		pos = end ? end : failed_tag(sc, s, n, at, line);
	}
}

/*
 * A record waits for its end: printk writes to the console whenever it
 * likes, so "TP1 {...[  1.2] random: crng init done" may be followed by the
 * rest of the record on the next line, possibly after more kernel lines.
 * Returns where the rest of this line is to be scanned from (n: used up).
 */
static size_t continue_pending(struct scanner *sc, const char *s, size_t n)
{
	size_t end, plen = sc->pending.len;

	if (!n && !scan_find_record(s, n))
		return n;	/* blank lines ("\r\r\n") cost nothing */
	if (scan_is_kernel_stamp(s, n) && !scan_find_record(s, n) &&
	    sc->pending_wait < SCAN_JOIN_LINES) {
		sc->pending_wait++;
		return n;
	}
	sbuf_reset(&sc->join);
	sbuf_add(&sc->join, sc->pending.s, plen);
	sbuf_add(&sc->join, s, n);
	sc->has_pending = 0;
	end = try_record(sc, sc->join.s, sc->join.len, 0, sc->pending_line);
	if (end > plen) {
		sc->st->joined++;
		return end - plen;
	}
	/*
	 * The two do not make a record. Text ending in a CRC is the rest of this
	 * one, with a bad CRC, unless it begins a record of its own whose tag
	 * was damaged: then the waiting one was cut short.
	 */
	end = (size_t)((scan_find_record(s, n) ? scan_find_record(s, n) : s + n) - s);
	if (ends_in_tail(s, trim_end(s, end)) && !memmem(s, end, "{\"type\":", 8)) {
		refused(sc, sc->join.s, plen + trim_end(s, end));
		return end;
	}
	sc->st->cut++;
	return 0;
}

static void scan_line(struct scanner *sc, const char *s, size_t n, size_t line)
{
	size_t from = 0;

	if (sc->has_pending)
		from = continue_pending(sc, s, n);
	scan_from(sc, s, n, from, line);
}

struct scanner *scan_open(scan_fn *fn, void *ctx, struct scan_stats *st)
{
	struct scanner *sc = xcalloc(1, sizeof(*sc));

	sc->fn = fn;
	sc->ctx = ctx;
	sc->st = st;
	return sc;
}

/* The line is complete: scanned, or counted when it was too long to keep. */
static void end_line(struct scanner *sc)
{
	sc->lineno++;
	if (sc->too_long) {
		sc->st->long_lines++;
		sc->too_long = 0;
		/* what waited for its end will not find it there */
		if (sc->has_pending) {
			sc->has_pending = 0;
			sc->st->cut++;
		}
	} else {
		sc->line.len = scan_clean_line(sc->line.s, sc->line.len);
		scan_line(sc, sc->line.s, sc->line.len, sc->lineno);
	}
	sbuf_reset(&sc->line);
}

static void add_to_line(struct scanner *sc, const char *s, size_t n)
{
	if (sc->too_long)
		return;
	if (sc->line.len + n > SCAN_LINE_MAX) {
		sc->too_long = 1;
		sbuf_reset(&sc->line);
		return;
	}
	sbuf_add(&sc->line, s, n);
}

void scan_feed(struct scanner *sc, const char *buf, size_t len)
{
	while (len) {
		size_t n = 0;

		if (sc->after_cr) {
			sc->after_cr = 0;
			/* CR LF ends one line, not two */
			if (*buf == '\n') {
				buf++;
				len--;
				continue;
			}
		}
		while (n < len && buf[n] != '\n' && buf[n] != '\r')
			n++;
		add_to_line(sc, buf, n);
		if (n == len)
			return;
		end_line(sc);
		sc->after_cr = buf[n] == '\r';
		buf += n + 1;
		len -= n + 1;
	}
}

void scan_close(struct scanner *sc)
{
	/* a reader that stopped (full) left the rest unread, not cut */
	if (!sc->st->full && (sc->line.len || sc->too_long))
		end_line(sc);
	if (sc->has_pending && !sc->st->full)
		sc->st->cut++;
	sc->st->lines += sc->lineno;
	sbuf_free(&sc->line);
	sbuf_free(&sc->pending);
	sbuf_free(&sc->join);
	free(sc);
}

static void to_list(void *ctx, const struct rec *r)
{
	struct rec_list *out = ctx;

	grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = *r;
}

void scan_buffer(const char *buf, size_t len, struct rec_list *out, struct scan_stats *st)
{
	struct scanner *sc = scan_open(to_list, out, st);

	scan_feed(sc, buf, len);
	scan_close(sc);
}

int scan_file(const char *path, unsigned long long max_bytes, scan_fn *fn, void *ctx,
	      struct scan_stats *st)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	unsigned long long got = 0;
	struct scanner *sc;
	char chunk[65536];
	size_t n;
	int err = 0;

	if (!f)
		return -errno;
	sc = scan_open(fn, ctx, st);
	while (got < max_bytes && !st->full) {
		size_t want = max_bytes - got < sizeof(chunk) ? (size_t)(max_bytes - got) : sizeof(chunk);

		n = fread(chunk, 1, want, f);
		if (!n)
			break;
		got += n;
		scan_feed(sc, chunk, n);
	}
	st->bytes += got;
	/* at the limit: was there more? */
	if (got >= max_bytes && !ferror(f) && getc(f) != EOF)
		st->capped = 1;
	if (ferror(f))
		err = errno ? -errno : -EIO;
	scan_close(sc);
	if (f != stdin)
		fclose(f);
	return err;
}

void rec_list_free(struct rec_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		json_decref(l->v[i].obj);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
