// SPDX-License-Identifier: MIT
/* The verdict section of the report; see verdict.h and docs/verdict.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/verdict.h"
#include "cells.h"
#include "keys.h"
#include "readiness.h"
#include "verdict.h"

/* A figure in its unit for people: ns scaled to us or ms; a yes/no as yes or no. */
static void show(struct sbuf *b, double v, const char *unit)
{
	char num[NUM_MAX];
	const char *u = unit ? unit : "";

	if (!isfinite(v)) {
		sbuf_adds(b, "-");
		return;
	}
	if (!unit) {
		sbuf_adds(b, v != 0 ? "yes" : "no");
		return;
	}
	if (!strcmp(u, "ns") && fabs(v) >= 1e6)
		v /= 1e6, u = "ms";
	else if (!strcmp(u, "ns") && fabs(v) >= 1e3)
		v /= 1e3, u = "us";
	fmt_num(num, sizeof(num), v);
	sbuf_addf(b, "%s %s", num, u);
}

/* The row of id, or NULL. */
static const struct verdict_limit *verdict_limit_find(const char *id)
{
	for (size_t i = 0; id && i < verdict_limit_count; i++)
		if (!strcmp(verdict_limits[i].id, id))
			return &verdict_limits[i];
	return NULL;
}

/* "good up to 100 ns, fair up to 1 ms", from the table; "" for an item it does not know. */
static void bounds(struct sbuf *b, const char *id)
{
	const struct verdict_limit *l = verdict_limit_find(id);

	if (!l)
		return;
	if (!l->unit) {
		sbuf_adds(b, "good: yes");
		return;
	}
	sbuf_adds(b, "good <= ");
	show(b, l->good_max, l->unit);
	sbuf_adds(b, ", fair <= ");
	show(b, l->fair_max, l->unit);
}

static const char *text_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* One run's cell: the figure and its word ("150 us: fair", "no: poor"),
 * "(p99.9 x, n y)" for a latency. */
static void cell(struct sbuf *b, const json_t *it)
{
	const json_t *v = json_object_get(it, "value");
	const json_t *unit = json_object_get(it, "unit");

	if (json_is_number(v)) {
		show(b, json_num(v), json_string_value(unit));
		sbuf_adds(b, ": ");
	}
	sbuf_adds(b, json_is_string(json_object_get(it, "word")) ? text_of(it, "word") : "?");
	if (json_is_number(json_object_get(it, "n"))) {
		char n[NUM_MAX];

		fmt_num(n, sizeof(n), json_num(json_object_get(it, "n")));
		sbuf_adds(b, " (p99.9 ");
		show(b, json_num(json_object_get(it, "p999_ns")), "ns");
		sbuf_addf(b, ", n %s)", n);
	}
}

/* A word's class on the HTML page (html.c colours it); NULL for another word. */
static const char *word_class(const json_t *it)
{
	static const char *const words[][2] = {
		{ "good", "w-good" }, { "fair", "w-fair" }, { "poor", "w-poor" },
		{ "unknown", "w-none" }, { "not measured", "w-none" },
	};
	const char *w = text_of(it, "word");

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(w, words[i][0]))
			return words[i][1];
	return NULL;
}

/* Several runs: "1.93 ms .. 15 ns over 3 runs", the item's values from least
 * to most, so one boot's word is read beside the spread of the others. */
static void spread(struct sbuf *b, const struct report *rp, const char *id)
{
	double lo = INFINITY, hi = -INFINITY;
	const char *unit = NULL;
	size_t n = 0;

	for (size_t r = 0; r < rp->nruns; r++) {
		const json_t *it = json_object_get(json_object_get(rp->runs[r].verdict, "items"), id);
		const json_t *v = json_object_get(it, "value");

		if (!json_is_number(v) || !isfinite(json_num(v)))
			continue;
		lo = fmin(lo, json_num(v));
		hi = fmax(hi, json_num(v));
		unit = json_string_value(json_object_get(it, "unit"));
		n++;
	}
	if (n < 2)
		return;
	show(b, lo, unit);
	sbuf_adds(b, " .. ");
	show(b, hi, unit);
	sbuf_addf(b, " over %zu runs", n);
}

/* Several runs: each run's why, "label: why; label: why", for the runs that
 * have one; one why when every run with the item says the same. */
static void whys(struct sbuf *b, const struct report *rp, const char *id)
{
	const char *first = NULL;
	int same = 1;

	for (size_t r = 0; r < rp->nruns; r++) {
		const json_t *it = json_object_get(json_object_get(rp->runs[r].verdict, "items"), id);

		if (!it)
			continue;
		if (!first)
			first = text_of(it, "why");
		same &= !strcmp(first, text_of(it, "why"));
	}
	if (same && first) {
		sbuf_adds(b, first);
		return;
	}
	for (size_t r = 0; r < rp->nruns; r++) {
		const json_t *it = json_object_get(json_object_get(rp->runs[r].verdict, "items"), id);

		if (!text_of(it, "why")[0])
			continue;
		sbuf_addf(b, "%s%s: %s", b->len ? "; " : "", rp->runs[r].label, text_of(it, "why"));
	}
}

/* The ids to show: the table's, then any the records have that it does not (a newer suite). */
static json_t *item_ids(const struct report *rp)
{
	json_t *ids = json_array(), *seen = json_object();
	const char *id;
	json_t *it;

	for (size_t i = 0; i < verdict_limit_count; i++) {
		json_array_append_new(ids, json_string(verdict_limits[i].id));
		json_object_set_new(seen, verdict_limits[i].id, json_true());
	}
	for (size_t r = 0; r < rp->nruns; r++)
		json_object_foreach(json_object_get(rp->runs[r].verdict, "items"), id, it)
			if (!json_object_get(seen, id)) {
				json_array_append_new(ids, json_string(id));
				json_object_set_new(seen, id, json_true());
			}
	json_decref(seen);
	return ids;
}

/* One line before the table: a run without the record, or emulated. */
static void run_line(FILE *f, enum style style, const struct run *run)
{
	const json_t *v = run->verdict;
	const char *emu = text_of(v, "emulated"), *by = text_of(v, "emulated_by");
	struct sbuf line = { 0 };

	if (!v)
		sbuf_addf(&line, "%s: no verdict record (a capture from before verdicts, "
			  "or the run did not finish)", run->label);
	else if (!strcmp(emu, "tcg"))
		sbuf_addf(&line, "%s: under an emulator (%s): these are the emulator's figures, "
			  "not a machine's", run->label, by);
	else if (emu[0])
		sbuf_addf(&line, "%s: under a hypervisor (%s): these are the virtual machine's "
			  "figures", run->label, by);
	if (line.len) {
		fputs(style == STYLE_MARKDOWN ? "- " : style == STYLE_HTML ? "<p>" : "  ", f);
		table_text(f, style, line.s);
		fputs(style == STYLE_HTML ? "</p>\n" : "\n", f);
	}
	sbuf_free(&line);
}

/* Is item id "not measured" in every run with a verdict record, for one same why? (Of
 * several runs, such items go in one line under the table: the answer stays on the first
 * screen.) */
static int measured_nowhere(const struct report *rp, const char *id)
{
	const char *why = NULL;

	for (size_t r = 0; r < rp->nruns; r++) {
		const json_t *it = json_object_get(json_object_get(rp->runs[r].verdict, "items"), id);

		if (!rp->runs[r].verdict)
			continue;
		if (!it || strcmp(text_of(it, "word"), "not measured") ||
		    (why && strcmp(why, text_of(it, "why"))))
			return 0;
		why = text_of(it, "why");
	}
	return 1;
}

/* text as lines of at most 118 columns after two spaces, at its spaces. */
static void fold_line(FILE *f, enum style style, const char *text)
{
	size_t at = 0, n = strlen(text);

	while (at < n) {
		size_t len = n - at;

		if (len > 116) {
			len = 116;
			while (len > 40 && text[at + len] != ' ')
				len--;
		}
		char *seg = xasprintf("%.*s", (int)len, text + at);

		fputs(at ? "    " : "  ", f);
		table_text(f, style, seg);	/* a record's item id: escaped on a page */
		free(seg);
		fputs(style == STYLE_HTML ? "<br>\n" : "\n", f);
		at += len;
		while (text[at] == ' ')
			at++;
	}
}

/* The figures' table: a row per item, a column per run that has the record. */
static void items_table(FILE *f, enum style style, const struct report *rp, size_t nwith)
{
	json_t *ids = item_ids(rp);
	/* a spread of two runs is their two cells again: shown from three */
	size_t ncol = 3 + nwith + (nwith > 2), c;
	const char **titles = xcalloc(ncol, sizeof(*titles));
	struct table *t;
	struct sbuf b = { 0 }, none = { 0 };

	titles[0] = "figure";
	titles[1] = "bounds (docs/verdict.md)";
	c = 2;
	for (size_t r = 0; r < rp->nruns; r++)
		if (rp->runs[r].verdict)
			titles[c++] = rp->runs[r].label;
	if (nwith > 2)
		titles[c++] = "spread";
	titles[c] = nwith == 1 ? "from, or why not" : "why not, by run";
	t = table_new(ncol, titles);
	for (size_t i = 0; i < json_array_size(ids); i++) {
		const char *id = json_string_value(json_array_get(ids, i));
		const struct verdict_limit *l = verdict_limit_find(id);
		size_t row;

		if (nwith > 1 && measured_nowhere(rp, id)) {	/* one line under the table */
			sbuf_addf(&none, "%s%s", none.s ? "; " : "", l ? l->what : id);
			continue;
		}
		row = table_row(t);

		table_set(t, row, 0, l ? l->what : id);
		sbuf_reset(&b);
		bounds(&b, id);
		table_set(t, row, 1, b.s ? b.s : "");
		c = 2;
		for (size_t r = 0; r < rp->nruns; r++) {
			const json_t *items = json_object_get(rp->runs[r].verdict, "items");
			const json_t *it = json_object_get(items, id);

			if (!rp->runs[r].verdict)
				continue;
			sbuf_reset(&b);
			if (it)
				cell(&b, it);
			table_class(t, row, c, word_class(it));
			table_set(t, row, c++, it ? b.s : "-");
			if (nwith == 1 && it)
				table_set(t, row, c, text_of(it, "why")[0] ? text_of(it, "why")
								 : text_of(it, "from"));
		}
		if (nwith > 1) {
			sbuf_reset(&b);
			spread(&b, rp, id);
			if (nwith > 2)
				table_set(t, row, c++, b.s ? b.s : "");
			sbuf_reset(&b);
			whys(&b, rp, id);
			table_set(t, row, c, b.s ? b.s : "");
		}
	}
	if (t->nrows > 1)
		table_print(t, f, style, "  ");
	if (none.s) {
		sbuf_reset(&b);
		sbuf_addf(&b, "not measured in any run, for one reason each (a probe not "
			  "selected; the reason: --format=json): %s", none.s);
		fold_line(f, style, b.s);
	}
	table_free(t);
	sbuf_free(&b);
	sbuf_free(&none);
	free(titles);
	json_decref(ids);
}

void verdict_print(FILE *f, const struct report *rp, enum style style)
{
	size_t nwith = 0;

	if (!rp->nruns)
		return;
	fmt_heading(f, style, 2, "Verdict");
	readiness_print(f, rp, style);
	for (size_t r = 0; r < rp->nruns; r++) {
		run_line(f, style, &rp->runs[r]);
		nwith += !!rp->runs[r].verdict;
	}
	if (nwith && style == STYLE_MARKDOWN)
		fputc('\n', f);	/* a table right under a list item would be read as part of it */
	if (nwith)
		items_table(f, style, rp, nwith);
}
