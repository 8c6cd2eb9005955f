// SPDX-License-Identifier: MIT
/* Values of the suite's kept records read back; see recread.h. */
#include <stdlib.h>
#include <string.h>

#include "../common/record.h"
#include "recread.h"

int recread_next(const char **pos, const char *end, struct rec_view *r)
{
	while (*pos < end) {
		const char *line = *pos, *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
		size_t vlen;
		long n;

		*pos = nl ? nl + 1 : end;
		n = tp_rec_check(line, len, &r->json);
		if (n <= 0)
			continue;
		r->len = (size_t)n;
		if (!recread_raw(r, "round", &vlen))
			return 1;
	}
	return 0;
}

/* Past the string that starts at p (its opening quote); NULL if it does not end before e. */
static const char *skip_string(const char *p, const char *e)
{
	for (p++; p < e; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* Past the value that starts at p: a string, an object or array (nested), or a scalar. */
static const char *skip_value(const char *p, const char *e)
{
	int depth = 0;

	while (p && p < e) {
		if (*p == '"') {
			p = skip_string(p, e);
			if (!depth)
				return p;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']') {
			if (!depth)
				return p;	/* the enclosing object's end: a scalar ended */
			if (!--depth)
				return p + 1;
		} else if (*p == ',' && !depth)
			return p;
		p++;
	}
	return NULL;
}

static const char *skip_blank(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/*
 * The member at *p (after '{' or a ','), into m; *p past it and its ','.
 * 1, or 0 at the object's end or where the text is no member.
 */
static int next_member(const char **p, const char *e, struct rec_member *m)
{
	const char *q = skip_blank(*p, e), *k, *kend, *v, *ve;

	if (q >= e || *q != '"')
		return 0;
	k = q + 1;
	q = skip_string(q, e);
	if (!q)
		return 0;
	kend = q - 1;
	q = skip_blank(q, e);
	if (q >= e || *q++ != ':')
		return 0;
	v = skip_blank(q, e);
	ve = skip_value(v, e);
	if (!ve || ve == v)
		return 0;
	q = skip_blank(ve, e);
	while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
		ve--;
	*m = (struct rec_member){ k, v, (size_t)(kend - k), (size_t)(ve - v) };
	*p = q < e && *q == ',' ? q + 1 : e;
	return 1;
}

/* Past the object's '{', or NULL when r is no object. */
static const char *members_start(const struct rec_view *r)
{
	const char *p = skip_blank(r->json, r->json + r->len);

	return p < r->json + r->len && *p == '{' ? p + 1 : NULL;
}

size_t recread_members(const struct rec_view *r, struct rec_member *m, size_t max)
{
	const char *p = members_start(r), *e = r->json + r->len;
	size_t n = 0;

	while (p && n < max && next_member(&p, e, &m[n]))
		n++;
	return n;
}

const char *recread_raw(const struct rec_view *r, const char *key, size_t *vlen)
{
	const char *p = members_start(r), *e = r->json + r->len;
	size_t klen = strlen(key);
	struct rec_member m;

	while (p && next_member(&p, e, &m))
		if (m.klen == klen && !memcmp(m.key, key, klen)) {
			*vlen = m.vlen;
			return m.val;
		}
	return NULL;
}

int recread_num(const struct rec_view *r, const char *key, double *v)
{
	size_t n;
	const char *s = recread_raw(r, key, &n);
	char buf[64], *end;

	if (!s || !n || n >= sizeof(buf) || !strchr("-0123456789", *s))
		return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtod(buf, &end);
	return *end == 0;
}

int recread_bool(const struct rec_view *r, const char *key, int *v)
{
	size_t n;
	const char *s = recread_raw(r, key, &n);

	if (s && n == 4 && !memcmp(s, "true", 4))
		*v = 1;
	else if (s && n == 5 && !memcmp(s, "false", 5))
		*v = 0;
	else
		return 0;
	return 1;
}

int recread_str(const struct rec_view *r, const char *key, char *out, size_t n)
{
	size_t len, o = 0;
	const char *s = recread_raw(r, key, &len);

	if (!s || len < 2 || *s != '"' || !n)
		return 0;
	for (size_t i = 1; i + 1 < len && o + 1 < n; i++) {
		if (s[i] == '\\' && i + 2 < len && strchr("\"\\/", s[i + 1]))
			i++;
		out[o++] = s[i];
	}
	out[o] = 0;
	return 1;
}

int recread_is(const struct rec_view *r, const char *key, const char *s)
{
	char buf[128];

	return recread_str(r, key, buf, sizeof(buf)) && !strcmp(buf, s);
}

/* 1 when w holds of r; *note is[]'s note that matched, when it has one. */
static int where_one(const struct rec_view *r, const struct rec_where *w, const char **note)
{
	size_t n;
	double x;

	switch (w->kind) {
	case RW_HAS:
		return recread_raw(r, w->key, &n) != NULL;
	case RW_NUM:
		return recread_num(r, w->key, &x) && x == w->num;
	case RW_IS:
		for (size_t i = 0; i < 2 && w->is[i]; i++)
			if (recread_is(r, w->key, w->is[i])) {
				if (w->note[i])
					*note = w->note[i];
				return 1;
			}
		return 0;
	default:
		return 1;
	}
}

int recread_where(const struct rec_view *r, const struct rec_where *w, size_t n,
		  const char **note)
{
	for (size_t i = 0; i < n; i++)
		if (!where_one(r, &w[i], note))
			return 0;
	return 1;
}
