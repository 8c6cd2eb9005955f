// SPDX-License-Identifier: MIT
/* One run's tables; see format_run.h. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"
#include "export.h"
#include "fold.h"
#include "verdict.h"
#include "format.h"
#include "format_run.h"
#include "keys.h"
#include "schema.h"
#include "lead.h"
#include "lineup.h"
#include "show.h"
#include "sides.h"
#include "table.h"
#include "util.h"

/* --- the run header ------------------------------------------------------- */

/* Keys of the run record in the order a person wants them; the rest follow. */
static const char *const head_order[] = {
	"version", "env", "machine", "cpu_model", "cpus", "kernel", "variant",
	"clocksource", "start", "start_time", "cmdline",
};

static int is_scalar(const json_t *v)
{
	return v && !json_is_object(v) && !json_is_array(v) && !json_is_null(v);
}

static void kv(FILE *f, enum style style, const char *key, const char *val)
{
	struct sbuf first = { 0 };

	if (style == STYLE_TEXT) {
		/* the key's column, then the value wrapped under itself */
		sbuf_adds(&first, "  ");
		sbuf_add_visible(&first, key);
		sbuf_addf(&first, " %*s", strlen(key) >= 13 ? 0 : (int)(13 - strlen(key)), "");
		table_item(f, style, first.s, "                ", val);
		sbuf_free(&first);
		return;
	}
	fputs(style == STYLE_MARKDOWN ? "- **" : "  ", f);
	table_text(f, style, key);
	fputs(style == STYLE_MARKDOWN ? "**: " : " ", f);
	table_text(f, style, val);
	fputc('\n', f);
}

static void print_head(FILE *f, const struct run *run, enum style style)
{
	struct sbuf v = { 0 };
	const char *key;
	json_t *val;

	for (size_t i = 0; i < ARRAY_SIZE(head_order); i++) {
		val = json_object_get(run->head, head_order[i]);
		if (!is_scalar(val))
			continue;
		sbuf_reset(&v);
		fmt_scalar(&v, val);
		kv(f, style, head_order[i], v.s);
	}
	json_object_foreach(run->head, key, val) {
		int known = !strcmp(key, "type");

		for (size_t i = 0; i < ARRAY_SIZE(head_order) && !known; i++)
			known = !strcmp(key, head_order[i]);
		if (known || !is_scalar(val))
			continue;
		sbuf_reset(&v);
		fmt_scalar(&v, val);
		kv(f, style, key, v.s);
	}
	if (!run->head)
		kv(f, style, "run", "no run record: the capture began after it, "
		   "or the boot never reached the suite");
	/* what the firmware stub and the calibration found, before the suite ran */
	for (size_t i = 0; i < json_array_size(run->boot); i++) {
		json_t *rec = json_array_get(run->boot, i);

		sbuf_reset(&v);
		json_object_foreach(rec, key, val) {
			if (!strcmp(key, "type") || !is_scalar(val))
				continue;
			sbuf_addf(&v, "%s%s=", v.len ? " " : "", key);
			fmt_scalar(&v, val);
		}
		kv(f, style, json_string_value(json_object_get(rec, "type")), v.s ? v.s : "");
	}
	sbuf_free(&v);
}

/* --- one run's tables ----------------------------------------------------- */

/*
 * A probe's layout is its own declaration (show.h); columns whose keys it
 * did not write are left out, and keys no column names follow as generic
 * columns.
 */

/* Layout columns must match at least this many keys to be worth using. */
#define LAYOUT_MIN_COLS 2

struct col {
	const char *title;
	const char *key;
	const char *key2;
	const struct show_col *spec;	/* how key2 joins key */
	int numeric;
};

struct probe_cols {
	struct col *v;
	size_t n, cap;
};

static void add_col(struct probe_cols *pc, const char *title, const char *key, const char *key2,
		    const struct show_col *spec, int numeric)
{
	grow(&pc->v, &pc->cap, pc->n + 1, sizeof(*pc->v));
	pc->v[pc->n++] = (struct col){ title, key, key2, spec, numeric };
}

static int bookkeeping(const char *key)
{
	return !strcmp(key, "type") || !strcmp(key, "probe") || !strcmp(key, "name") ||
	       !strcmp(key, "iteration");
}

/* Every key the results of a probe carry, in the order first written: key -> numeric. */
static json_t *probe_keys(const struct run *run, const size_t *idx, size_t n)
{
	json_t *keys = json_object();

	for (size_t i = 0; i < n; i++) {
		const struct result *r = &run->res[idx[i]];
		size_t *order, nk = result_keys_by(r, KEYS_AS_SCALARS, &order);

		for (size_t k = 0; k < nk; k++) {
			const struct rkey *rk = &r->keys[order[k]];

			if (bookkeeping(rk->key) || json_object_get(keys, rk->key))
				continue;
			json_object_set_new(keys, rk->key, json_boolean(rk->scalar_numeric));
		}
		free(order);
	}
	return keys;
}

static const char *claim(json_t *keys, json_t *claimed, const char *pat)
{
	const char *key;
	json_t *val;

	if (!pat)
		return NULL;
	json_object_foreach(keys, key, val) {
		if (!json_object_get(claimed, key) && !fnmatch(pat, key, 0)) {
			json_object_set_new(claimed, key, json_true());
			return key;
		}
	}
	return NULL;
}

static const struct show_layout *find_layout(const char *probe)
{
	const struct show_decl *d = show_find(probe);

	return d ? d->layout : NULL;
}

/*
 * A probe without a layout of its own: the figures its registry row promises
 * (the run record's "figures"), headline first, lead the columns.
 */
static void figure_columns(json_t *keys, json_t *figs, json_t *claimed, struct probe_cols *pc)
{
	size_t i;
	json_t *f;

	json_array_foreach(figs, i, f) {
		const char *k = json_string_value(f);

		if (k && json_object_get(keys, k) && !json_object_get(claimed, k)) {
			json_object_set_new(claimed, k, json_true());
			add_col(pc, k, k, NULL, NULL, json_is_true(json_object_get(keys, k)));
		}
	}
}

/*
 * A key only --full shows in a run's tables: a budget or context; an
 * identity too when the name column says it (ident_in_name).
 */
static int full_only(const char *probe, const char *key, int ident_in_name)
{
	const struct key_decl *d = keys_find(probe, key);

	return d && (d->cls == KEY_BUDGET || d->cls == KEY_CONTEXT ||
		     (d->cls == KEY_ID && ident_in_name));
}

/* Do two of the results share a name? Then the name column says their identity too. */
static int has_namesakes(const struct run *run, const size_t *idx, size_t n)
{
	json_t *seen = json_object();
	int dup = 0;

	for (size_t i = 0; i < n && !dup; i++) {
		dup = json_object_get(seen, run->res[idx[i]].name) != NULL;
		json_object_set_new(seen, run->res[idx[i]].name, json_true());
	}
	json_decref(seen);
	return dup;
}

static void probe_columns(json_t *keys, const struct show_layout *lay, json_t *figs, const char *probe,
			  int full, int ident_in_name, struct probe_cols *pc)
{
	json_t *claimed = json_object();
	const char *key;
	json_t *val;

	/* the row's name first: what a folded table repeats */
	add_col(pc, "name", NULL, NULL, NULL, 0);
	for (size_t i = 0; lay && i < ARRAY_SIZE(lay->cols) && lay->cols[i].title; i++) {
		const struct show_col *cs = &lay->cols[i];
		const char *k = claim(keys, claimed, cs->pat);
		const char *k2 = k ? claim(keys, claimed, cs->pat2) : NULL;

		if (k && (full || !full_only(probe, k, ident_in_name)))
			add_col(pc, cs->title, k, k2, cs,
				json_is_true(json_object_get(keys, k)));
	}
	if (pc->n < 1 + LAYOUT_MIN_COLS) {
		pc->n = 1;
		json_object_clear(claimed);
		figure_columns(keys, figs, claimed, pc);
	}
	json_object_foreach(keys, key, val)
		if (json_is_true(val) && !json_object_get(claimed, key) &&
		    (full || !full_only(probe, key, ident_in_name)))
			add_col(pc, key, key, NULL, NULL, 1);
	json_object_foreach(keys, key, val)
		if (!json_is_true(val) && !json_object_get(claimed, key) &&
		    (full || !full_only(probe, key, ident_in_name)))
			add_col(pc, key, key, NULL, NULL, 0);
	json_decref(claimed);
}

/* A result's value for key: a figure's mean over iterations, else as written. */
static int result_cell(const struct result *r, const char *key, struct sbuf *out)
{
	const struct rkey *k = result_key(r, key);
	char num[NUM_MAX];

	if (!k)
		return 0;
	if (k->first_is_figure) {
		struct agg a;

		result_agg(r, key, &a);
		/* a mean as a mean; an interval says how it combined */
		if (a.combine == COMBINE_MEAN)
			fmt_value(num, sizeof(num), a.mean, fmt_unit_ns(r->probe, key));
		else
			fmt_agg_in(num, sizeof(num), &a, fmt_unit_ns(r->probe, key));
		sbuf_adds(out, num);
	} else if (json_is_number(k->first) && fmt_unit_ns(r->probe, key)) {
		fmt_value(num, sizeof(num), json_num(k->first), fmt_unit_ns(r->probe, key));
		sbuf_adds(out, num);
	} else {
		fmt_scalar(out, k->first);
	}
	return 1;
}

static double sort_value(const struct result *r, const char *key)
{
	struct agg a;

	result_agg(r, key, &a);
	return a.n ? a.mean : NAN;
}

struct sort_row {
	const struct result *r;
	double v;
	size_t seq;
	int descending;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct sort_row *x = a, *y = b;

	/* rows without the figure go last, in the order written */
	if (isnan(x->v) != isnan(y->v))
		return isnan(x->v) ? 1 : -1;
	if (!isnan(x->v) && x->v != y->v)
		return (x->v < y->v) == !x->descending ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* What a column shows, from the probe's key table (keys.c): "what1 / what2 (unit)". */
static void col_legend(struct table *t, size_t c, const char *probe, const struct col *col)
{
	const char *what = col->key ? keys_what(probe, col->key) : NULL;
	const char *what2 = col->key2 ? keys_what(probe, col->key2) : NULL;
	const struct key_decl *d = col->key ? keys_find(probe, col->key) : NULL;
	struct sbuf b = { 0 };

	if (!what)
		return;
	sbuf_addf(&b, "%s%s%s", what, what2 ? " / " : "", what2 ? what2 : "");
	/* a time is scaled in its cell (fmt_value); another unit is said here */
	if (d && d->unit && !fmt_unit_ns(probe, col->key))
		sbuf_addf(&b, " (%s)", d->unit);
	table_legend(t, c, b.s);
	sbuf_free(&b);
}

/* The table of one probe: the n results run->res[idx[0..n)], all of that probe. */
static void print_probe(FILE *f, const struct run *run, const size_t *idx, size_t n,
			enum style style, int full)
{
	const char *probe = run->res[idx[0]].probe;
	const struct show_layout *lay = find_layout(probe);
	json_t *keys = probe_keys(run, idx, n);
	struct probe_cols pc = { 0 };
	struct sort_row *rows = xcalloc(n, sizeof(*rows));
	const char **titles;
	struct table *t;
	struct sbuf cell = { 0 }, tmp = { 0 };
	size_t nrows = 0;
	int ident_in_name = has_namesakes(run, idx, n);

	probe_columns(keys, lay, run->head ? json_object_get(json_object_get(run->head, "figures"), probe) : NULL,
		      probe, full, ident_in_name, &pc);
	titles = xcalloc(pc.n, sizeof(*titles));
	for (size_t c = 0; c < pc.n; c++)
		titles[c] = pc.v[c].title;
	t = table_new(pc.n, titles);
	t->fold = 1;	/* a run's own table: read at 120 columns */
	for (size_t c = 0; c < pc.n; c++) {
		table_align(t, c, pc.v[c].numeric ? 'r' : 'l');
		col_legend(t, c, probe, &pc.v[c]);
	}
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &run->res[idx[i]];

		rows[nrows] = (struct sort_row){ r, NAN, nrows, lay && lay->descending };
		if (lay && lay->sort_key)
			rows[nrows].v = sort_value(r, lay->sort_key);
		nrows++;
	}
	qsort(rows, nrows, sizeof(*rows), cmp_rows);
	for (size_t i = 0; i < nrows; i++) {
		size_t row = table_row(t);

		for (size_t c = 0; c < pc.n; c++) {
			const struct col *col = &pc.v[c];

			sbuf_reset(&cell);
			if (!col->key) {
				/* with what tells it from its namesakes: each folded part repeats it */
				sbuf_adds(&cell, rows[i].r->name);
				if (ident_in_name && *rows[i].r->ident)
					sbuf_addf(&cell, "  %s", rows[i].r->ident);
			} else if (!result_cell(rows[i].r, col->key, &cell)) {
				sbuf_adds(&cell, "-");
			} else if (col->key2) {
				sbuf_reset(&tmp);
				if (!result_cell(rows[i].r, col->key2, &tmp))
					sbuf_adds(&tmp, "-");
				table_setf(t, row, c, "%s%s%s%s", cell.s, col->spec->mid, tmp.s,
					   col->spec->end);
				continue;
			}
			table_set(t, row, c, cell.s);
		}
	}
	fmt_heading(f, style, 2, probe);
	table_print(t, f, style, "  ");
	table_free(t);
	free(titles);
	free(pc.v);
	free(rows);
	sbuf_free(&cell);
	sbuf_free(&tmp);
	json_decref(keys);
}

const char *rec_str(const json_t *rec, const char *key)
{
	const char *s = json_string_value(json_object_get(rec, key));

	return s ? s : "";
}

/*
 * Skips and errors, each with its reason: what a run could not measure. A
 * repeated run says the same thing every iteration; say it once, counted.
 */
void print_notes(FILE *f, const struct report *rp, size_t first, size_t count, enum style style)
{
	static const char *const titles[] = { "run", "type", "probe", "name", "reason", "times" };
	int with_run = count > 1;
	struct table *t = table_new(ARRAY_SIZE(titles) - !with_run, titles + !with_run);
	size_t times_col = ARRAY_SIZE(titles) - 1 - !with_run;

	t->fold = 1;
	size_t n = 0;

	table_align(t, times_col, 'r');
	for (size_t i = first; i < first + count; i++) {
		const struct run *run = &rp->runs[i];
		json_t *seen = json_object();

		for (size_t k = 0; k < json_array_size(run->notes); k++) {
			json_t *rec = json_array_get(run->notes, k), *row_of;
			char *key = xasprintf("%s\x1f%s\x1f%s\x1f%s", rec_str(rec, "type"),
					      rec_str(rec, "probe"), rec_str(rec, "name"),
					      rec_str(rec, "reason"));
			size_t row, c = 0;

			row_of = json_object_get(seen, key);
			if (row_of) {
				size_t r = (size_t)json_integer_value(json_array_get(row_of, 0));
				json_int_t times = json_integer_value(json_array_get(row_of, 1)) + 1;

				json_array_set_new(row_of, 1, json_integer(times));
				table_setf(t, r, times_col, "%lld", (long long)times);
				free(key);
				continue;
			}
			row = table_row(t);
			json_object_set_new(seen, key, json_pack("[I, I]", (json_int_t)row, 1));
			free(key);
			if (with_run)
				table_set(t, row, c++, run->label);
			table_set(t, row, c++, rec_str(rec, "type"));
			table_set(t, row, c++, rec_str(rec, "probe"));
			table_set(t, row, c++, rec_str(rec, "name"));
			table_set(t, row, c, rec_str(rec, "reason"));
			n++;
		}
		json_decref(seen);
	}
	if (n) {
		fmt_heading(f, style, 2, "Skipped and failed");
		table_print(t, f, style, "  ");
	}
	table_free(t);
}

void end_summary(struct sbuf *b, const struct run *run)
{
	static const struct {
		const char *key, *what;
	} counts[] = {
		{ "probes_ok", "ok" },
		{ "probes_skipped", "skipped" },
		{ "probes_failed", "failed" },
	};
	json_t *written = json_object_get(run->end, "records");

	if (!run->end) {
		sbuf_adds(b, "no end record: the run did not finish (crash, hang or cut capture)");
		return;
	}
	sbuf_adds(b, "probes");
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		json_t *v = json_object_get(run->end, counts[i].key);

		sbuf_addf(b, "%s %s ", i ? "," : "", counts[i].what);
		fmt_scalar(b, v);
	}
	if (json_is_number(written)) {
		sbuf_adds(b, "; records written ");
		fmt_scalar(b, written);
		sbuf_addf(b, ", read %zu", run->nsuite);
	}
	/* the suite's record cap: these went to the console, not to the saved file */
	if (json_is_number(json_object_get(run->end, "records_not_kept"))) {
		sbuf_adds(b, " (not kept in the results file: ");
		fmt_scalar(b, json_object_get(run->end, "records_not_kept"));
		sbuf_adds(b, ")");
	}
}

/* Figures with more than one value in this run: their spread over iterations. */
static void print_spread(FILE *f, const struct report *rp, size_t ri, enum style style)
{
	static const char *const titles[] = {
		"result / figure", "n", "mean", "min", "max", "stddev", "rsd%",
	};
	struct table *t = table_new(ARRAY_SIZE(titles), titles);
	const char *last = NULL;
	char num[NUM_MAX];
	size_t n = 0;

	for (size_t c = 1; c < ARRAY_SIZE(titles); c++)
		table_align(t, c, 'r');
	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];
		const struct agg *a = &fg->per_run[ri];
		double vals[] = { a->mean, a->min, a->max, a->stddev };
		size_t row;

		/* an as-booted row repeats one of the run's own */
		if (a->n < 2 || fg->as_booted)
			continue;
		if (!last || strcmp(last, fg->id)) {
			char *g = xasprintf("%s: %s%s%s", fg->probe, fg->name,
					    *fg->ident ? " " : "", fg->ident);

			table_group(t, g);
			free(g);
			last = fg->id;
		}
		row = table_row(t);
		table_setf(t, row, 0, "  %s", fg->key);
		table_setf(t, row, 1, "%zu", a->n);
		for (size_t k = 0; k < ARRAY_SIZE(vals); k++) {
			fmt_value(num, sizeof(num), vals[k], fmt_decl_unit_ns(fg->decl));
			table_set(t, row, 2 + k, num);
		}
		/* an interval's iterations combine into their intersection, not a mean */
		if (a->combine != COMBINE_MEAN) {
			fmt_agg_in(num, sizeof(num), a, fmt_decl_unit_ns(fg->decl));
			table_set(t, row, 2, num);
			table_set(t, row, 6, "-");
		} else if (a->mean != 0)
			table_setf(t, row, 6, "%.2f", 100 * a->stddev / fabs(a->mean));
		else
			table_set(t, row, 6, "-");
		n++;
	}
	if (n) {
		char *h = xasprintf("Spread over %d iterations", rp->runs[ri].iterations);

		fmt_heading(f, style, 2, h);
		table_print(t, f, style, "  ");
		free(h);
	}
	table_free(t);
}

void print_run(FILE *f, const struct report *rp, size_t ri, enum style style, int full)
{
	const struct run *run = &rp->runs[ri];
	const char **probes = xcalloc(run->nres, sizeof(*probes));
	struct groups by_probe;
	struct sbuf b = { 0 };
	char *h;

	for (size_t i = 0; i < run->nres; i++)
		probes[i] = run->res[i].probe;
	group_strings(probes, run->nres, &by_probe);
	free(probes);

	h = xasprintf("Run %d of %s: %s", run->seq, run->file, run->label);
	fmt_heading(f, style, 1, h);
	free(h);
	if (style == STYLE_MARKDOWN)
		fputc('\n', f);
	print_head(f, run, style);
	for (size_t g = 0; g < by_probe.n; g++) {
		const size_t *in = by_probe.idx + by_probe.start[g];

		/* the calibration is in the header already; its figures are for comparisons */
		if (strcmp(run->res[in[0]].probe, "calib"))
			print_probe(f, run, in, by_probe.start[g + 1] - by_probe.start[g], style, full);
	}
	print_spread(f, rp, ri, style);
	print_notes(f, rp, ri, 1, style);
	end_summary(&b, run);
	fmt_heading(f, style, 2, "End");
	fputs(style == STYLE_MARKDOWN ? "" : "  ", f);
	table_text(f, style, b.s);
	fputc('\n', f);
	sbuf_free(&b);
	groups_free(&by_probe);
}

