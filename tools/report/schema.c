// SPDX-License-Identifier: MIT
/*
 * The identity schema; see schema.h. A probe's result keys are its own
 * declaration (keys.h: struct probe_key in the probe's file); the keys of
 * the records no probe writes are their writers' rows (common/recdecl.h,
 * through keys.h's rec_keys_builtin); the rows here are the frame's: every
 * record's, and the run and end records that open and close a run.
 */
#include <fnmatch.h>
#include <string.h>

#include "keys.h"
#include "schema.h"
#include "util.h"

struct schema_row {
	const char *type;	/* record type, fnmatch() pattern; "*": every record */
	const char *key;	/* fnmatch() pattern */
	enum key_class cls;
	const char *why;
};

#define F KEY_FIGURE
#define B KEY_BUDGET
#define I KEY_ID
#define C KEY_CONTEXT

/*
 * Identity keys are the parameters a user or the probe chose; context is
 * what the run found or happened to use. Rows are tried in order.
 */
static const struct schema_row schema[] = {
	{ "*", "type", KEY_FRAME, "the record type" },
	{ "*", "iteration", KEY_FRAME, "which repetition (--repeat): iterations combine" },
	{ "*", "round", KEY_FRAME, "which round of the probe's budget (--rounds): the run's record follows; the comparison's samples" },
	{ "*", "probe", I, "the probe" },
	{ "*", "name", I, "what was measured, as a person writes it" },
	/* here: each probe's declaration of its result records' keys (keys.h) */

	/* then the rows of the records no probe writes, by their writers (keys.h: rec_keys_builtin) */
	{ "run", "*", C, "where and how the suite ran: the header of a run" },
	{ "end", "*", C, "probe counts and records written" },
};


#undef F
#undef B
#undef I
#undef C

/* Lookups are cached: a capture has thousands of records with the same few keys. */
#define CACHE_MAX 8192
static json_t *cache;
static unsigned cache_generation;

/*
 * A probe's declaration classifies the keys of its results; in its skip
 * and error records only its identity keys (a skip lines up with the
 * result it stands for), the rest by the record type's rows.
 */
static enum key_class declared(const char *type, const char *probe, const char *key)
{
	const struct key_decl *d = probe ? keys_find(probe, key) : NULL;

	/* a declared figure's interval, [lo, hi, n] (keys.h): context */
	if (!d && probe && !strcmp(type, "result") && keys_ci_of(probe, key))
		return KEY_CONTEXT;
	if (!d)
		return KEY_UNKNOWN;
	if (!strcmp(type, "result"))
		return d->cls;
	if (d->cls == KEY_ID && (!strcmp(type, "skip") || !strcmp(type, "error")))
		return KEY_ID;
	return KEY_UNKNOWN;
}

/* A writer's class as the schema names it. */
static enum key_class class_of(enum tp_key_class c)
{
	return c == TP_KEY_ID ? KEY_ID : c == TP_KEY_FIGURE ? KEY_FIGURE :
	       c == TP_KEY_BUDGET ? KEY_BUDGET : c == TP_KEY_CONTEXT ? KEY_CONTEXT : KEY_UNKNOWN;
}

static enum key_class lookup(const char *type, const char *probe, const char *key)
{
	enum key_class c = declared(type, probe, key);

	for (size_t i = 0; c == KEY_UNKNOWN && i < ARRAY_SIZE(schema); i++)
		if (!fnmatch(schema[i].type, type, 0) && !fnmatch(schema[i].key, key, 0))
			c = schema[i].cls;
	for (const struct tp_rec_key *w = rec_keys_builtin; c == KEY_UNKNOWN && w->type; w++)
		if (!fnmatch(w->type, type, 0) && !fnmatch(w->key, key, 0))
			c = class_of(w->cls);
	return c;
}

/* "type\x1fprobe\x1fkey" into buf (of n bytes) if it fits, else into a new string. */
static char *cache_key(char *buf, size_t n, const char *type, const char *probe, const char *key)
{
	const char *part[] = { type, probe ? probe : "", key };
	size_t len[3], total = 0;
	char *ck, *p;

	for (size_t i = 0; i < 3; i++)
		total += (len[i] = strlen(part[i])) + 1;
	ck = p = total <= n ? buf : xmalloc(total);
	for (size_t i = 0; i < 3; i++) {
		memcpy(p, part[i], len[i]);
		p += len[i];
		*p++ = i < 2 ? '\x1f' : 0;
	}
	return ck;
}

enum key_class schema_lookup(const char *type, const char *probe, const char *key)
{
	char buf[256], *ck;
	json_t *hit;
	enum key_class c;

	if (!cache || cache_generation != keys_generation()) {
		json_decref(cache);
		cache = json_object();
		cache_generation = keys_generation();
	}
	/* a lookup for every key of every record: no printf, no allocation */
	ck = cache_key(buf, sizeof(buf), type, probe, key);
	hit = json_object_get(cache, ck);
	if (hit) {
		c = (enum key_class)json_integer_value(hit);
	} else {
		c = lookup(type, probe, key);
		if (json_object_size(cache) >= CACHE_MAX)
			json_object_clear(cache);
		json_object_set_new(cache, ck, json_integer(c));
	}
	if (ck != buf)
		free(ck);
	return c;
}

int schema_is_figure(enum key_class c)
{
	return c == KEY_FIGURE || c == KEY_BUDGET;
}

int schema_signed(const char *probe, const char *key)
{
	const struct key_decl *d = probe ? keys_find(probe, key) : NULL;

	return d && d->dir == KEY_DIR_ZERO;
}

enum combine schema_combine(const char *type, const char *probe, const char *key, char *other,
			    size_t n)
{
	const struct key_decl *d, *half;
	const char *partner;
	int len;

	/* the cached lookup first: most keys are no figure of a result */
	if (strcmp(type, "result") || !probe || !schema_is_figure(schema_lookup(type, probe, key)))
		return COMBINE_MEAN;
	d = keys_find(probe, key);
	half = keys_half_of(probe, key);
	partner = d && d->half_of ? d->half_of : half ? half->name : NULL;
	if (!d || !partner)
		return COMBINE_MEAN;
	len = snprintf(other, n, "%s", partner);
	if (len < 0 || (size_t)len >= n || !schema_is_figure(schema_lookup(type, probe, other)))
		return COMBINE_MEAN;
	return d->half_of ? COMBINE_HALF_WIDTH : COMBINE_CENTRE;
}

enum key_class rec_key_class(const json_t *rec, const char *key, const json_t *val)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	enum key_class c = schema_lookup(type ? type : "", json_string_value(json_object_get(rec, "probe")),
					 key);

	if (c == KEY_UNKNOWN)
		c = json_is_number(val) ? KEY_FIGURE : KEY_CONTEXT;
	if (schema_is_figure(c) && !json_is_number(val))
		c = KEY_CONTEXT;
	return c;
}

const char *key_class_name(enum key_class c)
{
	static const char *const names[] = {
		[KEY_UNKNOWN] = "unknown", [KEY_FRAME] = "frame", [KEY_ID] = "id",
		[KEY_FIGURE] = "figure", [KEY_BUDGET] = "budget", [KEY_CONTEXT] = "context",
	};

	return (size_t)c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

/* A table cell: the pattern in code quotes, '|' escaped for GFM. */
static void md_code(FILE *f, const char *s)
{
	fputc('`', f);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[2]){ *s, 0 }, f);
	fputc('`', f);
}

static void md_row(FILE *f, const char *type, const char *probe, const char *key,
		   enum key_class c, const char *unit, const char *dir)
{
	fputs("| ", f);
	md_code(f, type);
	fputs(" | ", f);
	if (probe)
		md_code(f, probe);
	fputs(" | ", f);
	md_code(f, key);
	fprintf(f, " | %s | %s | %s | ", key_class_name(c), unit ? unit : "", dir ? dir : "");
}

/* One declared key: what it is, and the rules it carries. */
static void md_declared(const char *probe, const struct key_decl *d, void *arg)
{
	FILE *f = arg;

	md_row(f, "result", probe, d->name, d->cls, d->unit, keys_dir_name(d->dir));
	fputs(d->what ? d->what : "", f);
	if (d->same_as) {
		fputs("; the same fact as ", f);
		md_code(f, d->same_as);
		if (d->same_below_n)
			fprintf(f, " when n < %ld", d->same_below_n);
		fputs(", shown once", f);
	}
	if (d->max_of) {
		fputs("; the largest ", f);
		md_code(f, d->max_of);
		fputs(" of the probe's other results, shown once, by its own", f);
	}
	if (d->half_of) {
		fputs("; iterations combine as the intersection of ", f);
		md_code(f, d->half_of);
		fputs(" ± ", f);
		md_code(f, d->name);
	}
	fputs(" |\n", f);
}

void schema_print_markdown(FILE *f)
{
	fputs("| record | probe | key | class | unit | better | what |\n"
	      "|---|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(schema); i++) {
		const struct schema_row *r = &schema[i];

		/* the probes' declarations after the rows for every record, then the writers' rows */
		if (i && !strcmp(schema[i - 1].type, "*") && strcmp(r->type, "*")) {
			keys_foreach_builtin(md_declared, f);
			for (const struct tp_rec_key *w = rec_keys_builtin; w->type; w++) {
				md_row(f, w->type, NULL, w->key, class_of(w->cls), NULL, NULL);
				fprintf(f, "%s |\n", w->why);
			}
		}
		md_row(f, r->type, NULL, r->key, r->cls, NULL, NULL);
		fprintf(f, "%s |\n", r->why);
	}
}

void schema_unknown_keys(const json_t *rec, json_t *unknown)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	const char *probe = json_string_value(json_object_get(rec, "probe"));
	const char *key;
	json_t *val;

	json_object_foreach((json_t *)rec, key, val) {
		char *k;
		json_t *n;

		if (schema_lookup(type ? type : "", probe, key) != KEY_UNKNOWN)
			continue;
		k = xasprintf("%s/%s/%s", type ? type : "?", probe ? probe : "-", key);
		n = json_object_get(unknown, k);
		json_object_set_new(unknown, k, json_integer(n ? json_integer_value(n) + 1 : 1));
		free(k);
	}
}

void schema_cache_free(void)
{
	json_decref(cache);
	cache = NULL;
}
