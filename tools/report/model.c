// SPDX-License-Identifier: MIT
/* The model of runs, results and figures; see model.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "model.h"
#include "schema.h"
#include "util.h"



long run_find_result(const struct run *run, const char *id)
{
	json_t *i = json_object_get(run->res_index, id);

	return i ? (long)json_integer_value(i) : -1;
}

/* --- splitting a file into runs ------------------------------------------ */

struct splitter {
	struct report *rp;
	const char *file;
	struct run *cur;
	int closed;		/* cur takes no more records: a new boot began or it ended */
	json_t *pending;	/* boot records waiting for their run record */
	int seq;
	size_t first_run;	/* this file's first run in rp */
};

static void attach_boot(struct run *run, json_t *rec);

static struct run *new_run(struct splitter *s, json_t *head)
{
	struct report *rp = s->rp;
	struct run *r;

	grow(&rp->runs, &rp->cap, rp->nruns + 1, sizeof(*rp->runs));
	r = &rp->runs[rp->nruns++];
	memset(r, 0, sizeof(*r));
	r->file = xstrdup(s->file);
	r->seq = ++s->seq;
	r->head = json_incref(head);
	r->boot = json_array();
	r->notes = json_array();
	r->res_index = json_object();
	r->rounds_index = json_object();
	r->attr_rounds = json_object();
	for (size_t i = 0; i < json_array_size(s->pending); i++)
		attach_boot(r, json_array_get(s->pending, i));
	json_array_clear(s->pending);
	s->cur = r;
	s->closed = 0;
	return r;
}

/* The run the next suite record belongs to; one without a run record if need be. */
static struct run *open_run(struct splitter *s)
{
	return s->cur && !s->closed ? s->cur : new_run(s, NULL);
}

/* A round's record (its "round" from 1): kept apart, in run->rounds, by its result's id. */
static void add_round(struct run *run, json_t *rec, const char *probe, const char *name,
		      char *id, char *ident)
{
	json_t *at = json_object_get(run->rounds_index, id);
	struct result *r;

	if (at) {
		result_add_record(&run->rounds[json_integer_value(at)], rec);
		free(id);
		free(ident);
		return;
	}
	grow(&run->rounds, &run->rounds_cap, run->nrounds + 1, sizeof(*run->rounds));
	r = &run->rounds[run->nrounds];
	result_init(r, rec, probe, name, id, ident);
	result_add_record(r, rec);
	json_object_set_new(run->rounds_index, id, json_integer((json_int_t)run->nrounds++));
}

static void add_result(struct run *run, json_t *rec, const char *probe, const char *name,
		       char *id, char *ident)
{
	json_t *it = json_object_get(rec, "iteration");
	json_t *round = json_object_get(rec, "round");
	long i = run_find_result(run, id);
	struct result *r;

	if (json_is_integer(round) && json_integer_value(round) >= 1) {
		add_round(run, rec, probe, name, id, ident);
		return;
	}

	if (json_is_integer(it) && json_integer_value(it) > run->iterations &&
	    json_integer_value(it) < 1000000)
		run->iterations = (int)json_integer_value(it);
	if (i >= 0) {
		result_add_record(&run->res[i], rec);
		free(id);
		free(ident);
		return;
	}
	grow(&run->res, &run->cap, run->nres + 1, sizeof(*run->res));
	r = &run->res[run->nres];
	result_init(r, rec, probe, name, id, ident);
	result_add_record(r, rec);
	json_object_set_new(run->res_index, id, json_integer((json_int_t)run->nres));
	run->nres++;
}

static void on_run(struct splitter *s, json_t *rec)
{
	struct run *run = new_run(s, rec);

	run->nrecs++;
	run->nsuite++;
}

static void on_stub(struct splitter *s, json_t *rec)
{
	/* only firmware writes stub records: a new boot has begun */
	s->closed = 1;
	json_array_append(s->pending, rec);
}

static void attach_boot(struct run *run, json_t *rec)
{
	const char *src = json_string_value(json_object_get(rec, "source"));

	json_array_append(run->boot, rec);
	run->nrecs++;
	if (strcmp(json_string_value(json_object_get(rec, "type")), "calib_summary"))
		return;
	/* the calibration's figures compare across runs like a probe's */
	add_result(run, rec, "calib", src ? src : "summary",
		   xasprintf("calib\x1f%s", src ? src : "summary"), xstrdup(""));
}

static void on_calib(struct splitter *s, json_t *rec)
{
	if (!s->cur || s->closed || json_array_size(s->pending))
		json_array_append(s->pending, rec);
	else {
		attach_boot(s->cur, rec);
		s->cur->nsuite++;	/* a probe's calib record, inside the run */
	}
}

static void on_result(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);
	const char *probe = json_string_value(json_object_get(rec, "probe"));
	const char *name = json_string_value(json_object_get(rec, "name"));
	char *ident, *id = result_id(rec, &ident);

	run->nrecs++;
	run->nsuite++;
	add_result(run, rec, probe ? probe : "", name ? name : "", id, ident);
}

static void on_note(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);

	run->nrecs++;
	run->nsuite++;
	json_array_append(run->notes, rec);
}

/* A probe's key declaration: main.c gives it to keys.h; here it is counted. */
static void on_keys(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);

	(void)rec;
	run->nrecs++;
	run->nsuite++;
}

static void on_fingerprint(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);

	run->nrecs++;
	run->nsuite++;
	json_decref(run->fingerprint);
	run->fingerprint = json_incref(rec);
}

/* The run a record of the suite belongs to, the record counted. */
static struct run *counted(struct splitter *s)
{
	struct run *run = open_run(s);

	run->nrecs++;
	run->nsuite++;
	return run;
}

static void on_verdict(struct splitter *s, json_t *rec)
{
	struct run *run = counted(s);

	json_decref(run->verdict);
	run->verdict = json_incref(rec);
}

static void on_readiness(struct splitter *s, json_t *rec)
{
	struct run *run = counted(s);

	json_decref(run->readiness);
	run->readiness = json_incref(rec);
}

/*
 * What happened on the machine while one probe ran: a result of the
 * pseudo-probe "attribution" named after that probe (its identity,
 * for_probe), so its counts line up across runs and iterations like a
 * probe's figures.
 */
/*
 * A round's attribution record added to its probe's sum over the rounds:
 * figures and budgets (counts, windows, CPU time) added, every other key
 * (the CPUs read, the scope, what is missing) the latest round's.
 */
static void attr_round_sum(struct run *run, json_t *rec, const char *for_probe)
{
	json_t *it = json_object_get(rec, "iteration"), *sum, *v;
	char *k = xasprintf("%s\x1f%lld", for_probe, (long long)json_integer_value(it));
	const char *key;

	sum = json_object_get(run->attr_rounds, k);
	if (!sum) {
		sum = json_object();
		json_object_set_new(run->attr_rounds, k, sum);
	}
	free(k);
	json_object_foreach(rec, key, v) {
		json_t *had = json_object_get(sum, key);

		if (!strcmp(key, "round"))
			continue;
		if (json_is_number(v) && json_is_number(had) &&
		    schema_is_figure(rec_key_class(rec, key, v)))
			json_object_set_new(sum, key, json_is_integer(v) && json_is_integer(had)
				? json_integer(json_integer_value(had) + json_integer_value(v))
				: json_real(json_number_value(had) + json_number_value(v)));
		else
			json_object_set(sum, key, v);
	}
}

/*
 * The suite writes a split probe's attribution once a round, with "round"
 * (docs/records.md, "attribution"): those are the rounds of the probe's
 * attribution result, like a result's rounds; the run's own is a whole
 * probe's record, or, where the run has none, the rounds' sum (attr_runs()).
 */
static void on_attribution(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);
	const char *for_probe = json_string_value(json_object_get(rec, "for_probe"));
	json_t *round = json_object_get(rec, "round");

	run->nrecs++;
	run->nsuite++;
	if (!for_probe)
		return;
	if (json_is_integer(round) && json_integer_value(round) >= 1)
		attr_round_sum(run, rec, for_probe);
	add_result(run, rec, ATTRIBUTION, for_probe, xasprintf(ATTRIBUTION "\x1f%s", for_probe),
		   xstrdup(""));
}

/* Each sum of a run's round attributions becomes its run record where the run has none of its own. */
static void attr_runs(struct run *run)
{
	json_t *own = json_object(), *sum;
	const char *k;

	json_object_foreach(run->attr_rounds, k, sum) {	/* the probes with a run record of their own */
		const char *for_probe = json_string_value(json_object_get(sum, "for_probe"));
		char *id = xasprintf(ATTRIBUTION "\x1f%s", for_probe ? for_probe : "");

		if (for_probe && run_find_result(run, id) >= 0)
			json_object_set_new(own, for_probe, json_true());
		free(id);
	}
	json_object_foreach(run->attr_rounds, k, sum) {
		const char *for_probe = json_string_value(json_object_get(sum, "for_probe"));

		if (for_probe && !json_object_get(own, for_probe))
			add_result(run, sum, ATTRIBUTION, for_probe,
				   xasprintf(ATTRIBUTION "\x1f%s", for_probe), xstrdup(""));
	}
	json_object_clear(run->attr_rounds);
	json_decref(own);
}

/*
 * The boot timeline PID 1 writes after the end record: a result of the
 * pseudo-probe "boot", so its phases line up across runs and kernel
 * variants like a probe's figures (schema.c classifies them).
 */
static void on_boot(struct splitter *s, json_t *rec)
{
	if (!s->cur)
		return;
	s->cur->nrecs++;
	add_result(s->cur, rec, "boot", "timeline", xstrdup("boot\x1ftimeline"), xstrdup(""));
}

static void on_end(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);

	run->nrecs++;
	json_decref(run->end);
	run->end = json_incref(rec);
	s->closed = 1;
}

static const struct {
	const char *type;
	void (*add)(struct splitter *s, json_t *rec);
} rec_handlers[] = {
	{ "run", on_run },
	{ "stub", on_stub },
	{ "calib", on_calib },
	{ "calib_summary", on_calib },
	{ "result", on_result },
	{ "skip", on_note },
	{ "error", on_note },
	{ "warning", on_note },
	{ "end", on_end },
	{ "fingerprint", on_fingerprint },
	{ "attribution", on_attribution },
	{ "keys", on_keys },
	{ "verdict", on_verdict },
	{ "tsc_readiness", on_readiness },
	{ "boot", on_boot },
};

struct splitter *report_file_begin(struct report *rp, const char *file)
{
	struct splitter *s = xcalloc(1, sizeof(*s));

	s->rp = rp;
	s->file = file;
	s->first_run = rp->nruns;
	s->pending = json_array();
	return s;
}

void report_add_record(struct splitter *s, json_t *rec, const char *type)
{
	/* a round's result or attribution is a sample of its run's (add_result keeps it apart);
	 * a round's other records (skip, error) are counted, not read: the run's come after */
	if (json_object_get(rec, "round") && strcmp(type, "result") && strcmp(type, "attribution")) {
		open_run(s)->nsuite++;
		return;
	}
	for (size_t h = 0; h < ARRAY_SIZE(rec_handlers); h++) {
		if (!strcmp(type, rec_handlers[h].type)) {
			rec_handlers[h].add(s, rec);
			return;
		}
	}
	/* other types are from a newer suite: nothing here can show them */
}

void report_file_end(struct splitter *s)
{
	for (size_t i = s->first_run; i < s->rp->nruns; i++)
		attr_runs(&s->rp->runs[i]);
	/* a boot that never reached its run record (crash, cut capture) still is one */
	if (json_array_size(s->pending))
		new_run(s, NULL);
	json_decref(s->pending);
	free(s);
}

void report_add_file(struct report *rp, const char *file, const struct rec_list *recs)
{
	struct splitter *s = report_file_begin(rp, file);

	for (size_t i = 0; i < recs->n; i++)
		report_add_record(s, recs->v[i].obj, recs->v[i].type);
	report_file_end(s);
}

/* --- figures -------------------------------------------------------------- */

struct ranks {
	json_t *probe, *result;
};

static size_t rank(json_t *map, const char *k)
{
	json_t *v = json_object_get(map, k);

	if (v)
		return (size_t)json_integer_value(v);
	json_object_set_new(map, k, json_integer((json_int_t)json_object_size(map)));
	return json_object_size(map) - 1;
}

static int cmp_fig(const void *a, const void *b)
{
	const struct figure *x = a, *y = b;

	if (x->probe_rank != y->probe_rank)
		return x->probe_rank < y->probe_rank ? -1 : 1;
	if (x->result_rank != y->result_rank)
		return x->result_rank < y->result_rank ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The interval key's record carries beside it, "KEY_ci95": [lo, hi, n]
 * (keys.h), when it is one: lo <= hi, both finite, n a positive integer.
 */
static void fig_ci_of(const struct result *r, const char *key, struct fig_ci *ci)
{
	char *name = xasprintf("%s%s", key, KEYS_CI_SUFFIX);
	const struct rkey *k = result_key(r, name);
	const json_t *v = k ? k->first : NULL;
	const json_t *n = json_array_get(v, 2);
	double lo = json_number_value(json_array_get(v, 0)), hi = json_number_value(json_array_get(v, 1));

	free(name);
	if (!json_is_array(v) || json_array_size(v) != 3 || !json_is_number(json_array_get(v, 0)) ||
	    !json_is_number(json_array_get(v, 1)) || !json_is_integer(n) || json_integer_value(n) < 1 ||
	    !isfinite(lo) || !isfinite(hi) || lo > hi)
		return;
	*ci = (struct fig_ci){ lo, hi, (size_t)json_integer_value(n) };
}

/* One result's figures in run ri under this id (r->id or r->booted_id). */
static void add_result_figures(struct report *rp, size_t ri, const struct result *r,
			       int as_booted, json_t *index, struct ranks *rk)
{
	const char *id = as_booted ? r->booted_id : r->id;
	size_t pr = rank(rk->probe, r->probe), rr = rank(rk->result, id);
	size_t *keys, nkeys = result_keys_by(r, KEYS_AS_FIGURES, &keys);

	for (size_t k = 0; k < nkeys; k++) {
		const char *key = r->keys[keys[k]].key;
		char *fid = xasprintf("%s\x1f\x1e%s", id, key);
		json_t *fi = json_object_get(index, fid);
		struct figure *f;

		if (!fi) {
			grow(&rp->figs, &rp->figcap, rp->nfigs + 1, sizeof(*rp->figs));
			f = &rp->figs[rp->nfigs];
			f->id = id;
			f->probe = r->probe;
			f->name = r->name;
			f->ident = as_booted ? r->booted_ident : r->ident;
			f->key = key;
			f->as_booted = as_booted;
			/* probes, results and keys in the order first seen */
			f->probe_rank = pr;
			f->result_rank = rr;
			f->seq = rp->nfigs;
			f->per_run = xcalloc(rp->nruns, sizeof(*f->per_run));
			f->ci = xcalloc(rp->nruns, sizeof(*f->ci));
			f->values = NULL;	/* sides.c's */
			f->decl = keys_find(r->probe, key);
			f->cls = f->decl ? f->decl->cls : schema_lookup(r->probe, NULL, key);
			f->what = keys_what(r->probe, key);
			f->uncert = keys_ci(r->probe, key);
			f->kind = keys_kind(r->probe, key);
			json_object_set_new(index, fid, json_integer((json_int_t)rp->nfigs));
			rp->nfigs++;
		} else {
			f = &rp->figs[json_integer_value(fi)];
		}
		free(fid);
		result_agg(r, key, &f->per_run[ri]);
		if (f->per_run[ri].n == 1)
			fig_ci_of(r, key, &f->ci[ri]);
	}
	free(keys);
}

static void add_figures(struct report *rp, size_t ri, json_t *index, struct ranks *rk)
{
	const struct run *run = &rp->runs[ri];

	for (size_t i = 0; i < run->nres; i++) {
		add_result_figures(rp, ri, &run->res[i], 0, index, rk);
		if (run->res[i].booted_id)
			add_result_figures(rp, ri, &run->res[i], 1, index, rk);
	}
}

const char *run_booted_clocksource(const struct run *r)
{
	json_t *cs = r->head ? json_object_get(r->head, "clocksource") : NULL;

	return json_is_string(cs) && json_string_length(cs) ? json_string_value(cs) : NULL;
}

/*
 * Gives the results read through their run's booted clocksource an
 * as-booted id, when two runs booted with different ones (else the
 * as-booted rows would repeat the others), or when the report asks for
 * them always (floors_gen: their floors are measured on identical runs).
 */
static void mark_as_booted(struct report *rp)
{
	const char *seen = NULL;
	int differ = 0;

	for (size_t i = 0; i < rp->nruns; i++) {
		const char *cs = run_booted_clocksource(&rp->runs[i]);

		differ |= seen && cs && strcmp(seen, cs);
		seen = seen ? seen : cs;
	}
	if (!differ && !rp->booted_always)
		return;
	for (size_t i = 0; i < rp->nruns; i++) {
		struct run *run = &rp->runs[i];
		const char *cs = run_booted_clocksource(run);

		/* run_find_result() finds a result by its as-booted id too */
		for (size_t k = 0; cs && k < run->nres; k++)
			if (result_as_booted(&run->res[k], cs) &&
			    !json_object_get(run->res_index, run->res[k].booted_id))
				json_object_set_new(run->res_index, run->res[k].booted_id,
						    json_integer((json_int_t)k));
	}
}

unsigned report_new_id(void)
{
	static unsigned last;

	return ++last;
}

void report_finish(struct report *rp, char *const *labels, size_t nlabels)
{
	struct ranks rk = { json_object(), json_object() };
	json_t *index = json_object();

	for (size_t i = 0; i < rp->nruns; i++) {
		struct run *r = &rp->runs[i];

		r->label = i < nlabels && *labels[i] ? xstrdup(labels[i]) : run_default_label(r);
		r->side = i < nlabels && *labels[i] ? xstrdup(labels[i]) : NULL;
	}
	runs_dedupe_labels(rp);
	mark_as_booted(rp);
	rp->id = report_new_id();
	for (size_t i = 0; i < rp->nruns; i++)
		add_figures(rp, i, index, &rk);
	if (rp->nfigs)
		qsort(rp->figs, rp->nfigs, sizeof(*rp->figs), cmp_fig);
	json_decref(index);
	json_decref(rk.probe);
	json_decref(rk.result);
}

void report_free(struct report *rp)
{
	for (size_t i = 0; i < rp->nruns; i++) {
		struct run *r = &rp->runs[i];

		for (size_t k = 0; k < r->nres; k++)
			result_free(&r->res[k]);
		free(r->res);
		for (size_t k = 0; k < r->nrounds; k++)
			result_free(&r->rounds[k]);
		free(r->rounds);
		json_decref(r->rounds_index);
		json_decref(r->attr_rounds);
		free(r->file);
		free(r->label);
		free(r->side);
		json_decref(r->head);
		json_decref(r->end);
		json_decref(r->fingerprint);
		json_decref(r->verdict);
		json_decref(r->readiness);
		json_decref(r->boot);
		json_decref(r->notes);
		json_decref(r->res_index);
	}
	for (size_t i = 0; i < rp->nfigs; i++) {
		free(rp->figs[i].per_run);
		free(rp->figs[i].ci);
	}
	free(rp->runs);
	free(rp->figs);
	memset(rp, 0, sizeof(*rp));
}

struct reading {
	struct splitter *split;	/* NULL: keys only */
	const char *path;
	const struct read_opts *o;
	struct scan_stats *st;
};

static void read_record(void *ctx, const struct rec *r)
{
	struct reading *rd = ctx;

	if (!rd->st->full) {
		/* a run's keys records come before its results: its declaration classifies them */
		keys_note_record(r->obj, rd->path);
		if (rd->split)
			report_add_record(rd->split, r->obj, r->type);
		if (rd->o->seen)
			rd->o->seen(rd->o->ctx, r->obj, r->type, rd->st);
	}
	json_decref(r->obj);
}

static struct reading read_begin(struct report *rp, const char *path, const struct read_opts *o,
				 struct scan_stats *st)
{
	struct reading rd = { o->keys_only ? NULL : report_file_begin(rp, path), path, o, st };

	return rd;
}

int report_read_file(struct report *rp, const char *path, const struct read_opts *o,
		     struct scan_stats *st)
{
	struct reading rd = read_begin(rp, path, o, st);
	int err = scan_file(path, o->max_input, read_record, &rd, st);

	if (rd.split)
		report_file_end(rd.split);
	return err;
}

void report_read_buffer(struct report *rp, const char *name, const char *buf, size_t len,
			const struct read_opts *o, struct scan_stats *st)
{
	struct reading rd = read_begin(rp, name, o, st);
	struct scanner *sc = scan_open(read_record, &rd, st);

	scan_feed(sc, buf, len);
	scan_close(sc);
	if (rd.split)
		report_file_end(rd.split);
}
