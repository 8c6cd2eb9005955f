// SPDX-License-Identifier: MIT
/* Tables for people; see table.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util.h"

#define COL_GAP 2

struct table *table_new(size_t ncol, const char *const *titles)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->ncol = ncol;
	t->align = xmalloc(ncol);
	memset(t->align, 'l', ncol);
	table_row(t);
	for (size_t c = 0; c < ncol; c++)
		table_set(t, 0, c, titles[c]);
	return t;
}

void table_align(struct table *t, size_t col, char align)
{
	if (col < t->ncol)
		t->align[col] = align;
}

size_t table_row(struct table *t)
{
	if (t->nrows == t->rowcap) {
		t->rowcap = t->rowcap ? 2 * t->rowcap : 16;
		t->cell = xrealloc(t->cell, t->rowcap * t->ncol * sizeof(*t->cell));
		t->group = xrealloc(t->group, t->rowcap);
	}
	memset(t->cell + t->nrows * t->ncol, 0, t->ncol * sizeof(*t->cell));
	t->group[t->nrows] = 0;
	return t->nrows++;
}

void table_group(struct table *t, const char *text)
{
	size_t r = table_row(t);

	t->group[r] = 1;
	table_set(t, r, 0, text);
}

/* Cells hold what a person sees: a record's control characters written out. */
void table_set(struct table *t, size_t row, size_t col, const char *s)
{
	char **c = &t->cell[row * t->ncol + col];
	struct sbuf b = { 0 };

	free(*c);
	*c = NULL;
	if (!s)
		return;
	sbuf_add_visible(&b, s);
	*c = sbuf_take(&b);
}

void table_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	table_set(t, row, col, s);
	free(s);
}

static const char *cell(const struct table *t, size_t r, size_t c)
{
	const char *s = t->cell[r * t->ncol + c];

	return s ? s : "";
}

/* Columns with nothing but their title in them: left out rather than printed empty. */
static char *empty_cols(const struct table *t)
{
	char *empty = xmalloc(t->ncol);

	memset(empty, t->nrows > 1, t->ncol);
	for (size_t r = 1; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncol; c++)
			if (!t->group[r] && *cell(t, r, c))
				empty[c] = 0;
	return empty;
}

/* Columns s takes on a terminal: UTF-8 characters (all of ours are one column: ±, ∩), not bytes. */
static size_t text_cols(const char *s)
{
	size_t n = 0;

	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		n += (*u & 0xc0) != 0x80;
	return n;
}

static void print_text(const struct table *t, FILE *f, const char *indent)
{
	size_t *w = xcalloc(t->ncol, sizeof(*w));
	struct sbuf line = { 0 };
	char *empty = empty_cols(t);
	int first;

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncol && !t->group[r]; c++)
			if (text_cols(cell(t, r, c)) > w[c])
				w[c] = text_cols(cell(t, r, c));
	for (size_t r = 0; r < t->nrows; r++) {
		sbuf_reset(&line);
		sbuf_adds(&line, indent);
		first = 1;
		for (size_t c = 0; c < t->ncol; c++) {
			const char *s = cell(t, r, c);
			int pad = (int)(w[c] - text_cols(s));

			if (t->group[r]) {
				sbuf_adds(&line, s);
				break;
			}
			if (empty[c])
				continue;
			if (!first)
				sbuf_addf(&line, "%*s", COL_GAP, "");
			first = 0;
			if (t->align[c] == 'r')
				sbuf_addf(&line, "%*s%s", pad, "", s);
			else
				sbuf_addf(&line, "%s%*s", s, pad, "");
		}
		while (line.len && line.s[line.len - 1] == ' ')
			line.s[--line.len] = 0;
		fprintf(f, "%s\n", line.s);
	}
	sbuf_free(&line);
	free(w);
	free(empty);
}

static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		/* a pipe ends a cell and markup would restyle it; '_' inside words is safe in GFM */
		if (strchr("|*`\\<[", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

void html_escape(FILE *f, const char *s)
{
	static const char *const refs[] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < ARRAY_SIZE(refs) && refs[c])
			fputs(refs[c], f);
		else
			fputc(c, f);
	}
}

void table_text(FILE *f, enum style style, const char *s)
{
	struct sbuf b = { 0 };

	sbuf_add_visible(&b, s);
	if (style == STYLE_MARKDOWN)
		md_escape(f, b.len ? b.s : "");
	else if (style == STYLE_HTML)
		html_escape(f, b.len ? b.s : "");
	else
		fputs(b.len ? b.s : "", f);
	sbuf_free(&b);
}

static void md_cell(FILE *f, const char *s, int bold)
{
	bold = bold && *s;
	fputs(bold ? " **" : " ", f);
	md_escape(f, s);
	fputs(bold ? "** |" : " |", f);
}

static void print_markdown(const struct table *t, FILE *f)
{
	char *empty = empty_cols(t);

	for (size_t r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (size_t c = 0; c < t->ncol; c++)
			if (!empty[c])
				md_cell(f, t->group[r] && c ? "" : cell(t, r, c), t->group[r] && !c);
		fputc('\n', f);
		if (r)
			continue;
		fputc('|', f);
		for (size_t c = 0; c < t->ncol; c++)
			if (!empty[c])
				fputs(t->align[c] == 'r' ? " --: |" : " --- |", f);
		fputc('\n', f);
	}
	free(empty);
}

/* Cells are escaped; right-aligned columns get class "num", group rows span the table. */
static void print_html(const struct table *t, FILE *f)
{
	char *empty = empty_cols(t);
	size_t shown = 0;

	for (size_t c = 0; c < t->ncol; c++)
		shown += !empty[c];
	fputs("<table>\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->group[r]) {
			fprintf(f, "<tr class=\"group\"><th colspan=\"%zu\">", shown);
			html_escape(f, cell(t, r, 0));
			fputs("</th></tr>\n", f);
			continue;
		}
		fputs("<tr>", f);
		for (size_t c = 0; c < t->ncol; c++) {
			if (empty[c])
				continue;
			fputs(!r ? "<th>" : t->align[c] == 'r' ? "<td class=\"num\">" : "<td>", f);
			html_escape(f, cell(t, r, c));
			fputs(!r ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(empty);
}

void table_print(const struct table *t, FILE *f, enum style style, const char *indent)
{
	if (style == STYLE_MARKDOWN)
		print_markdown(t, f);
	else if (style == STYLE_HTML)
		print_html(t, f);
	else
		print_text(t, f, indent);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncol; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->group);
	free(t->align);
	free(t);
}
