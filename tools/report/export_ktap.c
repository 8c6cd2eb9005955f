// SPDX-License-Identifier: MIT
/*
 * KTAP version 1 (Linux Documentation/dev-tools/ktap.rst): one test per
 * probe (and run, when there are several), one subtest per headline figure
 * and per skip or error record, the value as a diagnostic line before its
 * subtest. A subtest's name is probe, result and key as one word; the
 * result's own name and identity go into the diagnostic, with no '#' or
 * newline. Each run with a verdict has one more test, "verdict", first:
 * one subtest per item, not ok when poor, SKIP when not measured or
 * unknown, so CI can gate on it. After each run's "# run" line, a
 * diagnostic "# conditions:" with its conditions and tsc=reliable answer
 * (export_facts()). docs/exporting.md.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

/* One level of nesting is two spaces (ktap.rst, "Nested tests"). */
#define KTAP_INDENT "  "

static void ktap_figure(FILE *f, const struct export_item *it, size_t num)
{
	char *name = export_word(it->fg->name), *ident = export_word(it->fg->ident);
	char *key = export_word(it->fg->key);

	fputs(KTAP_INDENT "# ", f);
	export_line_text(f, it->fg->name);
	if (*it->fg->ident) {
		fputc(' ', f);
		export_line_text(f, it->fg->ident);
	}
	fputs(": ", f);
	export_line_text(f, it->fg->key);
	fputs(" = ", f);
	export_num(f, it->a->mean);
	if (it->decl->unit) {
		fputc(' ', f);
		export_line_text(f, it->decl->unit);
	}
	if (it->a->n > 1)
		fprintf(f, " (%s of %zu)", agg_combine_name(it->a), it->a->n);
	fprintf(f, "\n" KTAP_INDENT "ok %zu %s%s%s.%s\n", num, name, *it->fg->ident ? "." : "",
		*it->fg->ident ? ident : "", key);
	free(name);
	free(key);
	free(ident);
}

static void ktap_note(FILE *f, const json_t *rec, size_t num)
{
	int skip = !strcmp(export_str(rec, "type"), "skip");
	char *name = export_word(*export_str(rec, "name") ? export_str(rec, "name")
				 : export_str(rec, "option"));

	/* an error's reason after a word of ours: beginning "SKIP" or "TODO" it is no directive */
	fprintf(f, KTAP_INDENT "%s %zu %s # %s", skip ? "ok" : "not ok", num, name,
		skip ? "SKIP " : "failed: ");
	export_line_text(f, export_str(rec, "reason"));
	fputc('\n', f);
	free(name);
}

static void ktap_probe(FILE *f, const struct run *run, int several,
		       const struct export_probe *ep, size_t num)
{
	char *name = export_word(ep->probe), *label = several ? export_word(run->label) : NULL;

	fprintf(f, KTAP_INDENT "KTAP version 1\n" KTAP_INDENT "# Subtest: %s%s%s\n"
		KTAP_INDENT "1..%zu\n", label ? label : "", label ? "." : "", name, ep->n);
	for (size_t i = 0; i < ep->n; i++) {
		if (ep->items[i].fg)
			ktap_figure(f, &ep->items[i], i + 1);
		else
			ktap_note(f, ep->items[i].note, i + 1);
	}
	fprintf(f, "%s %zu %s%s%s", ep->status == EXPORT_FAIL ? "not ok" : "ok", num,
		label ? label : "", label ? "." : "", name);
	if (ep->status != EXPORT_OK) {
		fputs(ep->status == EXPORT_SKIP ? " # SKIP " : " # failed: ", f);
		export_line_text(f, ep->reason ? ep->reason : "");
	}
	fputc('\n', f);
	free(name);
	free(label);
}

/* The run's verdict as test num; 0 when it has none (no test). */
static size_t ktap_verdict(FILE *f, const struct run *run, int several, size_t num)
{
	struct export_verdict_item *v;
	size_t n = export_verdict(run, &v), failed = 0;
	char *label = several ? export_word(run->label) : NULL;

	if (n)
		fprintf(f, KTAP_INDENT "KTAP version 1\n" KTAP_INDENT "# Subtest: %s%sverdict\n"
			KTAP_INDENT "1..%zu\n", label ? label : "", label ? "." : "", n);
	for (size_t i = 0; i < n; i++) {
		char *name = export_word(v[i].name);

		failed += v[i].status == EXPORT_VERDICT_FAIL;
		fputs(KTAP_INDENT "# ", f);
		export_line_text(f, v[i].detail);
		fprintf(f, "\n" KTAP_INDENT "%s %zu %s", v[i].status == EXPORT_VERDICT_FAIL ? "not ok" : "ok",
			i + 1, name);
		if (v[i].status == EXPORT_VERDICT_SKIP)
			fprintf(f, " # SKIP %s", v[i].word);
		fputc('\n', f);
		free(name);
	}
	if (n)
		fprintf(f, "%s %zu %s%sverdict\n", failed ? "not ok" : "ok", num, label ? label : "",
			label ? "." : "");
	export_verdict_free(v, n);
	free(label);
	return n ? 1 : 0;
}

/* "# conditions: emulator tcg:max; ...; tsc=reliable not safe" (export_facts()). */
static void ktap_facts(FILE *f, const struct run *run)
{
	struct export_facts ef;
	struct sbuf b = { 0 };

	export_facts(run, &ef);
	export_facts_line(&b, &ef);
	fputs("# conditions: ", f);
	export_line_text(f, b.s);
	fputc('\n', f);
	sbuf_free(&b);
}

/* How many runs of rp have a verdict: each is one more top-level test. */
static size_t ktap_verdicts(const struct report *rp)
{
	size_t k = 0;

	for (size_t r = 0; r < rp->nruns; r++) {
		struct export_verdict_item *v;
		size_t n = export_verdict(&rp->runs[r], &v);

		k += n > 0;
		export_verdict_free(v, n);
	}
	return k;
}

void export_ktap(FILE *f, const struct report *rp)
{
	struct export_probe **per_run = xcalloc(rp->nruns, sizeof(*per_run));
	size_t *n = xcalloc(rp->nruns, sizeof(*n)), total = 0, num = 0;

	for (size_t r = 0; r < rp->nruns; r++)
		total += n[r] = export_probes(rp, r, &per_run[r]);
	fprintf(f, "KTAP version 1\n1..%zu\n", total + ktap_verdicts(rp));
	for (size_t r = 0; r < rp->nruns; r++) {
		fputs("# run ", f);
		export_line_text(f, rp->runs[r].label);
		fputs(": ", f);
		export_line_text(f, rp->runs[r].file);
		fputc('\n', f);
		ktap_facts(f, &rp->runs[r]);
		num += ktap_verdict(f, &rp->runs[r], rp->nruns > 1, num + 1);
		for (size_t i = 0; i < n[r]; i++)
			ktap_probe(f, &rp->runs[r], rp->nruns > 1, &per_run[r][i], ++num);
		export_probes_free(per_run[r], n[r]);
	}
	free(per_run);
	free(n);
}
