// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/keys.c: the built-in declaration (exact keys
 * before patterns, patterns in table order, interval halves), a log's
 * declaration taking over a probe and the schema's cached lookups with it,
 * and every malformed keys record refused whole.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/report/keys.h"
#include "../../tools/report/schema.h"
#include "../unit/tap.h"

static json_t *parse(const char *json)
{
	json_t *o = json_loads(json, 0, NULL);

	if (!o) {
		printf("# bad test JSON: %s\n", json);
		exit(1);
	}
	return o;
}

static void test_builtin(void)
{
	const struct key_decl *d = keys_find("wakeup", "hist_range_ns");
	char other[64] = "";

	ok(d && d->cls == KEY_BUDGET, "wakeup hist_range_ns: its own row, a budget, before the *_ns pattern");
	d = keys_find("wakeup", "p90_ns");
	ok(d && d->pattern && d->cls == KEY_FIGURE && d->dir == KEY_DIR_LOWER,
	   "wakeup p90_ns: the *_ns pattern, a figure, lower is better");
	d = keys_find("wakeup", "p999_ns");
	ok(d && d->same_as && !strcmp(d->same_as, "max_ns") && d->same_below_n == 1000,
	   "wakeup p999_ns is max_ns below 1000 samples");
	ok(keys_find("tsc", "stub_vs_kernel_ppm")->dir == KEY_DIR_ZERO &&
	   keys_find("tsc", "spread_ppm")->dir == KEY_DIR_LOWER,
	   "tsc: *_vs_*_ppm (signed) is tried before *_ppm");
	ok(!strcmp(keys_find("tscsync", "max_bound_ns")->max_of, "bound_ns"),
	   "tscsync: max_bound_ns is the largest of the pairs' bound_ns");
	ok(!strcmp(keys_find("tscsync", "bound_ticks")->same_as, "bound_ns") &&
	   !strcmp(keys_half_of("tscsync", "offset_ns")->name, "bound_ns"),
	   "tscsync: bound_ticks is bound_ns; bound_ns is the half-width of offset_ns");
	ok(schema_combine("result", "tscsync", "offset_ticks", other, sizeof(other)) == COMBINE_CENTRE &&
	   !strcmp(other, "bound_ticks"), "offset_ticks combines as the centre of bound_ticks' interval");
	ok(!keys_find("clocks", "frobs_per_s") && !keys_find("nosuch", "x"),
	   "an undeclared key, an unknown probe: no declaration");
}

static void test_from_log(void)
{
	json_t *keys = parse("{\"type\":\"keys\",\"for_probe\":\"yield\",\"keys\":{"
			     "\"ns_per_yield\":[\"budget\",\"ns\",null,null]}}");
	json_t *res = parse("{\"type\":\"result\",\"probe\":\"yield\",\"name\":\"x\",\"ns_per_yield\":5}");
	unsigned gen;

	ok(schema_lookup("result", "yield", "ns_per_yield") == KEY_FIGURE, "built in: ns_per_yield is a figure");
	gen = keys_generation();
	ok(keys_note_record(res, "log") == 0 && keys_generation() == gen, "a result record is no declaration");
	ok(keys_note_record(keys, "log") == 1 && keys_generation() != gen, "a keys record is taken");
	ok(schema_lookup("result", "yield", "ns_per_yield") == KEY_BUDGET &&
	   rec_key_class(res, "ns_per_yield", json_object_get(res, "ns_per_yield")) == KEY_BUDGET,
	   "the log's declaration classifies from then on: the cached lookup is redone");
	ok(!keys_find("yield", "threads"), "it replaces the probe's whole built-in declaration");
	ok(keys_note_record(keys, "log2") == 0, "the same declaration again: nothing changes");
	json_decref(keys);
	json_decref(res);
	keys_free();
	ok(schema_lookup("result", "yield", "ns_per_yield") == KEY_FIGURE, "keys_free(): the built-in again");
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"{\"type\":\"keys\",\"keys\":{}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":[]}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":\"figure\"}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"frame\",null,null,null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",5,null,null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",\"\",null,null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,\"up\",null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,true,null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null,[]]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null,null,[]]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null,null,{\"same_below_n\":0}]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null,null,{\"half_of\":1}]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null,null,{\"max_of\":\"\"}]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"figure\",null,null,null,{},1]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"*a*b*\":[\"figure\",null,null,null]}}",
		"{\"type\":\"keys\",\"for_probe\":\"p\",\"keys\":{\"k\":[\"id\",null,null,null],\"j\":[]}}",
	};
	int all = 1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *rec = parse(bad[i]);

		all &= keys_note_record(rec, "hostile") == -1;
		json_decref(rec);
	}
	ok(all, "each of %zu malformed keys records is refused", sizeof(bad) / sizeof(bad[0]));
	ok(!keys_find("p", "k"), "and none of them declares anything");
}

int main(void)
{
	test_builtin();
	test_from_log();
	test_refused();
	keys_free();
	schema_cache_free();
	return tap_done();
}
