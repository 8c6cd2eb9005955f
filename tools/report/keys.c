// SPDX-License-Identifier: MIT
/* The probes' key declarations, from the logs or built in; see keys.h. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "util.h"

/* One probe's declaration: its keys in table order. */
struct probe_decl {
	char *probe;
	struct key_decl *v;
	size_t n;
	json_t *index;		/* exact name -> position in v */
	json_t *raw;		/* the keys object as read: tells a different declaration */
	char *file;		/* the log it came from; NULL: built in */
};

struct decls {
	struct probe_decl *v;
	size_t n, cap;
};

static struct decls builtin, from_logs;
static int builtin_loaded;
static unsigned generation;

static const char *const class_names[] = {
	[KEY_ID] = "id", [KEY_FIGURE] = "figure", [KEY_BUDGET] = "budget", [KEY_CONTEXT] = "context",
};
static const char *const dir_names[] = {
	[KEY_DIR_NEITHER] = NULL, [KEY_DIR_HIGHER] = "higher", [KEY_DIR_LOWER] = "lower",
	[KEY_DIR_ZERO] = "zero",
};

static const char *const ci_names[] = {
	[KEY_CI_UNSAID] = NULL, [KEY_CI_INTERVAL] = "interval", [KEY_CI_NONE] = "none",
	[KEY_CI_UNSTABLE] = "unstable",
};

static const char *const kind_names[] = {
	[KEY_KIND_UNSAID] = NULL, [KEY_KIND_VALUE] = "value", [KEY_KIND_COUNT] = "count",
	[KEY_KIND_MAX] = "max", [KEY_KIND_CONTEXT] = "context",
};

const char *keys_ci_name(enum key_ci c)
{
	return (size_t)c < ARRAY_SIZE(ci_names) ? ci_names[c] : NULL;
}

const char *keys_dir_name(enum key_dir d)
{
	return (size_t)d < ARRAY_SIZE(dir_names) ? dir_names[d] : NULL;
}

/* A string or null into *out (copied); -1 for anything else. */
static int opt_string(const json_t *v, char **out)
{
	if (json_is_null(v)) {
		*out = NULL;
		return 0;
	}
	if (!json_is_string(v) || !json_string_length(v))
		return -1;
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int find_name(const char *const *names, size_t n, const char *s);

/* The rules object, the fifth element: same_below_n, max_of, half_of, ci, kind. */
static const char *parse_rules(const json_t *rules, struct key_decl *d)
{
	const json_t *ci = json_object_get(rules, "ci");
	const json_t *below = json_object_get(rules, "same_below_n");
	const json_t *max = json_object_get(rules, "max_of");
	const json_t *half = json_object_get(rules, "half_of");
	const json_t *kind = json_object_get(rules, "kind");

	if (!json_is_object(rules))
		return "its fifth element is not an object of rules";
	if (below && (!json_is_integer(below) || json_integer_value(below) < 1))
		return "same_below_n is not a positive integer";
	d->same_below_n = below ? (long)json_integer_value(below) : 0;
	if (max && (!json_is_string(max) || opt_string(max, &d->max_of)))
		return "max_of is not a key";
	if (half && (!json_is_string(half) || opt_string(half, &d->half_of)))
		return "half_of is not a key";
	if (ci) {
		int c = find_name(ci_names, ARRAY_SIZE(ci_names), json_string_value(ci));

		if (c < 0)
			return "ci is not interval, none or unstable";
		d->ci = (enum key_ci)c;
	}
	if (kind) {
		int k = find_name(kind_names, ARRAY_SIZE(kind_names), json_string_value(kind));

		if (k < 0)
			return "kind is not value, count, max or context";
		d->kind = (enum key_kind)k;
	}
	return NULL;
}

/*
 * fnmatch() backtracks once per '*': a pattern read from a log is matched
 * against every key of every record, so it may have no more stars than
 * the probes' own tables use.
 */
#define PATTERN_STARS_MAX 2

static int stars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '*';
	return n;
}

/* The index of s among the n names (NULL ones never match), or -1. */
static int find_name(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	return -1;
}

/* [class, unit, direction, same_as(, rules)] into d; NULL, or what is wrong. */
static const char *parse_entry(const char *name, const json_t *val, struct key_decl *d)
{
	const json_t *dir = json_array_get(val, 2);
	int cls = find_name(class_names, ARRAY_SIZE(class_names),
			    json_string_value(json_array_get(val, 0)));
	int di = json_is_null(dir) ? KEY_DIR_NEITHER :
		 find_name(dir_names, ARRAY_SIZE(dir_names), json_string_value(dir));

	d->name = xstrdup(name);
	d->pattern = strpbrk(name, "*?[") != NULL;
	if (stars(name) > PATTERN_STARS_MAX)
		return "a pattern with more than two '*'";
	if (!json_is_array(val) || json_array_size(val) < 4 || json_array_size(val) > 5)
		return "not an array [class, unit, direction, same_as] (and rules)";
	if (cls < 0)
		return "class is not id, figure, budget or context";
	d->cls = (enum key_class)cls;
	if (opt_string(json_array_get(val, 1), &d->unit))
		return "unit is neither a string nor null";
	if (di < 0)
		return "direction is not higher, lower, zero or null";
	d->dir = (enum key_dir)di;
	if (opt_string(json_array_get(val, 3), &d->same_as))
		return "same_as is neither a key nor null";
	if (json_array_size(val) == 5)
		return parse_rules(json_array_get(val, 4), d);
	return NULL;
}

static void decl_free(struct key_decl *d)
{
	free(d->name);
	free(d->unit);
	free(d->same_as);
	free(d->max_of);
	free(d->half_of);
}

static void probe_decl_free(struct probe_decl *p)
{
	for (size_t i = 0; i < p->n; i++)
		decl_free(&p->v[i]);
	free(p->v);
	free(p->probe);
	free(p->file);
	json_decref(p->index);
	json_decref(p->raw);
}

/* rec's declaration into p; NULL, or what is wrong (*bad_key: which key). */
static const char *parse_record(const json_t *rec, struct probe_decl *p, const char **bad_key)
{
	const json_t *keys = json_object_get(rec, "keys");
	const char *key;
	json_t *val;

	*bad_key = NULL;
	if (!json_is_string(json_object_get(rec, "for_probe")))
		return "no for_probe";
	p->probe = xstrdup(json_string_value(json_object_get(rec, "for_probe")));
	if (!json_is_object(keys))
		return "no keys object";
	p->v = xcalloc(json_object_size(keys) + 1, sizeof(*p->v));
	p->index = json_object();
	p->raw = json_incref((json_t *)keys);
	json_object_foreach((json_t *)keys, key, val) {
		const char *why = parse_entry(key, val, &p->v[p->n++]);

		if (why) {
			*bad_key = key;
			return why;
		}
		if (!p->v[p->n - 1].pattern)
			json_object_set_new(p->index, key, json_integer((json_int_t)p->n - 1));
	}
	return NULL;
}

static struct probe_decl *find_probe(struct decls *ds, const char *probe)
{
	for (size_t i = 0; probe && i < ds->n; i++)
		if (!strcmp(ds->v[i].probe, probe))
			return &ds->v[i];
	return NULL;
}

/* The built-in keys' one line each, for --schema: the rows by probe and key. */
static void attach_what(struct probe_decl *p)
{
	for (size_t i = 0; keys_builtin_what[i][0]; i++)
		for (size_t k = 0; k < p->n; k++)
			if (!strcmp(keys_builtin_what[i][0], p->probe) &&
			    !strcmp(keys_builtin_what[i][1], p->v[k].name))
				p->v[k].what = keys_builtin_what[i][2];
}

/* The built-in declaration is made by a program from the probes' tables: it parses. */
static void load_builtin(void)
{
	if (builtin_loaded)
		return;
	builtin_loaded = 1;
	for (size_t i = 0; keys_builtin[i]; i++) {
		json_t *rec = json_loads(keys_builtin[i], 0, NULL);
		struct probe_decl p = { 0 };
		const char *bad_key, *why = parse_record(rec, &p, &bad_key);

		if (why) {
			fprintf(stderr, "report: built-in key declaration %zu: %s%s%s\n", i, why,
				bad_key ? " at key " : "", bad_key ? bad_key : "");
			probe_decl_free(&p);
		} else {
			attach_what(&p);
			grow(&builtin.v, &builtin.cap, builtin.n + 1, sizeof(*builtin.v));
			builtin.v[builtin.n++] = p;
		}
		json_decref(rec);
	}
	generation++;
}

const char *keys_what(const char *probe, const char *key)
{
	/* exact names first, then the patterns in table order, as keys_find() */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; keys_builtin_what[i][0]; i++)
			if (!strcmp(keys_builtin_what[i][0], probe) &&
			    (pass ? !fnmatch(keys_builtin_what[i][1], key, 0) :
				    !strcmp(keys_builtin_what[i][1], key)))
				return keys_builtin_what[i][2];
	return NULL;
}

int keys_note_record(const json_t *rec, const char *file)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	struct probe_decl p = { 0 }, *earlier;
	const char *bad_key, *why;

	if (!type || strcmp(type, "keys"))
		return 0;
	why = parse_record(rec, &p, &bad_key);
	if (why) {
		warn_visible("report: %s: keys record of %s%s%s: %s; not taken\n", file,
			     p.probe ? p.probe : "no probe", bad_key ? ", key " : "", bad_key ? bad_key : "",
			     why);
		probe_decl_free(&p);
		return -1;
	}
	earlier = find_probe(&from_logs, p.probe);
	if (earlier) {
		if (!json_equal(earlier->raw, p.raw))
			warn_visible("report: %s: declares the keys of %s differently from %s; "
				     "the first is kept\n", file, p.probe, earlier->file);
		probe_decl_free(&p);
		return 0;
	}
	p.file = xstrdup(file);
	grow(&from_logs.v, &from_logs.cap, from_logs.n + 1, sizeof(*from_logs.v));
	from_logs.v[from_logs.n++] = p;
	generation++;
	return 1;
}

static const struct probe_decl *active(const char *probe)
{
	const struct probe_decl *p = find_probe(&from_logs, probe);

	load_builtin();
	return p ? p : find_probe(&builtin, probe);
}

/* probe's declaration of key (exact names first, then patterns in order), or NULL. */
static const struct key_decl *find_in(const struct probe_decl *p, const char *key)
{
	json_t *at;

	if (!p)
		return NULL;
	at = json_object_get(p->index, key);
	if (at)
		return &p->v[json_integer_value(at)];
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].pattern && !fnmatch(p->v[i].name, key, 0))
			return &p->v[i];
	return NULL;
}

const struct key_decl *keys_find(const char *probe, const char *key)
{
	return find_in(active(probe), key);
}

enum key_ci keys_ci(const char *probe, const char *key)
{
	const struct key_decl *d = keys_find(probe, key);

	if (d && d->ci != KEY_CI_UNSAID)
		return d->ci;
	d = find_in(find_probe(&builtin, probe), key);
	return d ? d->ci : KEY_CI_UNSAID;
}

enum key_kind keys_kind(const char *probe, const char *key)
{
	const struct key_decl *d = keys_find(probe, key);

	if (d && d->kind != KEY_KIND_UNSAID)
		return d->kind;
	d = find_in(find_probe(&builtin, probe), key);
	return d ? d->kind : KEY_KIND_UNSAID;
}

const struct key_decl *keys_ci_of(const char *probe, const char *key)
{
	size_t n = strlen(key), sn = strlen(KEYS_CI_SUFFIX);
	const struct key_decl *d;
	char *base;

	if (n <= sn || strcmp(key + n - sn, KEYS_CI_SUFFIX))
		return NULL;
	base = xstrdup(key);
	base[n - sn] = 0;
	d = keys_find(probe, base);
	free(base);
	return d && d->cls == KEY_FIGURE ? d : NULL;
}

const struct key_decl *keys_half_of(const char *probe, const char *centre)
{
	const struct probe_decl *p = active(probe);

	for (size_t i = 0; p && i < p->n; i++)
		if (p->v[i].half_of && !strcmp(p->v[i].half_of, centre))
			return &p->v[i];
	return NULL;
}

unsigned keys_generation(void)
{
	load_builtin();
	return generation;
}

void keys_foreach_builtin(void (*fn)(const char *probe, const struct key_decl *d, void *arg),
			  void *arg)
{
	load_builtin();
	for (size_t i = 0; i < builtin.n; i++)
		for (size_t k = 0; k < builtin.v[i].n; k++)
			fn(builtin.v[i].probe, &builtin.v[i].v[k], arg);
}

void keys_print_builtin(FILE *f)
{
	for (size_t i = 0; keys_builtin[i]; i++)
		fprintf(f, "%s\n", keys_builtin[i]);
}

static void decls_free(struct decls *ds)
{
	for (size_t i = 0; i < ds->n; i++)
		probe_decl_free(&ds->v[i]);
	free(ds->v);
	*ds = (struct decls){ 0 };
}

void keys_forget_logs(void)
{
	decls_free(&from_logs);
	generation++;
}

void keys_free(void)
{
	decls_free(&builtin);
	decls_free(&from_logs);
	builtin_loaded = 0;
	generation++;
}
