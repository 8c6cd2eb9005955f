// SPDX-License-Identifier: MIT
/*
 * Log scanning; see scan.h. Records are found by "TP1 {" anywhere in a
 * cleaned line and accepted only when their CRC matches (common/record.c),
 * so whatever else the console printed cannot be mistaken for a figure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/record.h"
#include "scan.h"
#include "util.h"

#define ESC 0x1b
#define BEL 0x07

struct scanner {
	struct rec_list *out;
	struct scan_stats *st;
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

/* Ends in " *" and eight lowercase hex digits: a record that was complete. */
static int has_crc_tail(const char *s, size_t n)
{
	if (n < 10 || s[n - 10] != ' ' || s[n - 9] != '*')
		return 0;
	for (size_t i = n - 8; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return 0;
	return 1;
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
	struct rec *r;

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
	grow(&sc->out->v, &sc->out->cap, sc->out->n + 1, sizeof(*sc->out->v));
	r = &sc->out->v[sc->out->n++];
	r->obj = obj;
	r->type = json_string_value(type);
	r->line = line;
	sc->st->records++;
}

/* Returns 1 if s[0..n) was a record (read, or counted as unparsable), else 0. */
static int try_record(struct scanner *sc, const char *s, size_t n, size_t line)
{
	const char *json;
	long len = tp_rec_check(s, n, &json);

	if (len <= 0)
		return 0;
	add_record(sc, json, (size_t)len, line);
	return 1;
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
 * A record waits for its end: printk writes to the console whenever it
 * likes, so "TP1 {...[  1.2] random: crng init done" may be followed by the
 * rest of the record on the next line, possibly after more kernel lines.
 * Returns 1 if this line was used up.
 */
static int continue_pending(struct scanner *sc, const char *s, size_t n)
{
	if (((n && scan_is_kernel_stamp(s, n)) || !n) && !scan_find_record(s, n) &&
	    sc->pending_wait < SCAN_JOIN_LINES) {
		sc->pending_wait++;
		return 1;
	}
	sbuf_reset(&sc->join);
	sbuf_add(&sc->join, sc->pending.s, sc->pending.len);
	sbuf_add(&sc->join, s, n);
	sc->has_pending = 0;
	if (try_record(sc, sc->join.s, trim_end(sc->join.s, sc->join.len), sc->pending_line)) {
		sc->st->joined++;
		return 1;
	}
	sc->st->cut++;
	return 0;
}

static void scan_line(struct scanner *sc, const char *s, size_t n, size_t line)
{
	const char *p, *next, *end = s + n;

	if (sc->has_pending && continue_pending(sc, s, n))
		return;
	for (p = scan_find_record(s, n); p; p = next) {
		size_t len = trim_end(p, (size_t)(end - p));
		const char *stamp;

		if (try_record(sc, p, len, line))
			return;
		/* a record cut short, then another one on the same line */
		next = scan_find_record(p + 1, (size_t)(end - p - 1));
		if (next) {
			sc->st->cut++;
			continue;
		}
		stamp = find_kernel_stamp(p, len);
		if (stamp)
			set_pending(sc, p, (size_t)(stamp - p), line);
		else if (has_crc_tail(p, len))
			sc->st->bad_crc++;
		else
			set_pending(sc, p, len, line);
	}
}

void scan_buffer(const char *buf, size_t len, struct rec_list *out, struct scan_stats *st)
{
	struct scanner sc = { .out = out, .st = st };
	struct sbuf line = { 0 };
	size_t pos = 0, lineno = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		sbuf_reset(&line);
		sbuf_add(&line, buf + pos, n);
		line.len = scan_clean_line(line.s, line.len);
		scan_line(&sc, line.s, line.len, ++lineno);
		pos += n + (nl != NULL);
	}
	if (sc.has_pending)
		st->cut++;
	st->lines += lineno;
	sbuf_free(&line);
	sbuf_free(&sc.pending);
	sbuf_free(&sc.join);
}

int scan_read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct sbuf b = { 0 };
	char chunk[65536];
	size_t n;
	int err = 0;

	if (!f)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sbuf_add(&b, chunk, n);
	if (ferror(f))
		err = errno ? -errno : -EIO;
	if (f != stdin)
		fclose(f);
	if (err) {
		sbuf_free(&b);
		return err;
	}
	*len = b.len;
	*buf = sbuf_take(&b);
	return 0;
}

void rec_list_free(struct rec_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		json_decref(l->v[i].obj);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
