// SPDX-License-Identifier: MIT
/* The lead in words, on the first screen; see lead.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"
#include "judge.h"
#include "keys.h"
#include "lead.h"
#include "noise.h"
#include "power.h"
#include "primary.h"
#include "ratio.h"
#include "util.h"


/* "dearer", "cheaper", "higher", "more often", ... for a ratio above or below 1. */
static const char *change_word(const struct figure *fg, double ratio)
{
	const char *u = fg->decl ? fg->decl->unit : NULL;
	int up = ratio > 1;

	if (fg->kind == KEY_KIND_COUNT || !strcmp(fg->probe, ATTRIBUTION))
		return up ? "more often" : "less often";
	if (u && (!strcmp(u, "ns") || !strcmp(u, "us") || !strcmp(u, "ms")) && fg->decl &&
	    fg->decl->dir == KEY_DIR_LOWER)
		return up ? "dearer" : "cheaper";
	return up ? "higher" : "lower";
}

/*
 * The run-record settings that differ between run 0 and run r, on every
 * lead row: "; differs: cpus 1 vs 2, ...".
 */
static void settings(struct sbuf *b, const struct report *rp, size_t r)
{
	static const char *const keys[] = {
		"cpus", "clocksource", "kernel", "accel", "cpu_model", "profile", "rounds",
		"cpu_dma_latency_us", "machine",
	};
	int any = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		json_t *x = json_object_get(rp->runs[0].head, keys[i]);
		json_t *y = json_object_get(rp->runs[r].head, keys[i]);
		struct sbuf sx = { 0 }, sy = { 0 };

		if (!x || !y || json_equal(x, y))
			continue;
		fmt_scalar(&sx, x);
		fmt_scalar(&sy, y);
		sbuf_addf(b, "%s%s %s vs %s", any++ ? ", " : "; differs: ", keys[i],
			  sx.s ? sx.s : "?", sy.s ? sy.s : "?");
		sbuf_free(&sx);
		sbuf_free(&sy);
	}
}

/* One leading figure as a sentence, with the settings that differ. */
static void row_words(struct sbuf *b, const struct report *rp, const struct figure *fg, size_t r)
{
	const struct agg *a = &fg->per_run[r], *base = &fg->per_run[0];
	const char *unit = fg->decl && fg->decl->unit ? fg->decl->unit : "";
	char x[64], y[64];
	struct judgement j;
	double ratio;

	judge(rp, fg, r, &j);
	ratio = j.how == JUDGE_COUNTS || j.how == JUDGE_EXTREMES ? exp(j.lr) : a->mean / base->mean;
	fmt_num(x, sizeof(x), base->mean);
	fmt_num(y, sizeof(y), a->mean);
	sbuf_addf(b, "%s: %s%s%s %s %.2fx %s: %s → %s%s%s", fg->probe, fg->name, *fg->ident ? " " : "",
		  fg->ident, fg->key, ratio, change_word(fg, ratio), x, y, *unit ? " " : "", unit);
	if (j.how == JUDGE_COUNTS)
		sbuf_addf(b, " (events per s of its rounds, p %.2g)", j.p);
	else if (j.how == JUDGE_EXTREMES)
		sbuf_addf(b, " (its rounds' maxima by ranks, p %.2g)", j.p);
	else if (j.how == JUDGE_INTERVALS && j.floor_measured && j.floor >= 1.005)
		sbuf_addf(b, ", beyond ±%.0f %% between runs", (j.floor - 1) * 100);
	else if (j.how == JUDGE_WELCH || j.how == JUDGE_RANKS)
		sbuf_addf(b, " (p %.2g over the runs a side)", j.p);
	settings(b, rp, r);
}

/*
 * "false rows: ...; detectable here ...: clocks 1.12x / 1.6x, ...": per
 * probe its steadiest figure's detectable ratio, then the median of its
 * figures' (the note under the table names the steadiest).
 */
static void promise(struct sbuf *b, const struct report *rp, size_t r)
{
	const char *last = NULL;
	int any = 0;

	sbuf_addf(b, "false rows: at most %.0f %% of identical pairs lead with any row; detectable "
		  "here (a factor this large leads in 80 %% of pairs), its steadiest figure / half "
		  "its figures:", JUDGE_ALPHA * 100);
	for (size_t i = 0; i < rp->nfigs; i++) {
		struct power pw;

		if (last && !strcmp(last, rp->figs[i].probe))
			continue;
		last = rp->figs[i].probe;
		if (!power_detectable(rp, last, r, &pw))
			continue;
		sbuf_addf(b, "%s %s %.3gx / %.3gx", any++ ? "," : "", last, pw.least, pw.median);
	}
	if (!any)
		sbuf_adds(b, " nothing with an interval");
}

/*
 * Where run r booted another clocksource than run 0 and the default clock
 * read as booted does not lead by itself: that read, first, as a changed
 * setting whose size its between-run floor may hide. "clocksource hpet ->
 * acpi_pm, a setting: the default clock as booted (...) 0.50x cheaper:
 * 1528.7 -> 758.9 ns; identical boots vary by up to 1.99x here, so its size
 * is not established". 1 when printed.
 */
static int booted_clock_words(struct sbuf *b, const struct report *rp, size_t r)
{
	const struct figure *fg = primary_booted_clock(rp);
	const char *c0 = run_booted_clocksource(&rp->runs[0]);
	const char *cr = run_booted_clocksource(&rp->runs[r]);
	const struct agg *a, *base;
	struct judgement j;
	char x[64], y[64];
	double ratio, floor;
	int measured = 0;

	if (!fg || !c0 || !cr || !strcmp(c0, cr) || judge(rp, fg, r, &j))
		return 0;
	a = &fg->per_run[r];
	base = &fg->per_run[0];
	if (!a->n || !base->n || !(a->mean > 0) || !(base->mean > 0))
		return 0;
	ratio = a->mean / base->mean;
	floor = noise_floor_of(rp, fg, r, &measured);
	fmt_num(x, sizeof(x), base->mean);
	fmt_num(y, sizeof(y), a->mean);
	sbuf_addf(b, "clocksource %s → %s, a setting: the default clock as booted (%s through libc) "
		  "%.2fx %s: %s → %s ns; ", c0, cr, fg->name, ratio, change_word(fg, ratio), x, y);
	if (measured)
		sbuf_addf(b, "identical boots vary by up to %.3gx here", floor);
	else
		sbuf_adds(b, "no between-run floor is measured for it here");
	sbuf_adds(b, ", so its size is not established");
	return 1;
}

void lead_words_print(FILE *f, const struct report *rp, enum style style)
{
	size_t *rk, r = rp->nruns - 1, n, shown = 0;
	struct sbuf b = { 0 };
	char *h;

	if (rp->nruns < 2)
		return;
	n = lead_ranked(rp, &rk);
	h = xasprintf("What changed, %s against %s", rp->runs[r].label, rp->runs[0].label);
	fmt_heading(f, style, 2, h);
	free(h);
	if (booted_clock_words(&b, rp, r))
		table_wrapped(f, style, b.s);
	for (size_t k = 0; k < n && shown < LEAD_WORDS_ROWS; k++) {
		const struct figure *fg = &rp->figs[rk[k]];
		struct judgement j;

		/* of several runs, the rows that lead for the last one */
		if (rp->nruns > 2 && strcmp(fg->probe, ATTRIBUTION) && !judge(rp, fg, r, &j))
			continue;
		sbuf_reset(&b);
		row_words(&b, rp, fg, r);
		shown++;
		table_wrapped(f, style, b.s);
	}
	if (!shown) {
		sbuf_reset(&b);
		if (rp->nruns == 2 && rp->nfigs && judge_both_busy(rp, &rp->figs[0], 1))
			sbuf_addf(&b, "(both runs ran beside other work using %.0f %% of the CPUs or more: no "
				  "figure compares by ratio; run on an idle machine, or several a side)",
				  CONDITIONS_BUSY_PCT);
		else
			sbuf_addf(&b, "(no figure differs from %s by more than its noise)",
				  rp->runs[0].label);
		table_wrapped(f, style, b.s);
	}
	sbuf_reset(&b);
	promise(&b, rp, r);
	table_wrapped(f, style, b.s);
	sbuf_free(&b);
	free(rk);
}
