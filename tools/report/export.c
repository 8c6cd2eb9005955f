// SPDX-License-Identifier: MIT
/* The walk over the model and the escaping the exports share; see export.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

int export_is_headline(const struct figure *fg, const struct key_decl **decl)
{
	const struct key_decl *d = fg->decl;

	if (!d || d->cls != KEY_FIGURE)
		return 0;
	*decl = d;
	return 1;
}

const char *export_str(const json_t *rec, const char *key)
{
	const char *s = json_string_value(json_object_get(rec, key));

	return s ? s : "";
}

/* The entry of probe in p[0..*n), added at the end when new. */
static struct export_probe *probe_of(struct export_probe **p, size_t *n, size_t *cap,
				     const char *probe)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*p)[i].probe, probe))
			return &(*p)[i];
	grow(p, cap, *n + 1, sizeof(**p));
	(*p)[*n] = (struct export_probe){ .probe = probe };
	return &(*p)[(*n)++];
}

static void add_item(struct export_probe *ep, struct export_item it)
{
	ep->items = xrealloc(ep->items, (ep->n + 1) * sizeof(*ep->items));
	ep->items[ep->n++] = it;
}

/* A probe's status from its items: an error fails it, skips alone skip it. */
static void settle(struct export_probe *ep)
{
	int figures = 0;

	for (size_t i = 0; i < ep->n; i++) {
		const json_t *note = ep->items[i].note;
		int error = note && !strcmp(export_str(note, "type"), "error");

		figures += !note;
		if (error && ep->status != EXPORT_FAIL) {
			ep->status = EXPORT_FAIL;
			ep->reason = export_str(note, "reason");
		} else if (note && !ep->reason) {
			ep->reason = export_str(note, "reason");
		}
	}
	if (ep->status != EXPORT_FAIL)
		ep->status = figures ? EXPORT_OK : EXPORT_SKIP;
	if (ep->status == EXPORT_OK)
		ep->reason = NULL;
}

size_t export_probes(const struct report *rp, size_t ri, struct export_probe **out)
{
	const struct run *run = &rp->runs[ri];
	struct export_probe *p = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];
		const struct key_decl *d;

		/* an as-booted figure repeats one of the run's own */
		if (fg->as_booted || !fg->per_run[ri].n || !export_is_headline(fg, &d))
			continue;
		/* intervals of iterations that contradict each other have no value */
		if (!isfinite(fg->per_run[ri].mean))
			continue;
		add_item(probe_of(&p, &n, &cap, fg->probe),
			 (struct export_item){ fg, d, &fg->per_run[ri], NULL });
	}
	for (size_t k = 0; k < json_array_size(run->notes); k++) {
		const json_t *rec = json_array_get(run->notes, k);
		const char *probe = export_str(rec, "probe");

		/* a bad option or the suite's watchdog belongs to no probe */
		add_item(probe_of(&p, &n, &cap, *probe ? probe : "suite"),
			 (struct export_item){ .note = rec });
	}
	for (size_t i = 0; i < n; i++)
		settle(&p[i]);
	*out = p;
	return n;
}

void export_probes_free(struct export_probe *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].items);
	free(p);
}

static int word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

char *export_word(const char *s)
{
	struct sbuf b = { 0 };
	int gap = 0;

	for (; *s; s++) {
		if (!word_char((unsigned char)*s)) {
			gap = 1;
			continue;
		}
		if (gap && b.len)
			sbuf_add(&b, "_", 1);
		gap = 0;
		sbuf_add(&b, s, 1);
	}
	if (!b.len)
		sbuf_adds(&b, "unnamed");
	return sbuf_take(&b);
}

/*
 * The length of the well-formed UTF-8 sequence at s (Unicode 15, table
 * 3-7: no overlong form, no surrogate, nothing past U+10FFFF), 0 if none.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

const char *export_utf8_put(FILE *f, const char *s)
{
	size_t n = utf8_len((const unsigned char *)s);

	fwrite(n ? s : "\xef\xbf\xbd", 1, n ? n : 3, f);
	return s + (n ? n - 1 : 0);
}

void export_xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* a file name or label from the command line may be any bytes */
		if (c >= 0x80) {
			s = export_utf8_put(f, s);
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 allows no C0 control but tab, newline, return; none kept */
			if (c < 0x20 || c == 0x7f)
				fputs("\xef\xbf\xbd", f);
			else
				fputc(c, f);
		}
	}
}

void export_line_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* a C1 control in UTF-8 (U+0080..U+009F) is two bytes, one '_' */
		if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f) {
			fputc('_', f);
			s++;
			continue;
		}
		fputc(c == '#' || c < 0x20 || c == 0x7f ? '_' : c, f);
	}
}

void export_num(FILE *f, double v)
{
	fprintf(f, "%.12g", isfinite(v) ? v : 0.0);
}
