// SPDX-License-Identifier: MIT
/* A result's identity and what the report keeps of its records; see result.h. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "schema.h"
#include "show.h"
#include "util.h"

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

/* The probe's declaration of its as-booted rows (show.h), or NULL: it has none. */
static const struct show_clock *booted_decl(const char *probe)
{
	const struct show_decl *d = show_find(probe);

	return d && d->default_clock && d->default_clock->booted_key ? d->default_clock : NULL;
}

int result_as_booted(struct result *r, const char *booted)
{
	const struct show_clock *c = booted_decl(r->probe);
	json_t *cs = c ? json_object_get(r->first, c->booted_key) : NULL, *copy;
	json_t *route = c && c->route_key ? json_object_get(r->first, c->route_key) : NULL;

	if (r->booted_id || !json_is_string(cs) || strcmp(json_string_value(cs), booted) ||
	    !key_is_ident(r->first, c->booted_key, cs) ||
	    (c->skip_key && json_object_get(r->first, c->skip_key)))
		return 0;
	/* a shallow copy: the first record's values, keys replaced */
	copy = json_copy(r->first);
	json_object_set_new(copy, c->booted_key, json_string(AS_BOOTED));
	if (json_is_string(route) && c->route_direct && c->route_as &&
	    !strcmp(json_string_value(route), c->route_direct))
		json_object_set_new(copy, c->route_key, json_string(c->route_as));
	r->booted_id = result_id(copy, &r->booted_ident);
	json_decref(copy);
	return 1;
}

/* --- what is kept of the records ---------------------------------------- */

/* Up to this many keys a result finds one by comparing names; beyond, by an index. */
#define KEY_SCAN_MAX 16

void result_init(struct result *r, json_t *rec, const char *probe, const char *name, char *id,
		 char *ident)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->ident = ident;
	r->probe = probe;
	r->name = name;
	r->first = json_incref(rec);
	/* room for the first record's keys: the others' are mostly the same */
	r->keycap = json_object_size(rec);
	r->keys = xcalloc(r->keycap, sizeof(*r->keys));
}

static long key_pos(const struct result *r, const char *key)
{
	json_t *i;

	if (!r->key_index) {
		for (size_t k = 0; k < r->nkeys; k++)
			if (!strcmp(r->keys[k].key, key))
				return (long)k;
		return -1;
	}
	i = json_object_get(r->key_index, key);
	return i ? (long)json_integer_value(i) : -1;
}

const struct rkey *result_key(const struct result *r, const char *key)
{
	long i = key_pos(r, key);

	return i < 0 ? NULL : &r->keys[i];
}

static void index_key(struct result *r, size_t i)
{
	json_object_set_new(r->key_index, r->keys[i].key, json_integer((json_int_t)i));
}

/* The key of r with this name, added if new; key_kept: key lives as long as r. */
static struct rkey *add_key(struct result *r, const char *key, int key_kept)
{
	long i = key_pos(r, key);
	struct rkey *k;

	if (i >= 0)
		return &r->keys[i];
	if (r->nkeys >= RESULT_KEYS_MAX) {
		if (!r->keys_dropped++)
			warn_visible("report: %s %s: more than " RESULT_KEYS_MAX_TEXT " different keys; "
				     "the rest are left out\n", r->probe, r->name);
		return NULL;
	}
	grow(&r->keys, &r->keycap, r->nkeys + 1, sizeof(*r->keys));
	k = &r->keys[r->nkeys++];
	memset(k, 0, sizeof(*k));
	k->key = key_kept ? key : xstrdup(key);
	k->own_key = !key_kept;
	k->scalar_seq = k->figure_seq = SEQ_NONE;
	if (r->key_index) {
		index_key(r, r->nkeys - 1);
	} else if (r->nkeys > KEY_SCAN_MAX) {
		r->key_index = json_object();
		for (size_t n = 0; n < r->nkeys; n++)
			index_key(r, n);
	}
	return k;
}

/* Values from records 0, 1, 2 ... need no record numbers: the first gap adds them. */
static void column_add(struct column *c, size_t rec, double v)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
		if (c->rec)
			c->rec = xrealloc(c->rec, c->cap * sizeof(*c->rec));
	}
	if (!c->rec && rec != c->n) {
		c->rec = xmalloc(c->cap * sizeof(*c->rec));
		for (size_t i = 0; i < c->n; i++)
			c->rec[i] = i;
	}
	if (c->rec)
		c->rec[c->n] = rec;
	c->v[c->n++] = v;
}

size_t column_rec(const struct column *c, size_t i)
{
	return c->rec ? c->rec[i] : i;
}

static int is_scalar(const json_t *v)
{
	return v && !json_is_object(v) && !json_is_array(v) && !json_is_null(v);
}

/* a + b, both >= 0, held at COUNT_MAX: a crafted record's counts cannot wrap. */
#define COUNT_MAX ((json_int_t)INT64_MAX)
static json_int_t count_sum(json_int_t a, json_int_t b)
{
	return a > COUNT_MAX - b ? COUNT_MAX : a + b;
}

/*
 * Adds the buckets of one iteration's "hist" to r's: the first with a valid
 * width sets it, iterations with another width cannot be added up.
 */
static void hist_add(struct hist *hs, const json_t *h)
{
	json_t *w = json_object_get(h, "width_ns"), *b = json_object_get(h, "buckets");
	json_t *o = json_object_get(h, "overflow");
	const char *key;
	json_t *val;

	if (!json_is_integer(w) || json_integer_value(w) <= 0 || !json_is_object(b))
		return;
	if (hs->width_ns && json_integer_value(w) != hs->width_ns)
		return;
	hs->width_ns = json_integer_value(w);
	if (!hs->counts)
		hs->counts = json_object();
	if (json_is_integer(o) && json_integer_value(o) > 0)
		hs->overflow += (uint64_t)json_integer_value(o);
	json_object_foreach((json_t *)b, key, val) {
		char *end;
		long i = strtol(key, &end, 10);
		json_t *c;

		if (*end || end == key || i < 0 || i > HIST_BUCKET_MAX ||
		    !json_is_integer(val) || json_integer_value(val) <= 0)
			continue;
		c = json_object_get(hs->counts, key);
		json_object_set_new(hs->counts, key, json_integer(count_sum(json_integer_value(val),
			c ? json_integer_value(c) : 0)));
	}
}

void result_add_record(struct result *r, json_t *rec)
{
	const char *key;
	json_t *val;

	json_object_foreach(rec, key, val) {
		/* the first record is kept: its keys need no copy */
		struct rkey *k = add_key(r, key, rec == r->first);
		size_t seq = r->seq++;
		int figure;

		if (!k)
			continue;
		figure = key_is_figure(rec, key, val);
		if (!k->first) {
			k->first = json_incref(val);
			k->first_is_figure = figure;
		}
		if (k->scalar_seq == SEQ_NONE && is_scalar(val)) {
			k->scalar_seq = seq;
			k->scalar_numeric = json_is_number(val);
		}
		if (k->figure_seq == SEQ_NONE && figure)
			k->figure_seq = seq;
		if (json_is_number(val))
			column_add(&k->col, r->nrecs, json_num(val));
	}
	hist_add(&r->hist, json_object_get(rec, "hist"));
	r->nrecs++;
}

static size_t seq_of(const struct rkey *k, enum key_order by)
{
	return by == KEYS_AS_SCALARS ? k->scalar_seq : k->figure_seq;
}

struct order {
	const struct rkey *keys;
	enum key_order by;
};

static int by_seq(const void *a, const void *b, void *ctx)
{
	const struct order *o = ctx;
	size_t x = seq_of(&o->keys[*(const size_t *)a], o->by);
	size_t y = seq_of(&o->keys[*(const size_t *)b], o->by);

	return (x > y) - (x < y);
}

size_t result_keys_by(const struct result *r, enum key_order by, size_t **out)
{
	struct order o = { r->keys, by };
	size_t *idx = xcalloc(r->nkeys + 1, sizeof(*idx)), n = 0;

	for (size_t i = 0; i < r->nkeys; i++)
		if (seq_of(&r->keys[i], by) != SEQ_NONE)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), by_seq, &o);
	*out = idx;
	return n;
}

void result_free(struct result *r)
{
	for (size_t i = 0; i < r->nkeys; i++) {
		if (r->keys[i].own_key)
			free((char *)r->keys[i].key);
		json_decref(r->keys[i].first);
		free(r->keys[i].col.v);
		free(r->keys[i].col.rec);
	}
	free(r->keys);
	json_decref(r->key_index);
	json_decref(r->first);
	json_decref(r->hist.counts);
	free(r->id);
	free(r->ident);
	free(r->booted_id);
	free(r->booted_ident);
	memset(r, 0, sizeof(*r));
}

/* --- figures over the iterations ------------------------------------------ */

/* The mean and sample stddev of log(v) into a, when every v is above 0; else NAN. */
static void log_spread(const double *v, size_t n, struct agg *a)
{
	double sum = 0, ss = 0;

	a->log_mean = a->log_stddev = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return;
		sum += log(v[i]);
	}
	a->log_mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(v[i]) - a->log_mean) * (log(v[i]) - a->log_mean);
	a->log_stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
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
	log_spread(v, n, a);
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - a->mean) * (v[i] - a->mean);
	a->stddev = sqrt(ss / (double)(n - 1));
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

size_t result_values(const struct result *r, const char *key, double **out)
{
	const struct rkey *k = result_key(r, key);
	size_t n = k ? k->col.n : 0;

	*out = xmalloc((n ? n : 1) * sizeof(**out));
	if (n)
		memcpy(*out, k->col.v, n * sizeof(**out));
	return n;
}

/*
 * The intersection of the iterations' intervals centre ± half; iterations
 * that lack either half of theirs have none and are left out.
 */
static void intersect(const struct result *r, const char *centre, const char *half,
		      int want_half, struct agg *a)
{
	const struct rkey *kc = result_key(r, centre), *kh = result_key(r, half);
	const struct column *c = kc ? &kc->col : NULL, *h = kh ? &kh->col : NULL;
	size_t total = c && h ? (c->n < h->n ? c->n : h->n) : 0, n = 0;
	double *v = xmalloc((total ? total : 1) * sizeof(*v));
	double lo = -INFINITY, hi = INFINITY;

	/* the two columns in record order: the pairs of one record */
	for (size_t i = 0, j = 0; c && h && i < c->n && j < h->n;) {
		size_t rc = column_rec(c, i), rh = column_rec(h, j);

		if (rc != rh) {
			rc < rh ? i++ : j++;
			continue;
		}
		if (h->v[j] >= 0) {
			v[n++] = want_half ? h->v[j] : c->v[i];
			lo = fmax(lo, c->v[i] - h->v[j]);
			hi = fmin(hi, c->v[i] + h->v[j]);
		}
		i++;
		j++;
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
	const char *type = json_string_value(json_object_get(r->first, "type"));
	const char *probe = json_string_value(json_object_get(r->first, "probe"));
	char other[128];
	enum combine how = schema_combine(type ? type : "", probe, key, other, sizeof(other));
	const struct rkey *k;

	if (how == COMBINE_CENTRE || how == COMBINE_HALF_WIDTH) {
		intersect(r, how == COMBINE_CENTRE ? key : other,
			  how == COMBINE_CENTRE ? other : key, how == COMBINE_HALF_WIDTH, a);
		/* no iteration wrote both halves: no interval, only values */
		if (a->n)
			return;
	}
	k = result_key(r, key);
	agg_of(k ? k->col.v : NULL, k ? k->col.n : 0, a);
}
