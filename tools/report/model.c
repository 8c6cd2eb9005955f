// SPDX-License-Identifier: MIT
/* The model of runs, results and figures; see model.h. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "schema.h"
#include "util.h"

#define LABEL_PART_MAX 24

int key_is_ident(const json_t *rec, const char *key, const json_t *val)
{
	/* probe and name lead the id by themselves */
	return strcmp(key, "probe") && strcmp(key, "name") &&
	       rec_key_class(rec, key, val) == KEY_ID;
}

int key_is_figure(const json_t *rec, const char *key, const json_t *val)
{
	return schema_is_figure(rec_key_class(rec, key, val));
}

static void value_str(struct sbuf *b, const json_t *v)
{
	char num[64];

	if (json_is_string(v)) {
		sbuf_adds(b, json_string_value(v));
	} else if (json_is_integer(v)) {
		sbuf_addf(b, "%lld", (long long)json_integer_value(v));
	} else {
		fmt_num(num, sizeof(num), json_num(v));
		sbuf_adds(b, num);
	}
}

/* Does the name already say it? "10000" in "ITIMER_REAL 10000us", not "0" in it. */
static int name_says(const char *name, const char *val, int numeric)
{
	size_t n = strlen(val);

	if (!n)
		return 1;
	for (const char *p = strstr(name, val); p; p = strstr(p + 1, val)) {
		unsigned char before = p > name ? (unsigned char)p[-1] : ' ';
		unsigned char after = (unsigned char)p[n];

		if (isalnum(before) || before == '_')
			continue;
		if (numeric ? isdigit(after) || after == '.' : isalnum(after) || after == '_')
			continue;
		return 1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *result_id(const json_t *rec, char **ident)
{
	const char *probe = json_string_value(json_object_get(rec, "probe"));
	const char *name = json_string_value(json_object_get(rec, "name"));
	struct sbuf id = { 0 }, shown = { 0 }, v = { 0 };
	const char **keys = NULL;
	size_t nkeys = 0, cap = 0;
	const char *key;
	json_t *val;

	probe = probe ? probe : "";
	name = name ? name : "";
	json_object_foreach((json_t *)rec, key, val) {
		if (!key_is_ident(rec, key, val) || json_is_object(val) || json_is_array(val))
			continue;
		grow(&keys, &cap, nkeys + 1, sizeof(*keys));
		keys[nkeys++] = key;
		sbuf_reset(&v);
		value_str(&v, val);
		if (name_says(name, v.s, json_is_number(val)))
			continue;
		sbuf_addf(&shown, "%s%s=%s", shown.len ? " " : "", key, v.s);
	}
	/* the id must not depend on the order the emitter wrote the keys in */
	if (nkeys)
		qsort(keys, nkeys, sizeof(*keys), cmp_str);
	sbuf_addf(&id, "%s\x1f%s", probe, name);
	for (size_t i = 0; i < nkeys; i++) {
		sbuf_reset(&v);
		value_str(&v, json_object_get(rec, keys[i]));
		sbuf_addf(&id, "\x1f%s=%s", keys[i], v.s);
	}
	free(keys);
	sbuf_free(&v);
	*ident = sbuf_take(&shown);
	return sbuf_take(&id);
}

void agg_of(const double *v, size_t n, struct agg *a)
{
	double sum = 0, ss = 0;

	memset(a, 0, sizeof(*a));
	if (!n)
		return;
	a->n = n;
	a->min = a->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < a->min)
			a->min = v[i];
		if (v[i] > a->max)
			a->max = v[i];
	}
	a->mean = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - a->mean) * (v[i] - a->mean);
	a->stddev = sqrt(ss / (double)(n - 1));
}

size_t result_values(const struct result *r, const char *key, double **out)
{
	size_t n = 0, total = json_array_size(r->recs);
	double *v = xmalloc(total * sizeof(*v));

	for (size_t i = 0; i < total; i++) {
		json_t *x = json_object_get(json_array_get(r->recs, i), key);

		if (json_is_number(x))
			v[n++] = json_num(x);
	}
	*out = v;
	return n;
}

const char *agg_combine_name(const struct agg *a)
{
	if (a->combine == COMBINE_MEAN)
		return "mean";
	return a->disjoint ? "disjoint" : "intersection";
}

int agg_has_spread(const struct agg *a)
{
	return a->n > 1 && a->combine == COMBINE_MEAN;
}

/*
 * The intersection of the iterations' intervals centre ± half; iterations
 * that lack either half of theirs have none and are left out.
 */
static void intersect(const struct result *r, const char *centre, const char *half,
		      int want_half, struct agg *a)
{
	size_t total = json_array_size(r->recs), n = 0;
	double *v = xmalloc((total ? total : 1) * sizeof(*v));
	double lo = -INFINITY, hi = INFINITY;

	for (size_t i = 0; i < total; i++) {
		json_t *rec = json_array_get(r->recs, i);
		json_t *c = json_object_get(rec, centre), *h = json_object_get(rec, half);

		if (!json_is_number(c) || !json_is_number(h) || !(json_num(h) >= 0))
			continue;
		v[n++] = json_num(want_half ? h : c);
		lo = fmax(lo, json_num(c) - json_num(h));
		hi = fmin(hi, json_num(c) + json_num(h));
	}
	agg_of(v, n, a);
	free(v);
	a->combine = want_half ? COMBINE_HALF_WIDTH : COMBINE_CENTRE;
	if (!n)
		return;
	a->disjoint = lo > hi;
	a->mean = a->disjoint ? NAN : want_half ? (hi - lo) / 2 : lo + (hi - lo) / 2;
}

void result_agg(const struct result *r, const char *key, struct agg *a)
{
	json_t *first = json_array_get(r->recs, 0);
	const char *type = json_string_value(json_object_get(first, "type"));
	const char *probe = json_string_value(json_object_get(first, "probe"));
	char other[128];
	enum combine how = schema_combine(type ? type : "", probe, key, other, sizeof(other));
	double *v;
	size_t n;

	if (how == COMBINE_CENTRE || how == COMBINE_HALF_WIDTH) {
		intersect(r, how == COMBINE_CENTRE ? key : other,
			  how == COMBINE_CENTRE ? other : key, how == COMBINE_HALF_WIDTH, a);
		/* no iteration wrote both halves: no interval, only values */
		if (a->n)
			return;
	}
	n = result_values(r, key, &v);
	agg_of(v, n, a);
	free(v);
}

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

static void add_result(struct run *run, json_t *rec, const char *probe, const char *name,
		       char *id, char *ident)
{
	json_t *it = json_object_get(rec, "iteration");
	long i = run_find_result(run, id);
	struct result *r;

	if (json_is_integer(it) && json_integer_value(it) > run->iterations &&
	    json_integer_value(it) < 1000000)
		run->iterations = (int)json_integer_value(it);
	if (i >= 0) {
		json_array_append(run->res[i].recs, rec);
		free(id);
		free(ident);
		return;
	}
	grow(&run->res, &run->cap, run->nres + 1, sizeof(*run->res));
	r = &run->res[run->nres];
	r->id = id;
	r->ident = ident;
	r->probe = probe;
	r->name = name;
	r->recs = json_array();
	json_array_append(r->recs, rec);
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

/*
 * What happened on the machine while one probe ran: a result of the
 * pseudo-probe "attribution" named after that probe (its identity,
 * for_probe), so its counts line up across runs and iterations like a
 * probe's figures.
 */
static void on_attribution(struct splitter *s, json_t *rec)
{
	struct run *run = open_run(s);
	const char *for_probe = json_string_value(json_object_get(rec, "for_probe"));

	run->nrecs++;
	run->nsuite++;
	if (!for_probe)
		return;
	add_result(run, rec, ATTRIBUTION, for_probe, xasprintf(ATTRIBUTION "\x1f%s", for_probe),
		   xstrdup(""));
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
	{ "end", on_end },
	{ "fingerprint", on_fingerprint },
	{ "attribution", on_attribution },
	{ "keys", on_keys },
};

void report_add_file(struct report *rp, const char *file, const struct rec_list *recs)
{
	struct splitter s = { .rp = rp, .file = file, .pending = json_array() };

	for (size_t i = 0; i < recs->n; i++) {
		for (size_t h = 0; h < ARRAY_SIZE(rec_handlers); h++) {
			if (!strcmp(recs->v[i].type, rec_handlers[h].type)) {
				rec_handlers[h].add(&s, recs->v[i].obj);
				break;
			}
		}
		/* other types are from a newer suite: nothing here can show them */
	}
	/* a boot that never reached its run record (crash, cut capture) still is one */
	if (json_array_size(s.pending))
		new_run(&s, NULL);
	json_decref(s.pending);
}

/* --- labels ---------------------------------------------------------------- */

/* n bytes of s at most, not ending inside a UTF-8 character nor in blanks. */
static size_t part_len(const char *s, size_t n)
{
	if (n > LABEL_PART_MAX) {
		n = LABEL_PART_MAX;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	while (n && s[n - 1] == ' ')
		n--;
	return n;
}

/* A field of the run record, up to its first "(": "QEMU Standard PC". */
static void add_part(struct sbuf *b, const char *sep, const char *s)
{
	size_t n = part_len(s, strcspn(s, "("));

	if (b->len)
		sbuf_adds(b, sep);
	sbuf_add(b, s, n);
}

static const char *head_str(const struct run *r, const char *key)
{
	const char *s = json_string_value(json_object_get(r->head, key));

	return s ? s : "";
}

static char *default_label(const struct run *r)
{
	struct sbuf b = { 0 };
	const char *base = strrchr(r->file, '/');

	if (!r->head) {
		sbuf_addf(&b, "%s#%d", base ? base + 1 : r->file, r->seq);
		return sbuf_take(&b);
	}
	add_part(&b, "/", *head_str(r, "env") ? head_str(r, "env") : "?");
	if (*head_str(r, "machine"))
		add_part(&b, "/", head_str(r, "machine"));
	return sbuf_take(&b);
}

/*
 * What the label's machine part leaves out: the parenthesised part up to
 * its first comma, "(Q35 + ICH9)" of "QEMU Standard PC (Q35 + ICH9, 2009)"
 * (the chipset, where QEMU's q35 and pc differ).
 */
static void machine_detail(const struct run *r, const char *field, struct sbuf *b)
{
	const char *open = strchr(head_str(r, field), '(');
	size_t n;

	if (!open)
		return;
	n = part_len(open + 1, strcspn(open + 1, ",)"));
	if (n)
		sbuf_addf(b, "(%.*s)", (int)n, open + 1);
}

static void head_field(const struct run *r, const char *field, struct sbuf *b)
{
	if (*head_str(r, field))
		add_part(b, "", head_str(r, field));
}

/* The name of the file the run came from, without its folder. */
static void file_base(const struct run *r, const char *field, struct sbuf *b)
{
	const char *base = strrchr(r->file, '/');

	(void)field;
	sbuf_adds(b, base ? base + 1 : r->file);
}

/*
 * What tells runs apart when their env and machine agree, in this order;
 * the first that differs within a group of equal labels is added to each.
 */
static const struct {
	const char *field;
	void (*get)(const struct run *r, const char *field, struct sbuf *b);
} label_parts[] = {
	{ "machine", machine_detail },
	{ "clocksource", head_field },
	{ "cpu_model", head_field },
	{ "kernel", head_field },
	{ "variant", head_field },
	{ NULL, file_base },
};

/* Label part p of run r; "" if it has none. */
static char *label_part(const struct run *r, size_t p)
{
	struct sbuf b = { 0 };

	label_parts[p].get(r, label_parts[p].field, &b);
	return sbuf_take(&b);
}

/* Appends part p to the labels of the n runs in group when they do not all agree on it. */
static void label_by(struct report *rp, const size_t *group, size_t n, size_t p)
{
	char **part = xcalloc(n, sizeof(*part));
	int differ = 0;

	for (size_t k = 0; k < n; k++) {
		part[k] = label_part(&rp->runs[group[k]], p);
		differ |= k && strcmp(part[0], part[k]);
	}
	for (size_t k = 0; k < n; k++) {
		struct run *r = &rp->runs[group[k]];

		if (differ && *part[k]) {
			char *l = xasprintf("%s %s", r->label, part[k]);

			free(r->label);
			r->label = l;
		}
		free(part[k]);
	}
	free(part);
}

/* Runs with the same label as run i, from i on, into group; marks them done. */
static size_t same_label(const struct report *rp, size_t i, char *done, size_t *group)
{
	size_t n = 0;

	for (size_t j = i; j < rp->nruns; j++) {
		if (done[j] || strcmp(rp->runs[i].label, rp->runs[j].label))
			continue;
		done[j] = 1;
		group[n++] = j;
	}
	return n;
}

/* Makes labels unique: the first part that tells equal ones apart, then #n. */
static void dedupe_labels(struct report *rp)
{
	size_t *group = xcalloc(rp->nruns, sizeof(*group));

	for (size_t p = 0; p <= ARRAY_SIZE(label_parts); p++) {
		char *done = xcalloc(rp->nruns, 1);

		for (size_t i = 0; i < rp->nruns; i++) {
			size_t n = done[i] ? 0 : same_label(rp, i, done, group);

			if (n < 2)
				continue;
			if (p < ARRAY_SIZE(label_parts)) {
				label_by(rp, group, n, p);
				continue;
			}
			for (size_t k = 0; k < n; k++) {
				struct run *r = &rp->runs[group[k]];
				char *l = xasprintf("%s#%zu", r->label, k + 1);

				free(r->label);
				r->label = l;
			}
		}
		free(done);
	}
	free(group);
}

/* --- figures -------------------------------------------------------------- */

struct ranks {
	json_t *probe, *result, *key;
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

	return (x->order > y->order) - (x->order < y->order);
}

static void add_figures(struct report *rp, size_t ri, json_t *index, struct ranks *rk)
{
	const struct run *run = &rp->runs[ri];

	for (size_t i = 0; i < run->nres; i++) {
		const struct result *r = &run->res[i];
		size_t pr = rank(rk->probe, r->probe), rr = rank(rk->result, r->id);

		for (size_t k = 0; k < json_array_size(r->recs); k++) {
			const char *key;
			json_t *val;

			json_object_foreach(json_array_get(r->recs, k), key, val) {
				char *fid;
				json_t *fi;
				struct figure *f;
				if (!key_is_figure(json_array_get(r->recs, k), key, val))
					continue;
				fid = xasprintf("%s\x1f\x1e%s", r->id, key);
				fi = json_object_get(index, fid);
				if (!fi) {
					grow(&rp->figs, &rp->figcap, rp->nfigs + 1, sizeof(*rp->figs));
					f = &rp->figs[rp->nfigs];
					f->id = r->id;
					f->probe = r->probe;
					f->name = r->name;
					f->ident = r->ident;
					f->key = key;
					/* probes, results and keys in the order first seen */
					f->order = (pr << 40) | (rr << 20) | rank(rk->key, fid);
					f->per_run = xcalloc(rp->nruns, sizeof(*f->per_run));
					json_object_set_new(index, fid, json_integer((json_int_t)rp->nfigs));
					rp->nfigs++;
				} else {
					f = &rp->figs[json_integer_value(fi)];
				}
				free(fid);
				if (f->per_run[ri].n)
					continue;
				result_agg(r, key, &f->per_run[ri]);
			}
		}
	}
}

void report_finish(struct report *rp, char *const *labels, size_t nlabels)
{
	struct ranks rk = { json_object(), json_object(), json_object() };
	json_t *index = json_object();

	for (size_t i = 0; i < rp->nruns; i++) {
		struct run *r = &rp->runs[i];

		r->label = i < nlabels && *labels[i] ? xstrdup(labels[i]) : default_label(r);
	}
	dedupe_labels(rp);
	for (size_t i = 0; i < rp->nruns; i++)
		add_figures(rp, i, index, &rk);
	if (rp->nfigs)
		qsort(rp->figs, rp->nfigs, sizeof(*rp->figs), cmp_fig);
	json_decref(index);
	json_decref(rk.probe);
	json_decref(rk.result);
	json_decref(rk.key);
}

void report_free(struct report *rp)
{
	for (size_t i = 0; i < rp->nruns; i++) {
		struct run *r = &rp->runs[i];

		for (size_t k = 0; k < r->nres; k++) {
			free(r->res[k].id);
			free(r->res[k].ident);
			json_decref(r->res[k].recs);
		}
		free(r->res);
		free(r->file);
		free(r->label);
		json_decref(r->head);
		json_decref(r->end);
		json_decref(r->fingerprint);
		json_decref(r->boot);
		json_decref(r->notes);
		json_decref(r->res_index);
	}
	for (size_t i = 0; i < rp->nfigs; i++)
		free(rp->figs[i].per_run);
	free(rp->runs);
	free(rp->figs);
	memset(rp, 0, sizeof(*rp));
}
