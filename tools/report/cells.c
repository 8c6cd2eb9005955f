// SPDX-License-Identifier: MIT
/* Cells and headings of tp-report's outputs; see cells.h. */
#include <math.h>
#include <string.h>

#include "cells.h"
#include "keys.h"
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
		/* no newline: the page keeps the prose's line breaks (white-space: pre-wrap) */
		fprintf(f, "</h%d>", level + 1);
		return;
	}
	if (style == STYLE_MARKDOWN)
		fprintf(f, "\n%.*s ", level + 1, "######");
	else if (level != 1)
		fputc('\n', f);
	table_text(f, style, text);
	fputs(style == STYLE_MARKDOWN ? "\n\n" : "\n", f);
}

double fmt_decl_unit_ns(const struct key_decl *d)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

	for (size_t i = 0; d && d->unit && i < ARRAY_SIZE(units); i++)
		if (!strcmp(d->unit, units[i].unit))
			return units[i].ns;
	return 0;
}

double fmt_unit_ns(const char *probe, const char *key)
{
	return fmt_decl_unit_ns(keys_find(probe, key));
}

void fmt_value(char *buf, size_t n, double v, double unit_ns)
{
	static const struct {
		double below_ns;	/* the largest magnitude this scale shows */
		double ns;
		const char *name;
	} scales[] = { { 1e3, 1, "ns" }, { 1e6, 1e3, "µs" }, { 1e9, 1e6, "ms" }, { INFINITY, 1e9, "s" } };
	char num[NUM_MAX];
	size_t i = 0;

	if (!unit_ns || !isfinite(v)) {
		fmt_num(buf, n, v);
		return;
	}
	v *= unit_ns;
	while (fabs(v) >= scales[i].below_ns)
		i++;
	fmt_num(num, sizeof(num), v / scales[i].ns);
	snprintf(buf, n, "%s %s", num, scales[i].name);
}

/* A relative spread in percent, as a person says it: "±130 %", "±1.3 %", "±0.05 %". */
static void fmt_spread_pct(char *buf, size_t n, double pct)
{
	if (pct >= 10)
		snprintf(buf, n, "±%.0f %%", pct);
	else
		snprintf(buf, n, "±%.2g %%", pct);
}

void fmt_agg_in(char *buf, size_t n, const struct agg *a, double unit_ns)
{
	char mean[NUM_MAX], spread[NUM_MAX];

	if (!a->n) {
		snprintf(buf, n, "-");
		return;
	}
	if (a->disjoint) {
		snprintf(buf, n, "disjoint x%zu", a->n);
		return;
	}
	fmt_value(mean, sizeof(mean), a->mean, unit_ns);
	/* intervals proven in every iteration: their intersection, of how many */
	if (a->combine != COMBINE_MEAN && a->n > 1) {
		snprintf(buf, n, "%s ∩%zu", mean, a->n);
		return;
	}
	/* a spread of zero says nothing a single value would not */
	if (a->n < 2 || a->stddev == 0) {
		snprintf(buf, n, "%s", mean);
		return;
	}
	if (a->mean != 0)
		fmt_spread_pct(spread, sizeof(spread), 100 * a->stddev / fabs(a->mean));
	else
		fmt_value(spread + snprintf(spread, sizeof(spread), "±"), sizeof(spread) - 2,
			  a->stddev, unit_ns);
	snprintf(buf, n, "%s %s", mean, spread);
}

void fmt_agg(char *buf, size_t n, const struct agg *a)
{
	fmt_agg_in(buf, n, a, 0);
}

void fmt_figure_cells(struct table *t, size_t row, size_t c, const struct report *rp,
		      const struct figure *fg)
{
	char cell[2 * NUM_MAX + 8];
	double unit_ns = fmt_decl_unit_ns(fg->decl);

	for (size_t r = 0; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r], *base = &fg->per_run[0];

		fmt_agg_in(cell, sizeof(cell), a, unit_ns);
		table_set(t, row, c++, cell);
		if (!r)
			continue;
		if (a->n && base->n && !(fg->decl && fg->decl->dir == KEY_DIR_ZERO))
			fmt_ratio(cell, sizeof(cell), a->mean, base->mean);
		else
			snprintf(cell, sizeof(cell), "-");
		table_set(t, row, c++, cell);
	}
}
