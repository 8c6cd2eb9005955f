// SPDX-License-Identifier: MIT
/*
 * `--history --format=json`: the changes for programs, one document
 * (docs/history.md): per machine its runs, its changes newest first (the
 * run, each figure's medians before and after, the floor it passed, the
 * fingerprint fields that changed with it) and its busy runs. jansson
 * writes and escapes every string. See history.h.
 */
#include <math.h>
#include <string.h>

#include "history.h"
#include "util.h"

static json_t *run_json(const struct hist_run *r, size_t at)
{
	return json_pack("{s:I, s:s, s:i, s:s, s:s}", "run", (json_int_t)at + 1, "file", r->file,
			 "seq", r->seq, "start", r->start, "conditions", r->conditions);
}

static json_t *fig_json(const struct history *h, const struct hist_change *c)
{
	const struct hist_fig *f = &h->figs[c->fig];
	double r = c->median_after / c->median_before;

	return json_pack("{s:s, s:s, s:s, s:s?, s:f, s:f, s:f, s:f, s:s}", "probe", f->probe,
			 "result", f->result, "key", f->key, "unit", f->unit, "before", c->median_before,
			 "after", c->median_after, "ratio", r, "floor", c->floor, "word",
			 hist_change_word(f, r));
}

static json_t *fields_json(const struct hist_run *x, const struct hist_run *y)
{
	json_t *a = json_array();

	for (size_t k = 0; k < HIST_NFIELDS; k++)
		if (strcmp(x->fp[k], y->fp[k]))
			json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "field", hist_field_names[k],
							   "before", x->fp[k], "after", y->fp[k]));
	return a;
}

/* The machine's changes, one object per run they happen at, newest first. */
static json_t *changes_json(const struct history *h, const struct hist_machine *m)
{
	json_t *a = json_array();

	for (size_t i = 0; i < m->nch;) {
		const struct hist_change *c = &m->ch[i];
		const struct hist_run *y = &h->runs[m->runs[c->at]];
		json_t *o = run_json(y, c->at), *figs = json_array();

		for (; i < m->nch && m->ch[i].at == c->at; i++)
			json_array_append_new(figs, fig_json(h, &m->ch[i]));
		json_object_set_new(o, "figures", figs);
		json_object_set_new(o, "with", fields_json(&h->runs[m->runs[c->before]], y));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *machine_json(const struct history *h, const struct hist_machine *m)
{
	json_t *busy = json_array();

	for (size_t i = 0; i < m->nruns; i++)
		if (h->runs[m->runs[i]].busy)
			json_array_append_new(busy, run_json(&h->runs[m->runs[i]], i));
	return json_pack("{s:s, s:s, s:I, s:o, s:o}", "machine", h->runs[m->runs[0]].machine,
			 "name", h->runs[m->runs[0]].name, "runs", (json_int_t)m->nruns,
			 "changes", changes_json(h, m), "busy", busy);
}

void hist_print_json(FILE *f, const struct history *h)
{
	json_t *ms = json_array(), *doc;

	for (size_t k = 0; k < h->nmachines; k++)
		json_array_append_new(ms, machine_json(h, &h->machines[k]));
	doc = json_pack("{s:s, s:I, s:I, s:o}", "type", "history", "files", (json_int_t)h->files,
			"runs", (json_int_t)h->nruns, "machines", ms);
	json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', f);
	json_decref(doc);
}
