// SPDX-License-Identifier: MIT
/* Cells and headings of tp-report's outputs; see cells.h. */
#include <math.h>
#include <string.h>

#include "cells.h"
#include "schema.h"

void fmt_scalar(struct sbuf *b, const json_t *v)
{
	char num[NUM_MAX];

	if (!v) {	/* a key the record lacks, e.g. an end record without its counts */
		sbuf_adds(b, "-");
		return;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		sbuf_adds(b, json_string_value(v));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		fmt_num(num, sizeof(num), json_num(v));
		sbuf_adds(b, num);
		break;
	case JSON_TRUE:
		sbuf_adds(b, "true");
		break;
	case JSON_FALSE:
		sbuf_adds(b, "false");
		break;
	default:
		sbuf_adds(b, "-");
		break;
	}
}

void fmt_heading(FILE *f, enum style style, int level, const char *text)
{
	if (style == STYLE_HTML) {
		fprintf(f, "<h%d>", level + 1);
		table_text(f, style, text);
		fprintf(f, "</h%d>\n", level + 1);
		return;
	}
	if (style == STYLE_MARKDOWN)
		fprintf(f, "\n%.*s ", level + 1, "######");
	else if (level != 1)
		fputc('\n', f);
	table_text(f, style, text);
	fputs(style == STYLE_MARKDOWN ? "\n\n" : "\n", f);
}

void fmt_agg(char *buf, size_t n, const struct agg *a)
{
	char mean[NUM_MAX];

	if (!a->n) {
		snprintf(buf, n, "-");
		return;
	}
	if (a->disjoint) {
		snprintf(buf, n, "disjoint x%zu", a->n);
		return;
	}
	fmt_num(mean, sizeof(mean), a->mean);
	/* intervals proven in every iteration: their intersection, of how many */
	if (a->combine != COMBINE_MEAN && a->n > 1) {
		snprintf(buf, n, "%s ∩%zu", mean, a->n);
		return;
	}
	/* a spread of zero says nothing a single value would not */
	if (a->n < 2 || a->stddev == 0)
		snprintf(buf, n, "%s", mean);
	else if (a->mean != 0)
		snprintf(buf, n, "%s ±%.2g%%", mean, 100 * a->stddev / fabs(a->mean));
	else
		snprintf(buf, n, "%s ±%.2g", mean, a->stddev);
}

void fmt_figure_cells(struct table *t, size_t row, size_t c, const struct report *rp,
		      const struct figure *fg)
{
	char cell[2 * NUM_MAX + 8];

	for (size_t r = 0; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r], *base = &fg->per_run[0];

		fmt_agg(cell, sizeof(cell), a);
		table_set(t, row, c++, cell);
		if (!r)
			continue;
		if (a->n && base->n && !schema_signed(fg->probe, fg->key))
			fmt_ratio(cell, sizeof(cell), a->mean, base->mean);
		else
			snprintf(cell, sizeof(cell), "-");
		table_set(t, row, c++, cell);
	}
}
