// SPDX-License-Identifier: MIT
/* A probe's key declaration as a record; see keydecl.h. */
#include "keydecl.h"

const char *keydecl_class_name(enum probe_key_class c)
{
	static const char *const names[] = {
		[PK_ID] = "id", [PK_FIGURE] = "figure", [PK_BUDGET] = "budget",
		[PK_CONTEXT] = "context",
	};

	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "context";
}

const char *keydecl_dir_name(enum probe_key_dir d)
{
	static const char *const names[] = {
		[PK_NEITHER] = 0, [PK_HIGHER] = "higher", [PK_LOWER] = "lower", [PK_ZERO] = "zero",
	};

	return (unsigned)d < sizeof(names) / sizeof(names[0]) ? names[d] : 0;
}

const char *keydecl_ci_name(enum probe_key_ci c)
{
	static const char *const names[] = {
		[PK_CI_UNSAID] = 0, [PK_CI_INTERVAL] = "interval", [PK_CI_NONE] = "none",
		[PK_CI_UNSTABLE] = "unstable",
	};

	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : 0;
}

const char *keydecl_kind_name(enum probe_key_kind k)
{
	static const char *const names[] = {
		[PK_KIND_UNSAID] = 0, [PK_KIND_VALUE] = "value", [PK_KIND_COUNT] = "count",
		[PK_KIND_MAX] = "max", [PK_KIND_CONTEXT] = "context",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : 0;
}

static void str_or_null(struct tp_rec *r, const char *s)
{
	if (s)
		tp_rec_str(r, 0, s);
	else
		tp_rec_null(r, 0);
}

static void key_entry(struct tp_rec *r, const struct probe_key *k)
{
	tp_rec_arr_begin(r, k->name);
	tp_rec_str(r, 0, keydecl_class_name(k->cls));
	str_or_null(r, k->unit);
	str_or_null(r, keydecl_dir_name(k->dir));
	str_or_null(r, k->same_as);
	if (k->same_below_n || k->max_of || k->half_of || k->ci || k->kind) {
		tp_rec_obj_begin(r, 0);
		if (k->same_below_n)
			tp_rec_int(r, "same_below_n", k->same_below_n);
		if (k->max_of)
			tp_rec_str(r, "max_of", k->max_of);
		if (k->half_of)
			tp_rec_str(r, "half_of", k->half_of);
		if (k->ci)
			tp_rec_str(r, "ci", keydecl_ci_name(k->ci));
		if (k->kind)
			tp_rec_str(r, "kind", keydecl_kind_name(k->kind));
		tp_rec_obj_end(r);
	}
	tp_rec_arr_end(r);
}

void keydecl_record(struct tp_rec *r, const struct probe *p)
{
	tp_rec_begin(r, "keys");
	tp_rec_str(r, "for_probe", p->name);
	tp_rec_obj_begin(r, "keys");
	for (size_t i = 0; i < p->n_keys; i++)
		key_entry(r, &p->keys[i]);
	tp_rec_obj_end(r);
	/* how its results come (docs/records.md, "Rounds") */
	if (p->rounds.min_round_ms > 0) {
		tp_rec_bool(r, "rounds", 1);
		tp_rec_int(r, "min_round_ms", p->rounds.min_round_ms);
	} else {
		tp_rec_bool(r, "rounds", 0);
		tp_rec_str(r, "whole", p->rounds.whole ? p->rounds.whole : "not said");
	}
}

/* What the keys of a keys record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key keydecl_rec_keys[] = {
	{ "keys", "*", TP_KEY_CONTEXT, "a probe's key declaration: the rows of its result records in this table" },
	TP_REC_KEYS_END,
};
