// SPDX-License-Identifier: MIT
/*
 * LAVA monitor lines; see lavamon.h. The record is our own emitter's
 * (common/record.c), its CRC checked, but read as any text: a top-level
 * scan of the JSON object (recread.c) that never reads past the line and takes only
 * keys the probe declares and values that are JSON numbers.
 */
#include <fnmatch.h>
#include <string.h>

#include "../common/buf.h"
#include "../common/record.h"
#include "lavamon.h"
#include "probe.h"
#include "recread.h"

static const struct rec_member *find(const struct rec_member *m, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].klen == strlen(key) && !memcmp(m[i].key, key, m[i].klen))
			return &m[i];
	return NULL;
}

/* Is s[0..n) a JSON number (what a record's figure is; null is not)? */
static int is_number(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789+-.eE", s[i]) || !s[i])
			return 0;
	return 1;
}

/* The probe's declaration of a key: exact names first, then patterns (as tp-report). */
static const struct probe_key *declared(const struct probe *p, const char *key)
{
	for (size_t i = 0; i < p->n_keys; i++)
		if (!strcmp(p->keys[i].name, key))
			return &p->keys[i];
	for (size_t i = 0; i < p->n_keys; i++)
		if (!fnmatch(p->keys[i].name, key, 0))
			return &p->keys[i];
	return NULL;
}

/* Appends s[0..n) as a case part: runs of other bytes than [A-Za-z0-9_-] become one '_'. */
static void add_part(struct tp_buf *b, const char *s, size_t n)
{
	int gap = 0;

	tp_buf_puts(b, ".");
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-') {
			if (gap)
				tp_buf_puts(b, "_");
			tp_buf_putc(b, c);
			gap = 0;
		} else {
			gap = 1;
		}
	}
}

/* The result part of a figure's case: probe.name[.identity...], cut where b ends. */
static void case_result(struct tp_buf *b, const struct probe *p, const struct rec_member *m, size_t n)
{
	const struct rec_member *name = find(m, n, "name");

	tp_buf_puts(b, p->name);
	if (name && name->vlen >= 2 && name->val[0] == '"')
		add_part(b, name->val + 1, name->vlen - 2);
	for (size_t i = 0; i < n; i++) {
		char key[64];
		const struct probe_key *d;

		if (m[i].klen >= sizeof(key) || m[i].vlen < 2 || m[i].val[0] != '"')
			continue;
		memcpy(key, m[i].key, m[i].klen);
		key[m[i].klen] = 0;
		d = declared(p, key);
		if (d && d->cls == PK_ID)
			add_part(b, m[i].val + 1, m[i].vlen - 2);
	}
}

/* One line for member fig when it is a declared figure with a number; returns 1 if put. */
static int figure_line(const struct probe *p, const struct rec_member *m, size_t n,
		       const struct rec_member *fig, void (*put)(const char *line, size_t len))
{
	/* the result part is cut to fit; the key, value and unit never are */
	char key[64], out[LAVAMON_LINE_MAX], result[LAVAMON_LINE_MAX - 160];
	const struct probe_key *d;
	struct tp_buf b;

	if (fig->klen >= sizeof(key) || !is_number(fig->val, fig->vlen) || fig->vlen > 32)
		return 0;
	memcpy(key, fig->key, fig->klen);
	key[fig->klen] = 0;
	d = declared(p, key);
	if (!d || d->cls != PK_FIGURE)
		return 0;
	tp_buf_init(&b, result, sizeof(result));
	case_result(&b, p, m, n);
	tp_buf_init(&b, out, sizeof(out));
	tp_buf_puts(&b, LAVAMON_TAG " ");
	tp_buf_puts(&b, result);
	add_part(&b, fig->key, fig->klen);
	tp_buf_puts(&b, " ");
	tp_buf_putn(&b, fig->val, fig->vlen);
	tp_buf_puts(&b, " ");
	tp_buf_puts(&b, d->unit ? d->unit : "none");
	tp_buf_puts(&b, "\n");
	if (b.overflow)
		return 0;
	put(out, b.len);
	return 1;
}

size_t lavamon_lines(const char *line, size_t len, void (*put)(const char *line, size_t len))
{
	struct rec_member m[128];
	const struct rec_member *type, *probe;
	const struct probe *p;
	const char *json;
	struct rec_view view;
	char name[48];
	long jlen;
	size_t n, lines = 0;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	jlen = tp_rec_check(line, len, &json);
	if (jlen <= 0)
		return 0;
	view = (struct rec_view){ json, (size_t)jlen };
	n = recread_members(&view, m, sizeof(m) / sizeof(m[0]));
	type = find(m, n, "type");
	probe = find(m, n, "probe");
	/* a round's result (docs/records.md, "Rounds"): the run's record follows */
	if (!type || !tp_streqn(type->val, type->vlen, "\"result\"") || !probe || find(m, n, "round") ||
	    probe->vlen < 3 || probe->vlen - 2 >= sizeof(name))
		return 0;
	memcpy(name, probe->val + 1, probe->vlen - 2);
	name[probe->vlen - 2] = 0;
	p = probe_find(name);
	if (!p || !p->keys)
		return 0;
	for (size_t i = 0; i < n; i++)
		lines += figure_line(p, m, n, &m[i], put);
	return lines;
}
