// SPDX-License-Identifier: MIT
/*
 * Writes tp-report's built-in copy of the probes' declarations
 * (tools/report/keys.h) as C on stdout: the keys records a run ships, made
 * by the same function from the same probe tables (userland/keydecl.c),
 * each key's one line for docs/records.md, and the verdict's items with
 * their bounds in the verdict's order (userland/verdict.c's list of the
 * probes' struct probe_verdict), so that each bound is written once, in
 * its probe; how each probe's results are shown (common/show.h); and the
 * keys of the records no probe writes, as their writers declare them
 * (common/recdecl.h). A host program linked against the userland objects;
 * report.mk runs it at build time. Exit 1 when a record does not fit.
 */
#include <stdio.h>
#include <string.h>

#include "../../../common/stubfile.h"
#include "../../../userland/attribution.h"
#include "../../../userland/boottime.h"
#include "../../../userland/emit.h"
#include "../../../userland/fingerprint.h"
#include "../../../userland/keydecl.h"
#include "../../../userland/readiness.h"
#include "../../../userland/upload.h"
#include "../../../userland/verdict.h"

/* s as a C string literal's contents. */
static void c_string(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\%03o", c);
		else
			putchar(c);
	}
}

static int print_records(void)
{
	printf("const char *const keys_builtin[] = {\n");
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];
		struct tp_rec r;
		const char *line, *json;
		long len;

		if (p->inject || !p->keys)
			continue;
		keydecl_record(&r, p);
		line = tp_rec_finish(&r);
		len = line ? tp_rec_check(line, r.len - 1, &json) : -1;
		if (len <= 0) {
			fprintf(stderr, "keys_gen: %s: the keys record does not fit %d bytes\n", p->name,
				TP_REC_MAX);
			return 1;
		}
		printf("\t\"");
		c_string(json, (size_t)len);
		printf("\",\n");
	}
	printf("\t0,\n};\n\n");
	return 0;
}

static void print_what(void)
{
	printf("const char *const keys_builtin_what[][3] = {\n");
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];

		for (size_t k = 0; !p->inject && k < p->n_keys; k++) {
			const char *f[3] = { p->name, p->keys[k].name, p->keys[k].what };

			printf("\t{ ");
			for (int j = 0; j < 3; j++) {
				printf("\"");
				c_string(f[j] ? f[j] : "", f[j] ? strlen(f[j]) : 0);
				printf("\"%s", j < 2 ? ", " : "");
			}
			printf(" },\n");
		}
	}
	printf("\t{ 0, 0, 0 },\n};\n");
}

/* A C string literal, or 0 for NULL. */
static void c_literal(const char *s)
{
	if (!s) {
		printf("0");
		return;
	}
	printf("\"");
	c_string(s, strlen(s));
	printf("\"");
}

static int print_verdict(void)
{
	struct verdict_decl d[VERDICT_ITEMS];
	int n = verdict_decls(probe_table, probe_count, d, VERDICT_ITEMS);

	if (n < 0) {
		fprintf(stderr, "keys_gen: more verdict items than %d\n", VERDICT_ITEMS);
		return 1;
	}
	printf("\nconst struct verdict_limit verdict_limits[] = {\n");
	for (int i = 0; i < n; i++) {
		const struct verdict_limit *l = &d[i].d->lim;

		printf("\t{ ");
		c_literal(l->id);
		printf(", ");
		c_literal(l->what);
		printf(", ");
		c_literal(l->unit);
		printf(", %.17g, %.17g, ", l->good_max, l->fair_max);
		c_literal(l->basis);
		printf(" },\n");
	}
	printf("};\n\nconst size_t verdict_limit_count = %d;\n", n);
	return 0;
}

/* Literals, comma-separated. */
static void c_literals(const char *const *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		c_literal(s[i]);
		printf("%s", i + 1 < n ? ", " : "");
	}
}

static void print_clock(size_t i, const struct show_clock *c)
{
	printf("static const struct show_clock clock_%zu = { ", i);
	c_literals((const char *const[]){ c->name, c->ident, c->key, c->booted_key, c->skip_key,
					  c->route_key, c->route_direct, c->route_as }, 8);
	printf(" };\n");
}

static void print_layout(size_t i, const struct show_layout *l)
{
	printf("static const struct show_layout layout_%zu = { ", i);
	c_literal(l->sort_key);
	printf(", %d, {\n", l->descending);
	for (size_t k = 0; k < SHOW_COLS_MAX && l->cols[k].title; k++) {
		const struct show_col *c = &l->cols[k];

		printf("\t{ ");
		c_literals((const char *const[]){ c->title, c->pat, c->pat2, c->mid, c->end }, 5);
		printf(" },\n");
	}
	printf("} };\n");
}

static void print_series(size_t i, const struct show_series *s)
{
	printf("static const struct show_series series_%zu = {\n\t", i);
	c_literals((const char *const[]){ s->base, s->title, s->xlabel, s->ylabel, s->xkey, s->ykey },
		   6);
	printf(",\n\t{ ");
	c_literals(s->split, 3);
	printf(" }, %d, %d, ", s->logx, s->logy);
	c_literals((const char *const[]){ s->lokey, s->hikey, s->caption }, 3);
	printf("\n};\n");
}

static void print_bars(size_t i, const struct show_bars *b)
{
	printf("static const struct show_bars bars_%zu = {\n\t%d, ", i, (int)b->kind);
	c_literals((const char *const[]){ b->base, b->key, b->title, b->xlabel, b->caption,
					  b->group_title, b->name_pre, b->name_post, b->skip_ident,
					  b->panel_key, b->panel_pre, b->panel_post, b->label_key,
					  b->label_num_key }, 14);
	printf(", %.17g\n};\n", b->mark_x);
}

static void print_pairs(size_t i, const struct show_pairs *p)
{
	printf("static const struct show_pairs pairs_%zu = {\n\t", i);
	c_literals((const char *const[]){ p->base, p->a_key, p->b_key, p->key, p->bound_key,
					  p->when_key, p->when, p->title, p->xlabel, p->ylabel,
					  p->caption }, 11);
	printf("\n};\n");
}

/* A member of the table: &NAME_i, or 0. */
static void member(const char *name, size_t i, const void *p)
{
	if (p)
		printf("&%s_%zu", name, i);
	else
		printf("0");
}

static void print_show(void)
{
	printf("\n");
	for (size_t i = 0; i < probe_count; i++) {
		const struct show_decl *s = &probe_table[i]->show;

		if (s->default_clock)
			print_clock(i, s->default_clock);
		if (s->layout)
			print_layout(i, s->layout);
		if (s->series)
			print_series(i, s->series);
		if (s->bars)
			print_bars(i, s->bars);
		if (s->pairs)
			print_pairs(i, s->pairs);
	}
	printf("\nconst struct show_of show_builtin[] = {\n");
	for (size_t i = 0; i < probe_count; i++) {
		const struct show_decl *s = &probe_table[i]->show;

		if (probe_table[i]->inject || (!s->default_clock && !s->layout && !s->series && !s->bars &&
					       !s->pairs))
			continue;
		printf("\t{ ");
		c_literal(probe_table[i]->name);
		printf(", { ");
		member("clock", i, s->default_clock);
		printf(", ");
		member("layout", i, s->layout);
		printf(", ");
		member("series", i, s->series);
		printf(", ");
		member("bars", i, s->bars);
		printf(", ");
		member("pairs", i, s->pairs);
		printf(" } },\n");
	}
	printf("\t{ 0, { 0, 0, 0, 0, 0 } },\n};\n");
}

/* Every writer's rows, in the order docs/records.md lists them. */
static void print_rec_keys(void)
{
	static const struct tp_rec_key *const writers[] = {
		tp_stub_rec_keys, emit_rec_keys, keydecl_rec_keys, attribution_rec_keys,
		fingerprint_rec_keys, verdict_rec_keys, readiness_rec_keys, boottime_rec_keys,
		upload_rec_keys,
	};

	printf("\nconst struct tp_rec_key rec_keys_builtin[] = {\n");
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		for (const struct tp_rec_key *w = writers[i]; w->type; w++) {
			printf("\t{ ");
			c_literals((const char *const[]){ w->type, w->key }, 2);
			printf(", %d, ", (int)w->cls);
			c_literal(w->why);
			printf(" },\n");
		}
	printf("\t{ 0, 0, 0, 0 },\n};\n");
}

int main(void)
{
	printf("/* Generated by tools/report/gen/keys_gen.c from the probes' declarations: "
	       "do not edit. */\n#include \"keys.h\"\n#include \"show.h\"\n\n");
	if (print_records())
		return 1;
	print_what();
	if (print_verdict())
		return 1;
	print_show();
	print_rec_keys();
	return ferror(stdout) ? 1 : 0;
}
