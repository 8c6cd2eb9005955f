// SPDX-License-Identifier: MIT
/* The model for programs, CSV and JSON; see format_data.h. */
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
#include "judge.h"
#include "format_data.h"
#include "keys.h"
#include "schema.h"
#include "lead.h"
#include "lineup.h"
#include "sides.h"
#include "table.h"
#include "util.h"

/* --- CSV: one row per figure and run, for programs ------------------------ */

static void csv_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputs(last ? "\r\n" : ",", f);
}

static void csv_num(FILE *f, double v, int present)
{
	if (present && isfinite(v))
		fprintf(f, "%.12g,", v);
	else
		fputc(',', f);
}

/* The run's conditions and tsc=reliable answer, the last four columns (export_facts()). */
static void csv_facts(FILE *f, const struct export_facts *ef)
{
	csv_field(f, ef->emulator ? ef->emulator : "", 0);
	csv_field(f, ef->hypervisor ? ef->hypervisor : "", 0);
	csv_num(f, ef->busy_pct, 1);
	csv_field(f, ef->tsc_reliable ? ef->tsc_reliable : "", 1);
}

void print_csv(FILE *f, const struct report *rp)
{
	struct export_facts *ef = xcalloc(rp->nruns ? rp->nruns : 1, sizeof(*ef));

	for (size_t r = 0; r < rp->nruns; r++)
		export_facts(&rp->runs[r], &ef[r]);
	fputs("run,label,file,probe,result,ident,figure,n,mean,min,max,stddev,ratio,combine,"
	      "emulator,hypervisor,other_busy_pct,tsc_reliable\r\n", f);
	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];

		for (size_t r = 0; r < rp->nruns; r++) {
			const struct agg *a = &fg->per_run[r], *base = &fg->per_run[0];
			int ratio = a->n && base->n && base->mean != 0 &&
				    !(fg->decl && fg->decl->dir == KEY_DIR_ZERO);

			fprintf(f, "%zu,", r + 1);
			csv_field(f, rp->runs[r].label, 0);
			csv_field(f, rp->runs[r].file, 0);
			csv_field(f, fg->probe, 0);
			csv_field(f, fg->name, 0);
			csv_field(f, fg->ident, 0);
			csv_field(f, fg->key, 0);
			fprintf(f, "%zu,", a->n);
			csv_num(f, a->mean, a->n);
			csv_num(f, a->min, a->n);
			csv_num(f, a->max, a->n);
			csv_num(f, a->stddev, a->n);
			if (ratio && isfinite(a->mean / base->mean))
				fprintf(f, "%.6g", a->mean / base->mean);
			fputc(',', f);
			csv_field(f, a->n ? agg_combine_name(a) : "", 0);
			csv_facts(f, &ef[r]);
		}
	}
	free(ef);
}

/* --- JSON: the whole model, for programs ---------------------------------- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_agg(const struct agg *a)
{
	if (!a->n)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:s}", "n", (json_int_t)a->n,
			 "mean", jnum(a->mean), "min", jnum(a->min), "max", jnum(a->max),
			 "stddev", jnum(a->stddev), "combine", agg_combine_name(a));
}

static json_t *json_or_null(json_t *v)
{
	return v ? json_incref(v) : json_null();
}

#define JSON_FLAGS (JSON_REAL_PRECISION(12) | JSON_ENSURE_ASCII)

/* Writes v after sep, then drops it: one element of the document at a time. */
static void put_json(FILE *f, const char *sep, json_t *v, size_t flags)
{
	fputs(sep, f);
	json_dumpf(v, f, flags | JSON_FLAGS);
	json_decref(v);
}

static json_t *json_files(const struct source *src, size_t nsrc)
{
	json_t *files = json_array();

	for (size_t i = 0; i < nsrc; i++) {
		const struct scan_stats *st = &src[i].st;

		json_array_append_new(files, json_pack(
			"{s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "path", src[i].path,
			"readable", !src[i].err, "lines", (json_int_t)st->lines,
			"records", (json_int_t)st->records, "joined", (json_int_t)st->joined,
			"bad_crc", (json_int_t)st->bad_crc, "too_long", (json_int_t)st->too_long,
			"cut", (json_int_t)st->cut,
			"unparsable", (json_int_t)st->unparsable,
			"damaged_tag", (json_int_t)st->damaged_tag));
	}
	return files;
}

static json_t *json_runs(const struct report *rp)
{
	json_t *runs = json_array();

	for (size_t i = 0; i < rp->nruns; i++) {
		const struct run *r = &rp->runs[i];

		json_array_append_new(runs, json_pack(
			"{s:s, s:s, s:i, s:i, s:I, s:o, s:o, s:o, s:O, s:O}", "label", r->label,
			"file", r->file, "run_in_file", r->seq, "iterations", r->iterations,
			"records", (json_int_t)r->nrecs, "run", json_or_null(r->head),
			"fingerprint", json_or_null(r->fingerprint),
			"end", json_or_null(r->end), "boot", r->boot, "notes", r->notes));
	}
	return runs;
}

static json_t *json_figure(const struct report *rp, const struct figure *fg)
{
	json_t *vals = json_array();

	for (size_t r = 0; r < rp->nruns; r++) {
		json_t *v = json_agg(&fg->per_run[r]);

		/* the run's own 95 % interval, as its record carried it (keys.h) */
		if (fg->ci && fg->ci[r].n)
			json_object_set_new(v, "ci95", json_pack("[f, f, I]", fg->ci[r].lo,
				fg->ci[r].hi, (json_int_t)fg->ci[r].n));
		json_array_append_new(vals, v);
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:b, s:o}", "probe", fg->probe, "result", fg->name,
			 "ident", fg->ident, "figure", fg->key, "as_booted", fg->as_booted,
			 "runs", vals);
}

static json_t *json_ratios(const struct report *rp, const struct figure *fg)
{
	json_t *ratios = json_array();
	const struct agg *base = &fg->per_run[0];

	for (size_t r = 0; r < rp->nruns; r++) {
		const struct agg *a = &fg->per_run[r];

		json_array_append_new(ratios, a->n && base->n && base->mean != 0 ?
				      jnum(a->mean / base->mean) : json_null());
	}
	return ratios;
}

/*
 * Each run against run 0 as the lead judges it: whether the figure leads,
 * and the smallest ratio it could have shown (judge_detectable(); null
 * for run 0, and where no ratio is judged).
 */
static json_t *json_judged(const struct report *rp, const struct figure *fg)
{
	json_t *leads = json_array(), *det = json_array();

	for (size_t r = 0; r < rp->nruns; r++) {
		struct judgement j;
		int led = r ? judge(rp, fg, r, &j) : 0;
		int shown = r && (j.how == JUDGE_INTERVALS || j.how == JUDGE_WELCH ||
				  j.how == JUDGE_COUNTS);

		json_array_append_new(leads, r ? json_boolean(led) : json_null());
		json_array_append_new(det, shown ? jnum(judge_detectable(&j)) : json_null());
	}
	return json_pack("{s:o, s:o}", "leads", leads, "detectable", det);
}

/*
 * The whole model, written a figure at a time: what it holds in memory is
 * one figure's object, never the document's (docs/comparing.md, section 3).
 */
void print_json(FILE *f, const struct report *rp, const struct source *src, size_t nsrc)
{
	const char *label = rp->nruns ? rp->runs[0].label : NULL;

	fputs("{\n  \"tool\": \"tp-report\",\n  \"format\": 1,\n  \"files\": ", f);
	put_json(f, "", json_files(src, nsrc), JSON_INDENT(2));
	put_json(f, ",\n  \"runs\": ", json_runs(rp), JSON_INDENT(2));
	fputs(",\n  \"figures\": [", f);
	for (size_t i = 0; i < rp->nfigs; i++)
		put_json(f, i ? ",\n    " : "\n    ", json_figure(rp, &rp->figs[i]), JSON_COMPACT);
	fputs("\n  ],\n  \"comparison\": {\n    \"baseline\": 0,\n    \"baseline_label\": ", f);
	put_json(f, "", label ? json_string(label) : json_null(), JSON_ENCODE_ANY);
	fputs(",\n    \"rows\": [", f);
	for (size_t i = 0; i < rp->nfigs; i++) {
		fprintf(f, "%s{\"figure\": %zu, \"ratios\": ", i ? ",\n      " : "\n      ", i);
		put_json(f, "", json_ratios(rp, &rp->figs[i]), JSON_COMPACT);
		if (rp->nruns > 1) {
			json_t *jd = json_judged(rp, &rp->figs[i]);

			put_json(f, ", \"leads\": ", json_incref(json_object_get(jd, "leads")),
				 JSON_COMPACT);
			put_json(f, ", \"detectable\": ",
				 json_incref(json_object_get(jd, "detectable")), JSON_COMPACT);
			json_decref(jd);
		}
		fputc('}', f);
	}
	fputs("\n    ]\n  }\n}\n", f);
}

/* Markdown within FOLD_MD_MAX characters unless --full (fold.h). */
