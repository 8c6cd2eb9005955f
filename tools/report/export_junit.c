// SPDX-License-Identifier: MIT
/*
 * JUnit XML as CI systems read it (the Jenkins xUnit plugin's junit-10.xsd,
 * tests/schemas/junit/): one <testsuite> per probe (and run, when there are
 * several) with its headline figures as <property> elements (value and
 * unit; that schema allows properties in a suite, not in a case), one
 * passing <testcase> per figure and one per skip or error record,
 * <skipped/> or <failure/> with the record's reason. First, per run, a
 * suite "verdict": one test case per verdict item, a poor one a <failure/>,
 * one not measured or unknown <skipped/>, so CI can gate on the verdict.
 * docs/exporting.md.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

static void junit_attr(FILE *f, const char *name, const char *val)
{
	fprintf(f, " %s=\"", name);
	export_xml(f, val);
	fputc('"', f);
}

/* "NAME IDENT: KEY", a figure's name in a property or a test case. */
static void junit_figure_name(FILE *f, const struct figure *fg)
{
	export_xml(f, fg->name);
	if (*fg->ident) {
		fputc(' ', f);
		export_xml(f, fg->ident);
	}
	fputs(": ", f);
	export_xml(f, fg->key);
}

/* The figure as a property of its suite: value and unit, "(mean of n)" when repeated. */
static void junit_property(FILE *f, const struct export_item *it)
{
	fputs("      <property name=\"", f);
	junit_figure_name(f, it->fg);
	fputs("\" value=\"", f);
	export_num(f, it->a->mean);
	if (it->decl->unit) {
		fputc(' ', f);
		export_xml(f, it->decl->unit);
	}
	if (it->a->n > 1)
		fprintf(f, " (%s of %zu)", agg_combine_name(it->a), it->a->n);
	fputs("\"/>\n", f);
}

static void junit_figure(FILE *f, const char *classname, const struct export_item *it)
{
	fputs("    <testcase", f);
	junit_attr(f, "classname", classname);
	fputs(" name=\"", f);
	junit_figure_name(f, it->fg);
	fputs("\"/>\n", f);
}

static void junit_note(FILE *f, const char *classname, const json_t *rec)
{
	int skip = !strcmp(export_str(rec, "type"), "skip");

	fputs("    <testcase", f);
	junit_attr(f, "classname", classname);
	junit_attr(f, "name", *export_str(rec, "name") ? export_str(rec, "name")
		   : export_str(rec, "option"));
	fprintf(f, ">\n      <%s", skip ? "skipped" : "failure");
	junit_attr(f, "message", export_str(rec, "reason"));
	fputs("/>\n    </testcase>\n", f);
}

static void junit_probe(FILE *f, const struct run *run, int several, const struct export_probe *ep)
{
	size_t skipped = 0, failed = 0;
	char *name = several ? xasprintf("%s.%s", run->label, ep->probe) : xstrdup(ep->probe);

	for (size_t i = 0; i < ep->n; i++) {
		const json_t *note = ep->items[i].note;

		if (note && !strcmp(export_str(note, "type"), "skip"))
			skipped++;
		else if (note)
			failed++;
	}
	fputs("  <testsuite", f);
	junit_attr(f, "name", name);
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"", ep->n, failed,
		skipped);
	junit_attr(f, "timestamp", export_str(run->head, "start"));
	fputs(">\n    <properties>\n", f);
	for (size_t i = 0; i < ep->n; i++)
		if (ep->items[i].fg)
			junit_property(f, &ep->items[i]);
	fputs("    </properties>\n", f);
	for (size_t i = 0; i < ep->n; i++) {
		if (ep->items[i].fg)
			junit_figure(f, name, &ep->items[i]);
		else
			junit_note(f, name, ep->items[i].note);
	}
	fputs("  </testsuite>\n", f);
	free(name);
}

static void junit_verdict(FILE *f, const struct run *run, int several)
{
	struct export_verdict_item *v;
	size_t n = export_verdict(run, &v), failed = 0, skipped = 0;
	char *name = several ? xasprintf("%s.verdict", run->label) : xstrdup("verdict");

	for (size_t i = 0; i < n; i++) {
		failed += v[i].status == EXPORT_VERDICT_FAIL;
		skipped += v[i].status == EXPORT_VERDICT_SKIP;
	}
	if (n) {
		fputs("  <testsuite", f);
		junit_attr(f, "name", name);
		fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"", n, failed,
			skipped);
		junit_attr(f, "timestamp", export_str(run->head, "start"));
		fputs(">\n", f);
	}
	for (size_t i = 0; i < n; i++) {
		fputs("    <testcase", f);
		junit_attr(f, "classname", name);
		junit_attr(f, "name", v[i].name);
		if (v[i].status == EXPORT_VERDICT_PASS) {
			fputs("/>\n", f);
			continue;
		}
		fprintf(f, ">\n      <%s", v[i].status == EXPORT_VERDICT_FAIL ? "failure" : "skipped");
		junit_attr(f, "message", v[i].detail);
		fputs("/>\n    </testcase>\n", f);
	}
	if (n)
		fputs("  </testsuite>\n", f);
	export_verdict_free(v, n);
	free(name);
}

void export_junit(FILE *f, const struct report *rp)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"timeprobe\">\n", f);
	for (size_t r = 0; r < rp->nruns; r++) {
		struct export_probe *p;
		size_t n = export_probes(rp, r, &p);

		junit_verdict(f, &rp->runs[r], rp->nruns > 1);
		for (size_t i = 0; i < n; i++)
			junit_probe(f, &rp->runs[r], rp->nruns > 1, &p[i]);
		export_probes_free(p, n);
	}
	fputs("</testsuites>\n", f);
}
