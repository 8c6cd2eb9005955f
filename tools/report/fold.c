// SPDX-License-Identifier: MIT
/* Markdown within a size; see fold.h. */
#include <string.h>

#include "fold.h"
#include "util.h"

/* A table of the document: its lines from head (header and separator) to end. */
struct md_table {
	const char *head, *rows, *end;	/* rows: after the separator line */
	size_t nrows;
};

/* Where line s ends, past its newline. */
static const char *line_end(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));

	return nl ? nl + 1 : end;
}

/* The tables of doc: runs of lines that start with '|', at least header and separator. */
static struct md_table *find_tables(const char *doc, size_t len, size_t *n)
{
	const char *end = doc + len, *s = doc;
	struct md_table *v = NULL;
	size_t cap = 0;

	*n = 0;
	while (s < end) {
		struct md_table t = { s, NULL, s, 0 };

		while (t.end < end && *t.end == '|') {
			t.end = line_end(t.end, end);
			if (!t.rows && t.end > line_end(s, end))
				t.rows = t.end;
			else if (t.rows)
				t.nrows++;
		}
		if (t.rows) {
			grow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = t;
			s = t.end;
		} else {
			s = line_end(s, end);
		}
	}
	return v;
}

/* The bytes of the first k rows of t. */
static size_t rows_bytes(const struct md_table *t, size_t k)
{
	const char *s = t->rows;

	for (size_t i = 0; i < k && i < t->nrows; i++)
		s = line_end(s, t->end);
	return (size_t)(s - t->rows);
}

#define FOLD_OPEN "<details><summary>%zu rows; the first %zu here, all with " \
	"<code>tp-report --full</code></summary>\n\n"
#define FOLD_CLOSE "\n</details>\n"
/* room for the wrapper's text and numbers */
#define FOLD_WRAP_BYTES (sizeof(FOLD_OPEN) + sizeof(FOLD_CLOSE) + 40)

/* The document's size with every table cut to k rows. */
static size_t size_at(const struct md_table *t, size_t n, size_t len, size_t k)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].nrows > k)
			len -= (size_t)(t[i].end - t[i].rows) - rows_bytes(&t[i], k) - FOLD_WRAP_BYTES;
	return len;
}

void fold_markdown(FILE *f, const char *doc, size_t len, size_t limit)
{
	size_t n, lo = 0, hi = 0;
	struct md_table *t = find_tables(doc, len, &n);
	const char *s = doc;

	for (size_t i = 0; i < n; i++)
		hi = t[i].nrows > hi ? t[i].nrows : hi;
	if (len <= limit || size_at(t, n, len, 0) > limit) {
		/* fits, or no cut makes it fit: as it is */
		fwrite(doc, 1, len, f);
		free(t);
		return;
	}
	/* the most rows per table that fit: size_at grows with k */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (size_at(t, n, len, mid) <= limit)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (size_t i = 0; i < n; i++) {
		fwrite(s, 1, (size_t)(t[i].head - s), f);
		s = t[i].end;
		if (t[i].nrows <= lo) {
			fwrite(t[i].head, 1, (size_t)(t[i].end - t[i].head), f);
			continue;
		}
		fprintf(f, FOLD_OPEN, t[i].nrows, lo);
		fwrite(t[i].head, 1, (size_t)(t[i].rows - t[i].head) + rows_bytes(&t[i], lo), f);
		fputs(FOLD_CLOSE, f);
	}
	fwrite(s, 1, (size_t)(doc + len - s), f);
	free(t);
}
