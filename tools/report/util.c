// SPDX-License-Identifier: MIT
/* Helpers for tp-report; see util.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void out_of_memory(size_t n)
{
	fprintf(stderr, "report: out of memory (%zu bytes)\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	b.s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(b.s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return b.s;
}

void grow(void *v, size_t *cap, size_t need, size_t size)
{
	void **pv = v;
	size_t c = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	*pv = xrealloc(*pv, c * size);
	*cap = c;
}

void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	grow(&b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sbuf_adds(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

void sbuf_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	grow(&b->s, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sbuf_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = 0;
}

void sbuf_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

char *sbuf_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void group_strings(const char *const *s, size_t n, struct groups *g)
{
	json_t *group_of = json_object();
	size_t *group = xcalloc(n, sizeof(*group)), *at;

	for (size_t i = 0; i < n; i++) {
		json_t *k = json_object_get(group_of, s[i]);

		if (!k) {
			k = json_integer((json_int_t)json_object_size(group_of));
			/* any bytes: a label may come from a file name */
			json_object_set_new_nocheck(group_of, s[i], k);
		}
		group[i] = (size_t)json_integer_value(k);
	}
	g->n = json_object_size(group_of);
	json_decref(group_of);
	/* a counting sort: the groups' sizes, where each begins, then the indices */
	g->start = xcalloc(g->n + 1, sizeof(*g->start));
	at = xcalloc(g->n + 1, sizeof(*at));
	for (size_t i = 0; i < n; i++)
		g->start[group[i] + 1]++;
	for (size_t k = 0; k < g->n; k++)
		at[k + 1] = g->start[k + 1] += g->start[k];
	g->idx = xcalloc(n, sizeof(*g->idx));
	for (size_t i = 0; i < n; i++)
		g->idx[at[group[i]]++] = i;
	free(at);
	free(group);
}

void groups_free(struct groups *g)
{
	free(g->idx);
	free(g->start);
	memset(g, 0, sizeof(*g));
}

double json_num(const json_t *v)
{
	if (json_is_integer(v))
		return (double)json_integer_value(v);
	if (json_is_real(v))
		return json_real_value(v);
	return NAN;
}

void fmt_num(char *buf, size_t n, double v)
{
	double mag = fabs(v);
	int decimals;
	char *dot, *end;

	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return;
	}
	if (mag < 1e15 && v == floor(v)) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	if (mag >= 1e15 || mag < 1e-6) {
		snprintf(buf, n, "%.4g", v);
		return;
	}
	/* five significant digits, at least one decimal */
	decimals = 4 - (int)floor(log10(mag));
	if (decimals < 1)
		decimals = 1;
	if (decimals > 10)
		decimals = 10;
	snprintf(buf, n, "%.*f", decimals, v);
	dot = strchr(buf, '.');
	if (!dot)
		return;
	end = buf + strlen(buf);
	while (end > dot + 1 && end[-1] == '0')
		*--end = 0;
	if (end == dot + 1)
		*dot = 0;
	/* "-0" from rounding a tiny negative value reads as a different number */
	if (!strcmp(buf, "-0"))
		snprintf(buf, n, "0");
}

void fmt_ratio(char *buf, size_t n, double num, double den)
{
	double r;

	if (!isfinite(num) || !isfinite(den) || den == 0) {
		snprintf(buf, n, num == den ? "1.00x" : "-");
		return;
	}
	r = num / den;
	if (fabs(r) >= 100)
		snprintf(buf, n, "%.0fx", r);
	else
		snprintf(buf, n, "%.2fx", r);
}

void sbuf_add_visible(struct sbuf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u; u++) {
		if (*u == '\t' || *u == '\n' || *u == '\r')
			sbuf_addf(b, "\\%c", *u == '\t' ? 't' : *u == '\n' ? 'n' : 'r');
		else if (*u < 0x20 || *u == 0x7f)
			sbuf_addf(b, "\\x%02x", *u);
		else if (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)	/* UTF-8 of U+0080..U+009F */
			sbuf_addf(b, "\\u%04x", *++u);
		else
			sbuf_add(b, (const char *)u, 1);
	}
}

void warn_visible(const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	for (const char *c = fmt; *c; c++) {
		if (c[0] == '%' && c[1] == 's') {
			const char *arg = va_arg(ap, const char *);

			sbuf_add_visible(&b, arg ? arg : "(null)");
			c++;
		} else if (c[0] == '%' && c[1] == '%') {
			sbuf_add(&b, "%", 1);
			c++;
		} else {
			sbuf_add(&b, c, 1);
		}
	}
	va_end(ap);
	fputs(b.s ? b.s : "", stderr);
	sbuf_free(&b);
}
