// SPDX-License-Identifier: MIT
/*
 * JUnit XML as CI systems read it (the Jenkins xUnit plugin's junit-10.xsd,
 * tests/schemas/junit/): one <testsuite> per probe (and run, when there are
 * several) with its headline figures as <property> elements (value and
 * unit; that schema allows properties in a suite, not in a case), one
 * passing <testcase> per figure and one per skip or error record,
 * <skipped/> or <failure/> with the record's reason. First, per run, a
 * suite "verdict": one test case per verdict item, a poor one a <failure/>,
 * one not measured or unknown <skipped/>, so CI can gate on the verdict;
 * its properties the run's conditions (emulator, hypervisor, busy) and
 * tsc=reliable answer (export_facts()), in a suite "conditions" of no test
 * when the run has no verdict. docs/exporting.md.
 */
#include <math.h>
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

/* A property of the run's first suite: name and value, escaped. */
static void junit_fact(FILE *f, const char *name, const char *value)
{
	fputs("      <property", f);
	junit_attr(f, "name", name);
	junit_attr(f, "value", value);
	fputs("/>\n", f);
}

/* The run's conditions and tsc=reliable answer (export_facts()), "none" for none. */
static void junit_facts(FILE *f, const struct run *run)
{
	struct export_facts ef;
	struct sbuf b = { 0 };

	export_facts(run, &ef);
	fputs("    <properties>\n", f);
	junit_fact(f, "timeprobe.emulator", ef.emulator ? ef.emulator : "none");
	junit_fact(f, "timeprobe.hypervisor", ef.hypervisor ? ef.hypervisor : "none");
	if (isfinite(ef.busy_pct))
		sbuf_addf(&b, "%s: other work %.0f %% of CPUs", ef.busy ? "busy" : "not busy", ef.busy_pct);
	junit_fact(f, "timeprobe.busy", b.len ? b.s : "unknown (no end record)");
	junit_fact(f, "timeprobe.tsc_readiness", ef.tsc_reliable ? ef.tsc_reliable : "no record");
	sbuf_reset(&b);
	export_facts_line(&b, &ef);
	junit_fact(f, "timeprobe.conditions", b.s);
	fputs("    </properties>\n", f);
	sbuf_free(&b);
}

/*
 * The run's first suite: "verdict", one test case per item, or
 * "conditions" with none when the run has no verdict record; either way
 * the run's conditions as its properties.
 */
static void junit_verdict(FILE *f, const struct run *run, int several)
{
	struct export_verdict_item *v;
	size_t n = export_verdict(run, &v), failed = 0, skipped = 0;
	const char *what = n ? "verdict" : "conditions";
	char *name = several ? xasprintf("%s.%s", run->label, what) : xstrdup(what);

	for (size_t i = 0; i < n; i++) {
		failed += v[i].status == EXPORT_VERDICT_FAIL;
		skipped += v[i].status == EXPORT_VERDICT_SKIP;
	}
	fputs("  <testsuite", f);
	junit_attr(f, "name", name);
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"", n, failed,
		skipped);
	junit_attr(f, "timestamp", export_str(run->head, "start"));
	fputs(">\n", f);
	junit_facts(f, run);
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
