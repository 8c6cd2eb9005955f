// SPDX-License-Identifier: MIT
/*
 * A machine's history as text, the answer first: per machine its changes,
 * newest first, each with the fingerprint fields that changed with it and
 * the runs left out as busy; then each figure's series. Every string from a record is written as
 * a person may see it (sbuf_add_visible). See history.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "util.h"

/* A change's line names this many figures at most; the series show the rest. */
#define HIST_FIGS_PER_LINE 4

static void add_num(struct sbuf *b, double v)
{
	char buf[64];

	fmt_num(buf, sizeof(buf), v);
	sbuf_adds(b, buf);
}

/* "2026-11-03" of an RFC 3339 start time; the whole of anything else; "no start time". */
static void add_date(struct sbuf *b, const char *start)
{
	struct sbuf d = { 0 };

	if (!*start)
		sbuf_adds(b, "no start time");
	sbuf_add(&d, start, strlen(start) >= 10 && start[4] == '-' ? 10 : strlen(start));
	sbuf_add_visible(b, d.s ? d.s : "");
	sbuf_free(&d);
}

/* Is word (length n) one of the words of s? */
static int has_word(const char *s, const char *word, size_t n)
{
	for (const char *p = s; *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len == n && !strncmp(p, word, n))
			return 1;
		p += len;
	}
	return 0;
}

/* The words of a not in b, each after sign, visible. */
static void add_words_missing(struct sbuf *b, const char *a, const char *other, const char *sign)
{
	for (const char *p = a; *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len && !has_word(other, p, len)) {
			char *w = xasprintf(" %s%.*s", sign, (int)len, p);

			sbuf_add_visible(b, w);
			free(w);
		}
		p += len;
	}
}

/* "kernel 6.1.112 → 6.12.9, microcode 0xb4 → 0xb6": fields that differ from x to y. */
static size_t add_fields(struct sbuf *b, const struct hist_run *x, const struct hist_run *y)
{
	size_t n = 0;

	for (size_t k = 0; k < HIST_NFIELDS; k++) {
		if (!strcmp(x->fp[k], y->fp[k]))
			continue;
		sbuf_addf(b, "%s%s", n++ ? ", " : "", hist_field_names[k]);
		if (!strcmp(hist_field_names[k], "cmdline")) {
			add_words_missing(b, y->fp[k], x->fp[k], "+");
			add_words_missing(b, x->fp[k], y->fp[k], "-");
			continue;
		}
		sbuf_adds(b, " ");
		sbuf_add_visible(b, *x->fp[k] ? x->fp[k] : "none");
		sbuf_adds(b, " → ");
		sbuf_add_visible(b, *y->fp[k] ? y->fp[k] : "none");
	}
	return n;
}

/* "clocks ...: ns_per_call 1.30x dearer (21.5 → 28 ns, beyond 1.13x)" */
static void add_change(struct sbuf *b, const struct history *h, const struct hist_change *c)
{
	const struct hist_fig *f = &h->figs[c->fig];
	double r = c->median_after / c->median_before;
	char *name = hist_fig_name(f);

	sbuf_add_visible(b, name);
	sbuf_addf(b, " %.2fx %s (", r >= 1 ? r : 1 / r, hist_change_word(f, r));
	add_num(b, c->median_before);
	sbuf_adds(b, " → ");
	add_num(b, c->median_after);
	if (f->unit) {
		sbuf_adds(b, " ");
		sbuf_add_visible(b, f->unit);
	}
	sbuf_addf(b, ", beyond %.2fx)", c->floor);
	free(name);
}

/* One line per run with changes: its figures, then what changed with them. */
static void print_changes(FILE *f, const struct history *h, const struct hist_machine *m)
{
	for (size_t i = 0; i < m->nch;) {
		const struct hist_change *c = &m->ch[i];
		const struct hist_run *y = &h->runs[m->runs[c->at]];
		struct sbuf b = { 0 };
		size_t j = i;

		sbuf_addf(&b, "  run %zu (", c->at + 1);
		add_date(&b, y->start);
		if (*y->conditions) {
			sbuf_adds(&b, "; ");
			sbuf_adds(&b, y->conditions);
		}
		sbuf_adds(&b, "): ");
		for (; j < m->nch && m->ch[j].at == c->at; j++)
			if (j - i < HIST_FIGS_PER_LINE) {
				sbuf_adds(&b, j > i ? ", " : "");
				add_change(&b, h, &m->ch[j]);
			}
		if (j - i > HIST_FIGS_PER_LINE)
			sbuf_addf(&b, " and %zu more (the series below)", j - i - HIST_FIGS_PER_LINE);
		sbuf_adds(&b, "; with it: ");
		if (!add_fields(&b, &h->runs[m->runs[c->before]], y))
			sbuf_adds(&b, "no fingerprint field changed");
		fprintf(f, "%s\n", b.s);
		sbuf_free(&b);
		i = j;
	}
}

/* A run's line: "  run 14 (2026-01-01, FILE): " */
static void add_run_at(struct sbuf *b, const struct history *h, const struct hist_machine *m, size_t i)
{
	const struct hist_run *r = &h->runs[m->runs[i]];

	sbuf_addf(b, "  run %zu (", i + 1);
	add_date(b, r->start);
	sbuf_adds(b, ", ");
	sbuf_add_visible(b, r->file);
	sbuf_adds(b, "): ");
}

/*
 * The conditions of the runs that are not busy (an emulator, records lost,
 * no end), as the comparison says them: once when every run has the same,
 * else run by run, up to HIST_CONDITION_RUNS of them.
 */
#define HIST_CONDITION_RUNS 10
static void print_conditions(FILE *f, const struct history *h, const struct hist_machine *m)
{
	const char *same = NULL;
	size_t with = 0, quiet = 0, said = 0;

	for (size_t i = 0; i < m->nruns; i++) {
		const struct hist_run *r = &h->runs[m->runs[i]];

		quiet += !r->busy;
		if (r->busy || !*r->conditions)
			continue;
		same = !with++ || (same && !strcmp(same, r->conditions)) ? r->conditions : NULL;
	}
	if (with && with == quiet && same) {
		fprintf(f, "  every run%s: %s\n", quiet < m->nruns ? " not busy" : "", same);
		return;
	}
	for (size_t i = 0; i < m->nruns && with; i++) {
		const struct hist_run *r = &h->runs[m->runs[i]];
		struct sbuf b = { 0 };

		if (r->busy || !*r->conditions || ++said > HIST_CONDITION_RUNS)
			continue;
		add_run_at(&b, h, m, i);
		sbuf_adds(&b, r->conditions);
		fprintf(f, "%s\n", b.s);
		sbuf_free(&b);
	}
	if (said > HIST_CONDITION_RUNS)
		fprintf(f, "  and %zu more runs with conditions\n", said - HIST_CONDITION_RUNS);
}

static void print_busy(FILE *f, const struct history *h, const struct hist_machine *m)
{
	for (size_t i = 0; i < m->nruns; i++) {
		const struct hist_run *r = &h->runs[m->runs[i]];
		struct sbuf b = { 0 };

		if (!r->busy)
			continue;
		add_run_at(&b, h, m, i);
		sbuf_addf(&b, "busy, left out of every series (%s)", r->conditions);
		fprintf(f, "%s\n", b.s);
		sbuf_free(&b);
	}
}

static void print_machine_head(FILE *f, const struct history *h, const struct hist_machine *m,
			       const char *what)
{
	const struct hist_run *first = &h->runs[m->runs[0]], *last = &h->runs[m->runs[m->nruns - 1]];
	struct sbuf b = { 0 };

	sbuf_addf(&b, "\n%s ", what);
	sbuf_add_visible(&b, *first->machine ? first->machine : "(none named)");
	if (*first->name && strcmp(first->name, first->machine)) {
		sbuf_adds(&b, " (");
		sbuf_add_visible(&b, first->name);
		sbuf_adds(&b, ")");
	}
	sbuf_addf(&b, ": %zu run%s, ", m->nruns, m->nruns == 1 ? "" : "s");
	add_date(&b, first->start);
	sbuf_adds(&b, " to ");
	add_date(&b, last->start);
	sbuf_addf(&b, "; %zu change%s", m->nch, m->nch == 1 ? "" : "s");
	fprintf(f, "%s\n", b.s);
	sbuf_free(&b);
}

/* Does machine m have a change of figure fig at run position at? */
static int changes_at(const struct hist_machine *m, size_t fig, size_t at)
{
	for (size_t i = 0; i < m->nch; i++)
		if (m->ch[i].fig == fig && m->ch[i].at == at)
			return 1;
	return 0;
}

/* A figure's whole series, "|" before each change, "(busy)" runs as "-". */
static void print_series(FILE *f, const struct history *h, const struct hist_machine *m, size_t fig)
{
	struct sbuf b = { 0 };
	char *name = hist_fig_name(&h->figs[fig]);

	sbuf_adds(&b, "  ");
	sbuf_add_visible(&b, name);
	sbuf_addf(&b, " (%s):", h->figs[fig].unit ? h->figs[fig].unit : "");
	for (size_t i = 0; i < m->nruns; i++) {
		const struct hist_run *r = &h->runs[m->runs[i]];
		double v = hist_value(r, fig);

		sbuf_adds(&b, changes_at(m, fig, i) ? " |" : "");
		if (r->busy || !isfinite(v))
			sbuf_adds(&b, " -");
		else {
			sbuf_adds(&b, " ");
			add_num(&b, v);
		}
	}
	fprintf(f, "%s\n", b.s);
	free(name);
	sbuf_free(&b);
}

static int has_change(const struct hist_machine *m, size_t fig)
{
	for (size_t i = 0; i < m->nch; i++)
		if (m->ch[i].fig == fig)
			return 1;
	return 0;
}

/* Each figure's series, those with a change first. */
static void print_machine_series(FILE *f, const struct history *h, const struct hist_machine *m)
{
	print_machine_head(f, h, m, "Series, machine");
	for (int changed = 1; changed >= 0; changed--)
		for (size_t fig = 0; fig < h->nfigs; fig++)
			if (has_change(m, fig) == changed)
				print_series(f, h, m, fig);
}

void hist_print(FILE *f, const struct history *h)
{
	size_t nch = 0;

	for (size_t k = 0; k < h->nmachines; k++)
		nch += h->machines[k].nch;
	fprintf(f, "History: %zu run%s of %zu machine%s from %zu file%s; %zu change%s found\n",
		h->nruns, h->nruns == 1 ? "" : "s", h->nmachines, h->nmachines == 1 ? "" : "s",
		h->files, h->files == 1 ? "" : "s", nch, nch == 1 ? "" : "s");
	for (size_t k = 0; k < h->nmachines; k++) {
		const struct hist_machine *m = &h->machines[k];

		print_machine_head(f, h, m, "Machine");
		print_changes(f, h, m);
		if (!m->nch)
			fputs("  no change beyond the figures' between-run noise\n", f);
		print_busy(f, h, m);
		print_conditions(f, h, m);
	}
	for (size_t k = 0; k < h->nmachines; k++)
		print_machine_series(f, h, &h->machines[k]);
}
