// SPDX-License-Identifier: MIT
/* Tables for people; see table.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util.h"

#define COL_GAP 2
/* The narrowest a wrapped column gets, in columns. */
#define TABLE_WRAP_MIN 20

struct table *table_new(size_t ncol, const char *const *titles)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->ncol = ncol;
	t->align = xmalloc(ncol);
	memset(t->align, 'l', ncol);
	t->legend = xcalloc(ncol, sizeof(*t->legend));
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

void table_legend(struct table *t, size_t col, const char *text)
{
	struct sbuf b = { 0 };

	if (col >= t->ncol || !text)
		return;
	sbuf_add_visible(&b, text);
	free(t->legend[col]);
	t->legend[col] = sbuf_take(&b);
}

size_t table_row(struct table *t)
{
	if (t->nrows == t->rowcap) {
		t->rowcap = t->rowcap ? 2 * t->rowcap : 16;
		t->cell = xrealloc(t->cell, t->rowcap * t->ncol * sizeof(*t->cell));
		t->cls = xrealloc(t->cls, t->rowcap * t->ncol * sizeof(*t->cls));
		t->group = xrealloc(t->group, t->rowcap);
	}
	memset(t->cell + t->nrows * t->ncol, 0, t->ncol * sizeof(*t->cell));
	memset(t->cls + t->nrows * t->ncol, 0, t->ncol * sizeof(*t->cls));
	t->group[t->nrows] = 0;
	return t->nrows++;
}

void table_class(struct table *t, size_t row, size_t col, const char *cls)
{
	if (row < t->nrows && col < t->ncol)
		t->cls[row * t->ncol + col] = cls;
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

/* "title: text; title: text" for the columns show[] marks that have a legend; NULL: none. */
static char *legend_line(const struct table *t, const char *show)
{
	struct sbuf b = { 0 };

	for (size_t c = 0; c < t->ncol; c++)
		if (show[c] && t->legend[c])
			sbuf_addf(&b, "%s%s: %s", b.len ? "; " : "", cell(t, 0, c), t->legend[c]);
	return b.len ? sbuf_take(&b) : NULL;
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

/*
 * The first n columns' worth of s, broken after a space where there is
 * one; returns the bytes taken (all of s when it fits).
 */
static size_t fit_cols(const char *s, size_t n)
{
	size_t bytes = 0, cols = 0, space = 0;

	for (; s[bytes]; bytes++) {
		if (((unsigned char)s[bytes] & 0xc0) == 0x80)
			continue;
		if (cols++ == n)
			return space ? space : bytes;
		if (s[bytes] == ' ')
			space = bytes + 1;
	}
	return bytes;
}

/*
 * The rows of t in the columns show[] marks, aligned to widths w; the
 * column wrap (or t->ncol for none) is the last, its cells wrapped to
 * w[wrap] on lines of their own below.
 */
static void print_cols(const struct table *t, FILE *f, const char *indent, const size_t *w,
		       const char *show, size_t wrap)
{
	struct sbuf line = { 0 };
	int first;

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
			if (!show[c])
				continue;
			if (!first)
				sbuf_addf(&line, "%*s", COL_GAP, "");
			first = 0;
			if (c == wrap && text_cols(s) > w[c]) {
				size_t at = text_cols(line.s), k;

				while (text_cols(s) > w[c]) {
					k = fit_cols(s, w[c]);
					sbuf_add(&line, s, k - (k && s[k - 1] == ' '));
					sbuf_addf(&line, "\n%*s", (int)at, "");
					s += k;
				}
				pad = (int)(w[c] - text_cols(s));
			}
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
}

/*
 * Text (already visible) word-wrapped at TABLE_TEXT_COLS: first before
 * the first line, cont before the others; a word longer than a line
 * stays whole.
 */
static void wrap(FILE *f, const char *first, const char *cont, const char *text)
{
	char *s = xstrdup(text), *word, *save = NULL;
	size_t col = 0;

	for (word = strtok_r(s, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		size_t n = text_cols(word);

		if (!col || col + 1 + n > TABLE_TEXT_COLS) {
			fprintf(f, "%s%s%s", col ? "\n" : "", col ? cont : first, word);
			col = text_cols(col ? cont : first) + n;
		} else {
			fprintf(f, " %s", word);
			col += 1 + n;
		}
	}
	fputc('\n', f);
	free(s);
}

/* The legend of the columns shown, wrapped, after a "= " mark. */
static void print_legend_text(const struct table *t, FILE *f, const char *indent, const char *show)
{
	char *text = legend_line(t, show), *first, *cont;

	if (!text)
		return;
	first = xasprintf("%s= ", indent);
	cont = xasprintf("%s  ", indent);
	wrap(f, first, cont, text);
	free(first);
	free(cont);
	free(text);
}

void table_item(FILE *f, enum style style, const char *first, const char *cont, const char *s)
{
	struct sbuf b = { 0 };

	if (style != STYLE_TEXT) {
		fputs(style == STYLE_MARKDOWN ? "- " : "  ", f);
		table_text(f, style, s);
		fputc('\n', f);
		return;
	}
	sbuf_add_visible(&b, s);
	wrap(f, first, cont, b.len ? b.s : "");
	sbuf_free(&b);
}

/*
 * With t->fold, columns past TABLE_TEXT_COLS fold into further tables
 * below, each starting again with the first column (the row's name), as
 * many columns to each as fit (at least one).
 */
static void print_text(const struct table *t, FILE *f, const char *indent)
{
	size_t *w = xcalloc(t->ncol, sizeof(*w));
	char *empty = empty_cols(t), *show = xmalloc(t->ncol);
	size_t next = 1, end = t->ncol;

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncol && !t->group[r]; c++)
			if (text_cols(cell(t, r, c)) > w[c])
				w[c] = text_cols(cell(t, r, c));
	while (end > 1 && empty[end - 1])
		end--;
	do {
		size_t width = text_cols(indent) + (empty[0] ? 0 : w[0]), shown = 0, last = 0;
		size_t keep = 0, wrap = t->ncol;

		memset(show, 0, t->ncol);
		show[0] = !empty[0];
		for (; next < t->ncol; next++) {
			if (empty[next])
				continue;
			/* the last column, text, may wrap where it is rather than fold */
			if (shown && t->fold && width + COL_GAP + w[next] > TABLE_TEXT_COLS &&
			    !(next == end - 1 && t->align[next] == 'l' &&
			      width + COL_GAP + TABLE_WRAP_MIN <= TABLE_TEXT_COLS))
				break;
			width += COL_GAP + w[next];
			show[next] = 1;
			shown++;
			last = next;
		}
		/* one column too wide alone, text at the end: wrapped in its place */
		if (t->fold && shown && width > TABLE_TEXT_COLS && t->align[last] == 'l' &&
		    w[last] >= width - TABLE_TEXT_COLS + TABLE_WRAP_MIN) {
			keep = w[last];
			w[last] -= width - TABLE_TEXT_COLS;
			wrap = last;
		}
		print_cols(t, f, indent, w, show, wrap);
		if (wrap < t->ncol)
			w[wrap] = keep;
		print_legend_text(t, f, indent, show);
		if (next < t->ncol)
			fputc('\n', f);
	} while (next < t->ncol);
	free(show);
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
			const char *cls = t->cls[r * t->ncol + c];

			if (!r)
				fputs("<th>", f);
			else
				fprintf(f, "<td%s%s%s%s%s>", cls || t->align[c] == 'r' ? " class=\"" : "",
					t->align[c] == 'r' ? "num" : "", cls && t->align[c] == 'r' ? " " : "",
					cls ? cls : "", cls || t->align[c] == 'r' ? "\"" : "");
			html_escape(f, cell(t, r, c));
			fputs(!r ? "</th>" : "</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>", f);
	free(empty);
}

/* Markdown and HTML: the legend of every column that is not empty, after the table. */
static void print_legend_after(const struct table *t, FILE *f, enum style style)
{
	char *empty = empty_cols(t), *text;

	for (size_t c = 0; c < t->ncol; c++)
		empty[c] = !empty[c];
	text = legend_line(t, empty);
	if (text && style == STYLE_HTML) {
		fputs("<p class=\"legend\">", f);
		html_escape(f, text);
		fputs("</p>", f);
	} else if (text) {
		fputs("\n", f);
		md_escape(f, text);
		fputs("\n", f);
	}
	free(text);
	free(empty);
}

void table_print(const struct table *t, FILE *f, enum style style, const char *indent)
{
	if (style == STYLE_MARKDOWN || style == STYLE_HTML) {
		(style == STYLE_HTML ? print_html : print_markdown)(t, f);
		print_legend_after(t, f, style);
	} else
		print_text(t, f, indent);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncol; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->cls);
	free(t->group);
	free(t->align);
	for (size_t c = 0; c < t->ncol; c++)
		free(t->legend[c]);
	free(t->legend);
	free(t);
}

void table_wrapped(FILE *f, enum style style, const char *text)
{
	size_t at = 0, n = strlen(text);

	while (at < n) {
		size_t room = at ? TABLE_WRAPPED_COLS - 2 : TABLE_WRAPPED_COLS, len = n - at;
		char *seg;

		if (len > room) {
			len = room;
			while (len > room / 3 && text[at + len] != ' ')
				len--;
		}
		seg = xasprintf("%.*s", (int)len, text + at);
		fputs(at ? "    " : "  ", f);
		table_text(f, style, seg);
		fputs(style == STYLE_HTML ? "<br>\n" : "\n", f);
		free(seg);
		at += len;
		while (text[at] == ' ')
			at++;
	}
}
