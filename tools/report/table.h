/* SPDX-License-Identifier: MIT */
/*
 * Tables for people: cells of text, laid out as aligned columns for a
 * terminal, as a Markdown (GFM) table or as an HTML table. The formatters
 * fill them; only this file knows how wide anything is.
 */
#ifndef TP_REPORT_TABLE_H
#define TP_REPORT_TABLE_H

#include <stdio.h>

enum style {
	STYLE_TEXT,
	STYLE_MARKDOWN,
	STYLE_HTML,	/* a fragment of tp-report --html's page (html.c) */
};

struct table {
	size_t ncol;
	size_t nrows, rowcap;	/* row 0 is the header */
	char **cell;		/* nrows x ncol, NULL: empty */
	const char **cls;	/* nrows x ncol: a cell's HTML class (a constant of the code), or NULL */
	unsigned char *group;	/* per row: a heading for the rows below it */
	char *align;		/* per column: 'l' or 'r' */
	char **legend;		/* per column: what its title means, or NULL */
	int fold;		/* text: columns past TABLE_TEXT_COLS fold into further tables */
};

/* A table with a header row of ncol titles. Columns align left until told. */
struct table *table_new(size_t ncol, const char *const *titles);
void table_align(struct table *t, size_t col, char align);
/*
 * What column col's title means: said under the table, one line for its
 * columns ("title: text; title: text"), wrapped to the table's width.
 */
void table_legend(struct table *t, size_t col, const char *text);
/* Adds an empty row and returns its index. */
size_t table_row(struct table *t);
/* Adds a heading row: one text over the whole row. */
void table_group(struct table *t, const char *text);
void table_set(struct table *t, size_t row, size_t col, const char *s);
/* A cell's class on the HTML page (html.c's style sheet): cls is a string
 * constant of the code, never a record's text. Text and Markdown ignore it. */
void table_class(struct table *t, size_t row, size_t col, const char *cls);
void table_setf(struct table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A text table's width at most: the columns past it fold into further tables. */
#define TABLE_TEXT_COLS 120

/*
 * Text: indent before every line; with t->fold at most TABLE_TEXT_COLS
 * columns wide (what does not fit folds into further tables, each led by
 * the first column). Markdown and HTML: indent is ignored.
 */
void table_print(const struct table *t, FILE *f, enum style style, const char *indent);
void table_free(struct table *t);
/*
 * Text from a record outside a table: control characters written out, and
 * in Markdown its markup escaped, in HTML its markup characters, as in a cell.
 */
void table_text(FILE *f, enum style style, const char *s);
/*
 * A line of prose from a record: text wrapped at TABLE_TEXT_COLS, first
 * before its first line and cont before the others; Markdown a list item,
 * HTML a line; escaped as table_text().
 */
void table_item(FILE *f, enum style style, const char *first, const char *cont, const char *s);
/* Text as lines of at most 120 columns: two spaces, then four where it continues
 * (TABLE_WRAPPED_COLS of text after them); escaped as table_text(). */
#define TABLE_WRAPPED_COLS 118
void table_wrapped(FILE *f, enum style style, const char *text);
/* s with &, <, >, " and ' as character references: the one way text enters HTML. */
void html_escape(FILE *f, const char *s);

#endif
