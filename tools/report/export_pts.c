// SPDX-License-Identifier: MIT
/*
 * A Phoronix Test Suite / OpenBenchmarking.org result file, composite.xml
 * (phoronix-test-suite pts-core/openbenchmarking.org/schemas/result-file.xsd,
 * a copy in tests/schemas/pts/): one <System> per run, described from its
 * fingerprint (or its run record), its Notes its conditions and
 * tsc=reliable answer (export_facts()), and one <Result> per headline figure
 * with one <Entry> per run that has it, so runs of several machines (bare
 * metal and a VM) sit side by side in the tools that read such files. The
 * schema's length limits (a title 2 to 50 characters, a system 1 to 128)
 * are kept by cutting at a character boundary. docs/exporting.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

#define PTS_TITLE_MAX 50	/* TitleString, types.xsd */
#define PTS_SYSTEM_MAX 128	/* SystemIdentifier */
#define PTS_DESC_MAX 2048	/* DescriptionString */

/* s escaped, cut to at most max characters (UTF-8 sequences kept whole). */
static void pts_text(FILE *f, const char *s, size_t max)
{
	struct sbuf b = { 0 };
	size_t chars = 0, i;

	for (i = 0; s[i]; i++) {
		/* a character starts at every byte that is not a continuation byte */
		if (((unsigned char)s[i] & 0xc0) != 0x80 && ++chars > max)
			break;
	}
	sbuf_add(&b, s, i);
	export_xml(f, b.s ? b.s : "");
	sbuf_free(&b);
}

static void pts_elem(FILE *f, const char *indent, const char *tag, const char *s, size_t max)
{
	fprintf(f, "%s<%s>", indent, tag);
	pts_text(f, s, max);
	fprintf(f, "</%s>\n", tag);
}

/* "2026-12-03T08:17:40Z" as the schema's TimeStamp, "2026-12-03 08:17:40". */
static void pts_time(char out[20], const json_t *head)
{
	const char *s = export_str(head, "start");
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	for (size_t i = 0; i < sizeof(shape) - 1; i++) {
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i]) {
			memcpy(out, "1970-01-01 00:00:00", 20);
			return;
		}
	}
	memcpy(out, s, 19);
	out[10] = ' ';
	out[19] = 0;
}

/*
 * "Name: value, ..." in PTS's own style: each field from the fingerprint,
 * else from the run record; of fields with one name the first present.
 */
static void pts_fields(struct sbuf *b, const struct run *run, const char *const (*fields)[2],
		       size_t n)
{
	const json_t *recs[] = { run->fingerprint, run->head };
	const char *said = NULL;

	for (size_t i = 0; i < n; i++) {
		const json_t *v = NULL;

		if (said && !strcmp(said, fields[i][0]))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(recs) && !v; k++) {
			v = json_object_get(recs[k], fields[i][1]);
			if (!(json_is_string(v) && *json_string_value(v)) && !json_is_integer(v))
				v = NULL;
		}
		if (!v)
			continue;
		said = fields[i][0];
		sbuf_addf(b, "%s%s: ", b->len ? ", " : "", said);
		if (json_is_string(v))
			sbuf_adds(b, json_string_value(v));
		else
			sbuf_addf(b, "%lld", (long long)json_integer_value(v));
	}
}

static void pts_system(FILE *f, const struct run *run)
{
	/* one name may have several sources: the first present is said */
	static const char *const hw[][2] = {
		{ "Processor", "cpu_model_name" }, { "Processor", "cpu_model" }, { "CPUs", "cpus" },
		{ "System", "dmi_sys_vendor" }, { "Product", "dmi_product_name" },
		{ "Product", "machine" }, { "BIOS", "dmi_bios_vendor" },
		{ "BIOS Version", "dmi_bios_version" }, { "Hypervisor", "hypervisor_vendor" },
	};
	static const char *const sw[][2] = {
		{ "Kernel", "kernel_release" }, { "Kernel", "kernel" }, { "Variant", "kernel_variant" },
		{ "Variant", "variant" }, { "Clocksource", "clocksource" }, { "Accel", "accel" },
		{ "Env", "env" }, { "Profile", "profile" },
	};
	struct export_facts ef;
	struct sbuf b = { 0 };
	char when[20];

	fputs("  <System>\n", f);
	pts_elem(f, "    ", "Identifier", run->label, PTS_SYSTEM_MAX);
	pts_fields(&b, run, hw, ARRAY_SIZE(hw));
	pts_elem(f, "    ", "Hardware", b.s ? b.s : "", SIZE_MAX);
	sbuf_reset(&b);
	pts_fields(&b, run, sw, ARRAY_SIZE(sw));
	pts_elem(f, "    ", "Software", b.s ? b.s : "", SIZE_MAX);
	pts_elem(f, "    ", "User", "timeprobe", SIZE_MAX);
	pts_time(when, run->head);
	pts_elem(f, "    ", "TimeStamp", when, SIZE_MAX);
	pts_elem(f, "    ", "TestClientVersion", export_str(run->head, "version"), SIZE_MAX);
	sbuf_reset(&b);
	export_facts(run, &ef);
	sbuf_addf(&b, "run %d of %s; ", run->seq, run->file);
	export_facts_line(&b, &ef);
	pts_elem(f, "    ", "Notes", b.s, SIZE_MAX);
	fputs("  </System>\n", f);
	sbuf_free(&b);
}

static void pts_result(FILE *f, const struct report *rp, const struct figure *fg,
		       const struct key_decl *d)
{
	char *title = xasprintf("%s: %s", fg->probe, fg->key);
	char *args = xasprintf("%s%s%s", fg->name, *fg->ident ? " " : "", fg->ident);
	const char *prop = d->dir == KEY_DIR_HIGHER ? "HIB" : d->dir == KEY_DIR_LOWER ? "LIB" : "";

	fputs("  <Result>\n", f);
	fputs("    <Identifier>timeprobe/", f);
	export_xml(f, fg->probe);
	fputs("</Identifier>\n", f);
	pts_elem(f, "    ", "Title", title, PTS_TITLE_MAX);
	pts_elem(f, "    ", "AppVersion", "", SIZE_MAX);
	pts_elem(f, "    ", "Arguments", args, SIZE_MAX);
	pts_elem(f, "    ", "Description", args, SIZE_MAX);
	pts_elem(f, "    ", "Scale", d->unit ? d->unit : "", SIZE_MAX);
	fprintf(f, "    <Proportion>%s</Proportion>\n    <DisplayFormat>BAR_GRAPH</DisplayFormat>\n"
		"    <Data>\n", prop);
	for (size_t r = 0; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r];

		if (!a->n || !isfinite(a->mean))
			continue;
		fputs("      <Entry>\n", f);
		pts_elem(f, "        ", "Identifier", rp->runs[r].label, PTS_SYSTEM_MAX);
		fputs("        <Value>", f);
		export_num(f, a->mean);
		fputs("</Value>\n      </Entry>\n", f);
	}
	fputs("    </Data>\n  </Result>\n", f);
	free(title);
	free(args);
}

/* A headline figure some run has a value of. */
static int pts_wanted(const struct report *rp, const struct figure *fg, const struct key_decl **d)
{
	if (!export_is_headline(fg, d))
		return 0;
	for (size_t r = 0; r < rp->nruns; r++)
		if (fg->per_run[r].n && isfinite(fg->per_run[r].mean))
			return 1;
	return 0;
}

static void pts_generated(FILE *f, const struct report *rp)
{
	char when[20], latest[20] = "1970-01-01 00:00:00";
	struct sbuf b = { 0 };

	for (size_t r = 0; r < rp->nruns; r++) {
		pts_time(when, rp->runs[r].head);
		if (strcmp(when, latest) > 0)
			memcpy(latest, when, sizeof(when));
		sbuf_addf(&b, "%s%s", r ? " vs " : "", rp->runs[r].label);
	}
	fputs("  <Generated>\n", f);
	pts_elem(f, "    ", "Title", b.s ? b.s : "timeprobe", 126);
	pts_elem(f, "    ", "LastModified", latest, SIZE_MAX);
	pts_elem(f, "    ", "TestClient", "timeprobe tp-report", SIZE_MAX);
	pts_elem(f, "    ", "Description", "Timer and clock figures measured by timeprobe "
		 "(headline figures as each probe declares them).", PTS_DESC_MAX);
	fputs("  </Generated>\n", f);
	sbuf_free(&b);
}

void export_pts(FILE *f, const struct report *rp)
{
	const struct key_decl *d;
	size_t results = 0;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<PhoronixTestSuite>\n", f);
	pts_generated(f, rp);
	for (size_t r = 0; r < rp->nruns; r++)
		pts_system(f, &rp->runs[r]);
	for (size_t i = 0; i < rp->nfigs; i++) {
		if (pts_wanted(rp, &rp->figs[i], &d)) {
			pts_result(f, rp, &rp->figs[i], d);
			results++;
		}
	}
	/* the schema wants one result at least: say there was none to show */
	if (!results) {
		fputs("  <Result>\n    <Identifier>timeprobe</Identifier>\n    <Title>no figures</Title>\n"
		      "    <AppVersion/>\n    <Arguments/>\n    <Description/>\n    <Scale/>\n"
		      "    <Proportion/>\n    <DisplayFormat>NO_RESULT</DisplayFormat>\n    <Data>\n",
		      f);
		for (size_t r = 0; r < rp->nruns; r++) {
			fputs("      <Entry>\n", f);
			pts_elem(f, "        ", "Identifier", rp->runs[r].label, PTS_SYSTEM_MAX);
			fputs("        <Value/>\n      </Entry>\n", f);
		}
		fputs("    </Data>\n  </Result>\n", f);
	}
	fputs("</PhoronixTestSuite>\n", f);
}
