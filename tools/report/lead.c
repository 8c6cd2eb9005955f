// SPDX-License-Identifier: MIT
/* The opening of a comparison; see lead.h. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"
#include "judge.h"
#include "keys.h"
#include "lead.h"
#include "noise.h"
#include "primary.h"
#include "ratio.h"
#include "schema.h"
#include "power.h"
#include "student.h"
#include "util.h"

/* Bookkeeping, or measured on every boot anew: not what the machine is. */
static const char *const not_compared[] = {
	"type", "iteration", "missing", "needs_root", "stub_tsc_calib", "stub_tsc_hz",
	"kernel_tsc_khz", "kernel_tsc_line",
};

static int compared(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(not_compared); i++)
		if (!strcmp(key, not_compared[i]))
			return 0;
	return 1;
}

static json_t *text_of(const json_t *v)
{
	struct sbuf b = { 0 };
	json_t *s;

	if (json_is_null(v))
		return json_string("unknown");
	fmt_scalar(&b, v);
	s = json_string(b.s ? b.s : "");
	sbuf_free(&b);
	return s;
}

/* "key" or "key.sub" (enters_kernel's clocks) -> its text, in record order. */
static json_t *flatten(const json_t *fp)
{
	json_t *out = json_object(), *v, *sv;
	const char *k, *sk;

	json_object_foreach((json_t *)fp, k, v) {
		if (!compared(k))
			continue;
		if (!json_is_object(v)) {
			json_object_set_new(out, k, text_of(v));
			continue;
		}
		json_object_foreach(v, sk, sv) {
			char *key = xasprintf("%s.%s", k, sk);

			json_object_set_new(out, key, text_of(sv));
			free(key);
		}
	}
	return out;
}

/*
 * The run record's settings that bear on every figure, beside the
 * fingerprint's facts: how many CPUs the suite had (a run under `taskset -c
 * 0` has 1), its profile, rounds and held latency limit; "run.KEY".
 */
static void run_settings(json_t *flat, const json_t *head)
{
	static const char *const keys[] = { "cpus", "profile", "rounds", "repeat", "cpu_dma_latency_us" };

	for (size_t i = 0; head && i < ARRAY_SIZE(keys); i++) {
		json_t *v = json_object_get(head, keys[i]);
		char *key = xasprintf("run.%s", keys[i]);

		if (v)
			json_object_set_new(flat, key, text_of(v));
		free(key);
	}
}

/* 1 when the runs that have KEY's field disagree (a run without a fingerprint has no say). */
static int differs(json_t *const *flat, size_t n, const char *key)
{
	const char *first = NULL;

	for (size_t r = 0; r < n; r++) {
		const char *v;

		if (!flat[r])
			continue;
		v = json_string_value(json_object_get(flat[r], key));
		v = v ? v : "-";
		if (!first)
			first = v;
		else if (strcmp(first, v))
			return 1;
	}
	return 0;
}

static struct table *differences_table(const struct report *rp, json_t *const *flat,
				       json_t *keys)
{
	const char **titles = xcalloc(rp->nruns + 1, sizeof(*titles));
	struct table *t;
	const char *key;
	json_t *unused;

	titles[0] = "field";
	for (size_t r = 0; r < rp->nruns; r++)
		titles[r + 1] = rp->runs[r].label;
	t = table_new(rp->nruns + 1, titles);
	free(titles);
	json_object_foreach(keys, key, unused) {
		size_t row;

		if (!differs(flat, rp->nruns, key))
			continue;
		row = table_row(t);
		table_set(t, row, 0, key);
		for (size_t r = 0; r < rp->nruns; r++) {
			const char *v = flat[r] ? json_string_value(json_object_get(flat[r], key)) : NULL;

			table_set(t, row, r + 1, v ? v : "-");
		}
	}
	return t;
}

/*
 * Where the clocksources differ: what reading the default clock costs on
 * each machine as it booted, with each ratio to the first run and the
 * floor it would have to pass to lead.
 */
static void print_booted_clock(FILE *f, const struct report *rp, enum style style)
{
	const struct figure *fg = primary_booted_clock(rp);
	const struct agg *base = fg ? &fg->per_run[0] : NULL;
	char num[64], ratio[64];
	struct sbuf b = { 0 };

	if (!fg)
		return;
	sbuf_addf(&b, "reading the default clock as booted (%s through libc), ns:", fg->name);
	for (size_t r = 0; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r];
		const char *cs = run_booted_clocksource(&rp->runs[r]);

		fmt_num(num, sizeof(num), a->mean);
		sbuf_addf(&b, "%s %s %s (%s", r ? ";" : "", rp->runs[r].label, a->n ? num : "-",
			  cs ? cs : "clocksource unknown");
		if (r && a->n && base->n && a->mean > 0 && base->mean > 0) {
			fmt_ratio(ratio, sizeof(ratio), a->mean, base->mean);
			sbuf_addf(&b, ", %s, noise floor %.3gx", ratio, noise_floor_of(rp, fg, r, NULL));
		}
		sbuf_adds(&b, ")");
	}
	table_wrapped(f, style, b.s);
	sbuf_free(&b);
}

static void print_differences(FILE *f, const struct report *rp, enum style style)
{
	json_t **flat = xcalloc(rp->nruns, sizeof(*flat)), *keys = json_object(), *v;
	size_t have = 0;
	const char *k;
	struct table *t;

	fmt_heading(f, style, 2, "What differs between these machines");
	for (size_t r = 0; r < rp->nruns; r++) {
		if (!rp->runs[r].fingerprint)
			continue;
		flat[r] = flatten(rp->runs[r].fingerprint);
		run_settings(flat[r], rp->runs[r].head);
		have++;
		json_object_foreach(flat[r], k, v)
			json_object_set(keys, k, json_true());
	}
	if (have < 2) {
		fprintf(f, "  (%zu of %zu runs carry a fingerprint record: nothing to compare)\n", have,
			rp->nruns);
	} else {
		t = differences_table(rp, flat, keys);
		if (t->nrows > 1)
			table_print(t, f, style, "  ");
		else
			fprintf(f, "  (the fingerprints and the runs' settings agree)\n");
		table_free(t);
		if (differs(flat, rp->nruns, "clocksource"))
			print_booted_clock(f, rp, style);
	}
	for (size_t r = 0; r < rp->nruns; r++)
		json_decref(flat[r]);
	free(flat);
	json_decref(keys);
}

/*
 * A change from 0 (warps 0 -> 12, SMIs 0 -> 400, stolen time 0 -> 5.2 %)
 * has no ratio, and is news: it ranks above every ratio, larger differences
 * first. A count is beyond noise when |x - y| > LEAD_POISSON_SE sqrt(x + y)
 * (two Poisson counts, events over every iteration); anything else beyond
 * the runs' spreads where they have them, else beyond its unit's floor.
 */
#define ZERO_SCORE_BASE 100.0
/* The comparison's own question (primary_question()) ranks above every other row. */
#define PRIMARY_SCORE_BASE (2 * ZERO_SCORE_BASE)

static int poisson_apart(double x, double y)
{
	return fabs(x - y) > LEAD_POISSON_SE * sqrt(x + y);
}

static double zero_score_of(double diff, double floor)
{
	return ZERO_SCORE_BASE + log1p(fabs(diff) / floor);
}

/* The smallest difference from 0 that leads, by unit, where no spread says more. */
static double zero_floor(const char *unit)
{
	static const struct {
		const char *unit;
		double floor;
	} floors[] = {
		{ "ns", 100 }, { "us", 0.1 }, { "ms", 1e-4 }, { "s", 1e-7 }, { "%", 1 },
	};

	for (size_t i = 0; unit && i < ARRAY_SIZE(floors); i++)
		if (!strcmp(unit, floors[i].unit))
			return floors[i].floor;
	return NAN;	/* no floor known: such a figure does not lead from 0 */
}

static double zero_score(const struct agg *a, const struct agg *base, const struct key_decl *d)
{
	double floor = zero_floor(d ? d->unit : NULL), spread = 0;

	if (ratio_is_count(d))
		return poisson_apart(a->mean * (double)a->n, base->mean * (double)base->n) ?
			       zero_score_of(a->mean - base->mean, 1) : 0;
	if (agg_has_spread(a))
		spread += a->stddev;
	if (agg_has_spread(base))
		spread += base->stddev;
	if (spread > 0)
		return fabs(a->mean - base->mean) > spread ? zero_score_of(a->mean - base->mean, spread) : 0;
	return fabs(a->mean - base->mean) > floor ? zero_score_of(a->mean - base->mean, floor) : 0;
}

/* Is the log of a ratio of counts beyond LEAD_POISSON_SE standard errors for nx and ny events? */
static int poisson_beyond(double log_ratio, double nx, double ny)
{
	return fabs(log_ratio) > LEAD_POISSON_SE * sqrt(1 / nx + 1 / ny);
}

/*
 * Attribution counts come from sources driven by time (the timer tick) and
 * by work (a line printed, a page touched), and small counts differ by
 * chance. A count leads only when both its rate per second of the probe's
 * run and its count per run differ by more than three standard errors of
 * Poisson counts (the log of a ratio of counts x and y has a standard error
 * of about sqrt(1/x + 1/y)), the same way, and beyond the floor identical
 * runs set (noise.h); by the smaller of the two.
 */
/*
 * An attribution count's floor: the ratio its between-run variance (noise.h)
 * lets two identical runs reach with probability JUDGE_ALPHA over the
 * attribution figures compared at once (Bonferroni; Student's t at the
 * table's degrees of freedom); LEAD_MIN_RATIO where
 * none was measured.
 */
static double count_floor(const struct report *rp, const struct figure *fg, size_t r)
{
	int measured;
	unsigned df;
	double var = noise_between_var(rp, fg, r, &df, &measured);
	size_t m = 0;

	for (size_t i = 0; i < rp->nfigs; i++)
		m += !strcmp(rp->figs[i].probe, fg->probe);
	if (!measured)
		return LEAD_MIN_RATIO;
	return exp(student_quantile(JUDGE_ALPHA / (double)(m ? m : 1), df ? df : 1) * sqrt(2 * var));
}

static double attribution_score(const struct report *rp, const struct figure *fg)
{
	double base_rate, base_n, rate, n, best = 0;

	if (!ratio_attribution_rate(rp, fg, 0, &base_rate, &base_n) || base_n < 0)
		return 0;
	for (size_t r = 1; r < rp->nruns; r++) {
		double lr;

		if (!ratio_attribution_rate(rp, fg, r, &rate, &n) || n < 0 || (!n && !base_n) ||
		    judge_both_busy(rp, fg, r))
			continue;
		lr = ratio_attribution_log(rp, fg, r, &n, &base_n);
		if (!n || !base_n) {
			/* from 0: by the counts alone, and above every ratio */
			if (poisson_apart(n, base_n) && lr > log(count_floor(rp, fg, r)) &&
			    zero_score_of(n - base_n, 1) > best)
				best = zero_score_of(n - base_n, 1);
			continue;
		}
		if (isnan(lr) || !poisson_beyond(lr, n, base_n) ||
		    lr <= log(count_floor(rp, fg, r)))
			continue;
		best = fmax(best, lr);
	}
	return best;
}

double lead_figure_score(const struct report *rp, const struct figure *fg)
{
	const struct agg *base = &fg->per_run[0];
	enum key_kind kind = fg->kind;
	double best = 0;

	if (!ratio_may_lead(rp, fg))
		return 0;
	if (!strcmp(fg->probe, ATTRIBUTION))
		return attribution_score(rp, fg);
	if ((fg->decl && fg->decl->dir == KEY_DIR_ZERO) || kind == KEY_KIND_CONTEXT)
		return 0;
	for (size_t r = 1; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r];
		struct judgement j;

		/* a count or a maximum is judged as one (judge.h), never as news from 0 */
		if (kind != KEY_KIND_COUNT && kind != KEY_KIND_MAX &&
		    a->n && base->n && isfinite(a->mean) && isfinite(base->mean) && a->mean >= 0 &&
		    base->mean >= 0 && (a->mean == 0) != (base->mean == 0)) {
			if (judge_both_busy(rp, fg, r))
				continue;
			/* a count from 0 also beyond what identical runs showed so */
			if (!ratio_is_count(fg->decl) || ratio_log(rp, fg, r) > log(count_floor(rp, fg, r)))
				best = fmax(best, zero_score(a, base, fg->decl));
			continue;
		}
		if (judge(rp, fg, r, &j))	/* ranked by effect size, the own question first */
			best = fmax(best, fabs(j.lr) + (j.primary ? PRIMARY_SCORE_BASE : 0));
	}
	return best;
}

/* An attribution row of the lead: rates per second, as it was ranked. */
static void attribution_cells(struct table *t, size_t row, size_t c, const struct report *rp,
			      const struct figure *fg)
{
	double base_rate = 0, base_n, rate, n;
	int have_base = ratio_attribution_rate(rp, fg, 0, &base_rate, &base_n);
	char num[64], ratio[64];

	for (size_t r = 0; r < rp->nruns; r++) {
		int have = ratio_attribution_rate(rp, fg, r, &rate, &n);

		fmt_num(num, sizeof(num), rate);
		table_set(t, row, c++, have ? num : "-");
		if (!r)
			continue;
		if (have && have_base)
			fmt_ratio(ratio, sizeof(ratio), rate, base_rate);
		table_set(t, row, c++, have && have_base ? ratio : "-");
	}
}

/*
 * The ratio cell of a leading figure says how it was judged: Welch's p
 * where both sides repeated ("2.00x, p 0.003"), the shift and p of ranks
 * ("0.66x; by ranks 0.80x, p 0.0079"), and the conditions of the runs it
 * touches ("0.09x (hogs: other work 83 % of CPUs)").
 */
static void mark_judged(struct table *t, size_t row, const struct report *rp,
			const struct figure *fg)
{
	char ratio[64];

	for (size_t r = 1; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r], *base = &fg->per_run[0];
		struct judgement j;
		struct sbuf cond = { 0 };
		size_t nc;

		if (!a->n || !base->n || !(a->mean >= 0) || !(base->mean >= 0) ||
		    !strcmp(fg->probe, ATTRIBUTION))
			continue;
		nc = conditions_brief(&rp->runs[r], &cond);
		if (!nc)
			nc = conditions_brief(&rp->runs[0], &cond);
		judge(rp, fg, r, &j);
		fmt_ratio(ratio, sizeof(ratio), a->mean, base->mean);
		if (j.how == JUDGE_COUNTS)
			table_setf(t, row, 2 + 2 * r, "%.2fx per s, p %.2g%s%s%s", exp(j.lr), j.p,
				   nc ? " (" : "", nc ? cond.s : "", nc ? ")" : "");
		else if (j.how == JUDGE_EXTREMES)
			table_setf(t, row, 2 + 2 * r, "%s; by rounds' ranks %.2fx, p %.2g%s%s%s", ratio,
				   exp(j.lr), j.p, nc ? " (" : "", nc ? cond.s : "", nc ? ")" : "");
		else if (j.how == JUDGE_WELCH)
			table_setf(t, row, 2 + 2 * r, "%s, p %.2g%s%s%s", ratio, j.p, nc ? " (" : "",
				   nc ? cond.s : "", nc ? ")" : "");
		else if (j.how == JUDGE_RANKS)
			table_setf(t, row, 2 + 2 * r, "%s; by ranks %.2fx, p %.2g%s%s%s", ratio,
				   exp(j.lr), j.p, nc ? " (" : "", nc ? cond.s : "", nc ? ")" : "");
		else if (nc)
			table_setf(t, row, 2 + 2 * r, "%s (%s)", ratio, cond.s);
		sbuf_free(&cond);
	}
}

struct ranked {
	size_t i;
	double score;
};

static int by_score(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Has some other run a figure the first run has too? */
static int shares_figure(const struct report *rp)
{
	for (size_t i = 0; i < rp->nfigs; i++)
		for (size_t r = 1; r < rp->nruns && rp->figs[i].per_run[0].n; r++)
			if (rp->figs[i].per_run[r].n)
				return 1;
	return 0;
}

/* The lead's note (power.h), each of its lines wrapped at 120 columns. */
static void print_note_wrapped(FILE *f, const struct report *rp, enum style style)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		lead_print_note(f, rp, style);
		return;
	}
	lead_print_note(m, rp, STYLE_TEXT);
	fclose(m);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		table_wrapped(f, style, line + strspn(line, " "));
	free(text);
}

size_t lead_ranked(const struct report *rp, size_t **out)
{
	struct ranked *rk = xcalloc(rp->nfigs + 1, sizeof(*rk));
	size_t n = 0;

	for (size_t i = 0; i < rp->nfigs; i++)
		if ((rk[n].score = lead_figure_score(rp, &rp->figs[i])) > 0)
			rk[n++].i = i;
	qsort(rk, n, sizeof(*rk), by_score);
	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t k = 0; k < n; k++)
		(*out)[k] = rk[k].i;
	free(rk);
	return n;
}

static void print_top_figures(FILE *f, const struct report *rp, enum style style)
{
	size_t ncol = 2 + 2 * rp->nruns - 1, *rk;
	size_t n = lead_ranked(rp, &rk);
	const char **titles = xcalloc(ncol, sizeof(*titles));
	struct table *t;
	char *h;
	titles[0] = "probe";
	titles[1] = "result: figure";
	for (size_t r = 0, c = 2; r < rp->nruns; r++) {
		titles[c++] = rp->runs[r].label;
		if (r)
			titles[c++] = "ratio";
	}
	t = table_new(ncol, titles);
	for (size_t c = 2; c < ncol; c++)
		table_align(t, c, 'r');
	for (size_t k = 0, shown = 0, attr = 0; k < n && shown < LEAD_TOP_FIGURES; k++) {
		const struct figure *fg = &rp->figs[rk[k]];
		int is_attr = !strcmp(fg->probe, ATTRIBUTION);
		size_t row;

		/* what the machine did around the probes explains; the figures lead */
		if (is_attr && attr++ >= LEAD_TOP_ATTRIBUTION)
			continue;
		shown++;
		row = table_row(t);
		table_set(t, row, 0, fg->probe);
		if (is_attr) {
			table_setf(t, row, 1, "while %s ran: %s per s", fg->name, fg->key);
			attribution_cells(t, row, 2, rp, fg);
			continue;
		}
		table_setf(t, row, 1, "%s%s%s: %s", fg->name, *fg->ident ? "  " : "", fg->ident, fg->key);
		fmt_figure_cells(t, row, 2, rp, fg);
		mark_judged(t, row, rp, fg);
	}
	h = xasprintf("Figures furthest from %s, largest ratio first", rp->runs[0].label);
	fmt_heading(f, style, 2, h);
	if (n)
		table_print(t, f, style, "  ");
	else if (shares_figure(rp))
		fprintf(f, "  (no figure differs from %s by more than its noise)\n", rp->runs[0].label);
	else
		fprintf(f, "  (no figure compares)\n");
	if (shares_figure(rp))	/* the statistics under the table */
		print_note_wrapped(f, rp, style);
	free(h);
	free(titles);
	free(rk);
	table_free(t);
}

/* The results that never lead because they are circular, once each, with
 * the first one's why: "circular: ..." (docs/probes/drift.md). */
static void print_circular(FILE *f, const struct report *rp, enum style style)
{
	json_t *seen = json_object();
	const char *why = NULL;

	for (size_t r = 0; r < rp->nruns; r++)
		for (size_t i = 0; i < rp->runs[r].nres; i++) {
			const struct result *res = &rp->runs[r].res[i];

			if (!json_is_false(json_object_get(res->first, "independent")) ||
			    json_object_get(seen, res->id))
				continue;
			json_object_set_new(seen, res->id, json_true());
			fputs(why ? ", " : "  not leading, circular: ", f);
			table_text(f, style, res->probe);
			fputs(": ", f);
			table_text(f, style, res->name);
			why = why ? why : json_string_value(json_object_get(res->first, "why"));
		}
	if (json_object_size(seen)) {
		fputs("\n  (", f);
		table_text(f, style, why ? why : "their reference derives from what they measure");
		fputs(")\n", f);
	}
	json_decref(seen);
}

void print_lead(FILE *f, const struct report *rp, enum style style)
{
	print_differences(f, rp, style);
	print_top_figures(f, rp, style);
	print_circular(f, rp, style);
}
