// SPDX-License-Identifier: MIT
/* The verdict of a run from its own records; see verdict.h and docs/verdict.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "probe.h"
#include "recread.h"
#include "sink.h"
#include "verdict.h"

int verdict_decls(const struct probe *const *probes, size_t nprobes, struct verdict_decl *out,
		  size_t max)
{
	size_t n = 0;

	for (size_t p = 0; p < nprobes; p++)
		for (size_t i = 0; !probes[p]->inject && i < probes[p]->n_verdict; i++) {
			struct verdict_decl d = { probes[p], &probes[p]->verdict[i] };
			size_t k = n;

			if (n == max)
				return -1;
			for (; k > 0 && out[k - 1].d->place > d.d->place; k--)
				out[k] = out[k - 1];
			out[k] = d;
			n++;
		}
	return (int)n;
}

/* Sets the figure (by PP_LARGEST only when larger). 1 when it did. */
static int put(struct verdict_item *it, double val, int larger)
{
	if (!isfinite(val) || (larger && it->measured && !(fabs(val) > fabs(it->value))))
		return 0;
	it->measured = 1;
	it->value = val;
	return 1;
}

/* The figure of r: a yes/no when the item has no unit, |key| + plus_key, plus add. */
static int figure(const struct probe_verdict *d, const struct rec_view *r, double *v)
{
	double plus;
	int yes;

	if (!d->lim.unit) {
		if (!recread_bool(r, d->key, &yes))
			return 0;
		*v = yes;
		return 1;
	}
	if (!recread_num(r, d->key, v))
		return 0;
	if (d->plus_key) {
		if (!recread_num(r, d->plus_key, &plus))
			return 0;
		*v = fabs(*v) + plus;
	}
	*v += d->add;
	return 1;
}

/* Where the figure came from: "PROBE: NAME" and the declaration's words; a record's, its own. */
static void from_text(struct verdict_item *it, const struct rec_view *r, const char *name,
		      const char *note)
{
	const struct probe_verdict *d = it->d;
	const char *ck = d->context_key;
	char ctx[64] = "";

	if (d->record) {
		snprintf(it->from, sizeof(it->from), "%s", d->from ? d->from : d->record);
		return;
	}
	if (ck)
		recread_str(r, ck, ctx, sizeof(ctx));
	snprintf(it->from, sizeof(it->from), "%s: %s%s%s%s%s%s%s", it->probe, name,
		 note ? note : "", d->from ? d->from : "", ck ? ", " : "", ck ? ck : "",
		 ck ? " " : "", ctx);
}

/* 1 when r's list one_origin_key names the item's key: its figure's two sides are one. */
static int one_origin(const struct probe_verdict *d, const struct rec_view *r)
{
	size_t n;
	const char *list = recread_raw(r, d->one_origin_key, &n);

	return list && memmem(list, n, d->key, strlen(d->key)) != NULL;
}

/* The figure of item it from record r (named name), when its declaration selects r. */
static void take(struct verdict_item *it, const struct rec_view *r, const char *name)
{
	const struct probe_verdict *d = it->d;
	const char *note = NULL;
	double val;
	int indep = -1;

	if (!recread_where(r, d->where, sizeof(d->where) / sizeof(d->where[0]), &note) ||
	    !figure(d, r, &val) || (d->pick == PP_FIRST && it->measured) ||
	    (d->pick == PP_INDEPENDENT && it->measured && it->independent == 1))
		return;
	if (d->independent_key)
		recread_bool(r, d->independent_key, &indep);
	if (d->pick == PP_INDEPENDENT && it->measured && indep != 1)
		return;	/* an independent reference wins over circular ones */
	if (put(it, val, d->pick == PP_LARGEST)) {
		from_text(it, r, name, note);
		if (d->p999_key && !recread_num(r, d->p999_key, &it->p999_ns))
			it->p999_ns = NAN;
		if (d->n_key && !recread_num(r, d->n_key, &it->n))
			it->n = NAN;
	}
	if (d->independent_key) {
		it->independent = indep;
		if (indep != 1 && d->why_key)
			recread_str(r, d->why_key, it->why, sizeof(it->why));
	}
	if (d->one_origin_key && it->measured)
		it->independent = !one_origin(d, r);
}

/* Whether the run is an emulator's or a hypervisor's: the fingerprint's signature. */
static void from_fingerprint(const struct rec_view *r, char *kind, char *by)
{
	char vendor[64];

	if (recread_str(r, "hypervisor_vendor", vendor, sizeof(vendor)) && vendor[0] && !kind[0]) {
		snprintf(kind, VERDICT_EMU_KIND, "%s",
			 strcmp(vendor, "TCGTCGTCGTCG") ? "hypervisor" : "tcg");
		snprintf(by, VERDICT_EMU_BY, "%s", vendor);
	}
}

/* The launcher's word (timeprobe.accel=) that the CPU is QEMU's TCG. */
static void from_run(const struct rec_view *r, char *kind, char *by)
{
	char accel[48];

	if (recread_str(r, "accel", accel, sizeof(accel)) && !strncmp(accel, "tcg", 3)) {
		snprintf(kind, VERDICT_EMU_KIND, "tcg");
		snprintf(by, VERDICT_EMU_BY, "QEMU %s", accel);
	}
}

void verdict_emulation(const struct rec_view *r, char *kind, char *by)
{
	if (recread_is(r, "type", "run"))
		from_run(r, kind, by);
	else if (recread_is(r, "type", "fingerprint"))
		from_fingerprint(r, kind, by);
}

/* The first skip reason of each item's probe, for "not measured" (in v's order). */
struct skips {
	char reason[VERDICT_ITEMS][VERDICT_TEXT];
};

/* Record r to every item that reads it: a run's record, a probe's result or skip. */
static void read_one(struct verdict *v, struct skips *s, const struct rec_view *r)
{
	char type[32], probe[32], name[96] = "";
	int of_probe;

	if (!recread_str(r, "type", type, sizeof(type)))
		return;
	verdict_emulation(r, v->emulated, v->emulated_by);
	of_probe = recread_str(r, "probe", probe, sizeof(probe));
	recread_str(r, "name", name, sizeof(name));
	for (size_t i = 0; i < v->n; i++) {
		struct verdict_item *it = &v->item[i];

		if (it->d->record) {
			if (!strcmp(type, it->d->record))
				take(it, r, name);
		} else if (!of_probe || strcmp(probe, it->probe)) {
			continue;
		} else if (!strcmp(type, "skip") && !s->reason[i][0]) {
			recread_str(r, "reason", s->reason[i], sizeof(s->reason[i]));
		} else if (!strcmp(type, "result")) {
			take(it, r, name);
		}
	}
}

/* The outcome of probe over the run's iterations: ok if one was; -1 when it did not run. */
static int outcome_of(const char *probe, const struct summary_row *rows, size_t n)
{
	int out = -1;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].name, probe) && (out < 0 || rows[i].out == OUTCOME_OK))
			out = (int)rows[i].out;
	return out;
}

/* Why item it has no figure, from its probe's outcome and skip records. */
static void why_not(struct verdict_item *it, const char *skip, const struct summary_row *rows,
		    size_t n)
{
	const char *probe = it->probe;
	int out = outcome_of(probe, rows, n);

	if (it->why[0])
		return;
	if (it->d->record && it->d->absent)
		snprintf(it->why, sizeof(it->why), "%s", it->d->absent);
	else if (it->d->record)
		snprintf(it->why, sizeof(it->why), "the %s did not say", it->d->record);
	else if (out < 0)
		snprintf(it->why, sizeof(it->why), "probe %s not run (not selected)", probe);
	else if (out == OUTCOME_SKIPPED || (out == OUTCOME_OK && skip[0]))
		snprintf(it->why, sizeof(it->why), "probe %s skipped it: %s", probe,
			 skip[0] ? skip : "see its skip record");
	else if (out == OUTCOME_OK)
		snprintf(it->why, sizeof(it->why), "probe %s gave no such figure", probe);
	else
		snprintf(it->why, sizeof(it->why), "probe %s ended: %s", probe,
			 supervise_outcome_name((enum outcome)out));
}

/* Words for the figures: a ppm against a reference that is not independent cannot be judged. */
static void judge(struct verdict *v, const struct skips *s, const struct summary_row *rows,
		  size_t nrows)
{
	for (size_t i = 0; i < v->n; i++) {
		struct verdict_item *it = &v->item[i];

		if (!it->measured) {
			it->word = VW_NOT_MEASURED;
			why_not(it, s->reason[i], rows, nrows);
			continue;
		}
		it->word = verdict_word_of(it->lim, it->value);
		/* a reference's independence is its record's word (drift's, from tscref.c) */
		if (it->d->independent_key ? it->independent != 1 : it->independent == 0) {
			it->word = VW_UNKNOWN;
			if (!it->why[0])
				snprintf(it->why, sizeof(it->why), "%s", it->d->independent_key ?
					 "its record does not say the reference is independent" :
					 "the two figures share an origin");
		}
	}
}

void verdict_gather(struct verdict *v, const struct probe *const *probes, size_t nprobes,
		    const char *recs, size_t len, const struct summary_row *rows, size_t nrows)
{
	static struct skips s;
	struct verdict_decl d[VERDICT_ITEMS];
	int n = verdict_decls(probes, nprobes, d, VERDICT_ITEMS);
	const char *pos = recs;
	struct rec_view r;

	memset(v, 0, sizeof(*v));
	memset(&s, 0, sizeof(s));
	v->n = n < 0 ? VERDICT_ITEMS : (size_t)n;
	for (size_t i = 0; i < v->n; i++)
		v->item[i] = (struct verdict_item){
			.lim = &d[i].d->lim, .d = d[i].d, .probe = d[i].probe->name, .value = NAN,
			.p999_ns = NAN, .n = NAN, .independent = -1,
		};
	while (recread_next(&pos, recs + len, &r))
		read_one(v, &s, &r);
	judge(v, &s, rows, nrows);
}

void verdict_rec_emulation(struct tp_rec *r, const char *kind, const char *by)
{
	if (kind[0]) {
		tp_rec_str(r, "emulated", kind);
		tp_rec_str(r, "emulated_by", by);
	} else {
		tp_rec_null(r, "emulated");
	}
}

void verdict_record(struct tp_rec *r, const struct verdict *v)
{
	emit_begin(r, "verdict");
	verdict_rec_emulation(r, v->emulated, v->emulated_by);
	tp_rec_obj_begin(r, "items");
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_item *it = &v->item[i];

		tp_rec_obj_begin(r, it->lim->id);
		tp_rec_str(r, "word", verdict_word_name(it->word));
		emit_rec_double(r, "value", it->value);
		if (it->lim->unit)
			tp_rec_str(r, "unit", it->lim->unit);
		if (it->from[0])
			tp_rec_str(r, "from", it->from);
		if (it->why[0])
			tp_rec_str(r, "why", it->why);
		if (it->independent >= 0)
			tp_rec_bool(r, "independent", it->independent);
		else if (it->d->independent_key && it->measured)
			tp_rec_null(r, "independent");
		if (isfinite(it->n)) {
			emit_rec_double(r, "p999_ns", it->p999_ns);
			emit_rec_double(r, "n", it->n);
		}
		tp_rec_obj_end(r);
	}
	tp_rec_obj_end(r);
}

/* A figure for people: ns scaled to us or ms, a yes/no (no unit) as yes or no. */
static void show(char *buf, size_t n, double v, const char *u)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (!u)
		snprintf(buf, n, "%s", v != 0 ? "yes" : "no");
	else if (!strcmp(u, "ns") && fabs(v) >= 1e6)
		snprintf(buf, n, fabs(v) >= 1e9 ? "%.0f ms" : "%.3g ms", v / 1e6);
	else if (!strcmp(u, "ns") && fabs(v) >= 1e3)
		snprintf(buf, n, "%.3g us", v / 1e3);
	else
		snprintf(buf, n, fabs(v) >= 1e3 ? "%.0f %s" : "%.3g %s", v, u);
}

static void print_block(const struct verdict *v)
{
	sink_human("\n== verdict ==\n");
	if (!strcmp(v->emulated, "tcg"))
		sink_human("Under an emulator (%s): these are the emulator's figures, "
			   "not a machine's.\n", v->emulated_by);
	else if (v->emulated[0])
		sink_human("Under a hypervisor (%s): these are the virtual machine's figures.\n",
			   v->emulated_by);
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_item *it = &v->item[i];
		char val[32], p999[32], extra[64] = "";

		show(val, sizeof(val), it->value, it->lim->unit);
		show(p999, sizeof(p999), it->p999_ns, "ns");
		if (isfinite(it->n))
			snprintf(extra, sizeof(extra), " (p99.9 %s, n %.0f)", p999, it->n);
		sink_human("  %-52s %14s  %-12s %s%s\n", it->lim->what, val,
			   verdict_word_name(it->word), it->why[0] ? it->why : it->from, extra);
	}
	sink_human("(thresholds and their sources: docs/verdict.md)\n");
}

void verdict_emit(const struct summary_row *rows, size_t nrows)
{
	static struct verdict v;
	struct tp_rec r;
	size_t len;
	const char *recs = sink_saved(&len);

	verdict_gather(&v, probe_table, probe_count, recs, len, rows, nrows);
	print_block(&v);
	verdict_record(&r, &v);
	sink_emit(&r);
}

/* What the keys of the verdict record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key verdict_rec_keys[] = {
	{ "verdict", "emulated*", TP_KEY_CONTEXT, "tcg or hypervisor, and which: the figures are the emulator's (null: neither)" },
	{ "verdict", "items", TP_KEY_CONTEXT, "each figure people act on: its value, unit, word (docs/verdict.md), where it came from or why not" },
	TP_REC_KEYS_END,
};
