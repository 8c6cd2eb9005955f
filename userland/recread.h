/* SPDX-License-Identifier: MIT */
/*
 * Reading the suite's own kept records back (sink_saved(), sink.h): each
 * line's CRC checked (common/record.h), then the value of a top-level key
 * of its JSON object, as text, number, string or yes/no, or every
 * top-level member in order, and whether a record is one a probe's
 * declaration selects (struct rec_where). For the verdict (verdict.c), the
 * tsc_readiness record (readiness_facts.c) and the LAVA measurement lines
 * (lavamon.c); a line that is not a whole record, or a value of another
 * type, reads as absent. Tested by tests/unit/test_recread.c.
 */
#ifndef TP_RECREAD_H
#define TP_RECREAD_H

#include <stddef.h>

struct rec_view {
	const char *json;	/* the record's JSON object, not NUL-terminated */
	size_t len;
};

/*
 * The next record whose CRC matches in [*pos, end); advances *pos. 1 found,
 * 0 none left. A round's record (key "round") is passed over: the run's
 * record after the rounds holds the run's figure (docs/records.md, "Rounds").
 */
int recread_next(const char **pos, const char *end, struct rec_view *r);

/* One top-level member: its key between the quotes (escapes kept) and its value's text. */
struct rec_member {
	const char *key, *val;
	size_t klen, vlen;
};

/* The object's top-level members in order, at most max; how many (0: not an object). */
size_t recread_members(const struct rec_view *r, struct rec_member *m, size_t max);

/* The text of KEY's value at the object's top level ("12.5", "\"x\"", "{...}"), or NULL. */
const char *recread_raw(const struct rec_view *r, const char *key, size_t *vlen);

/* 1 and *v when KEY is a number; 0 otherwise (null, absent, another type). */
int recread_num(const struct rec_view *r, const char *key, double *v);
/* 1 and *v (0 or 1) when KEY is true or false. */
int recread_bool(const struct rec_view *r, const char *key, int *v);
/* 1 and the string when KEY is one: \" \\ \/ undone, other escapes kept, cut to fit n. */
int recread_str(const struct rec_view *r, const char *key, char *out, size_t n);
/* 1 when KEY is the string s. */
int recread_is(const struct rec_view *r, const char *key, const char *s);

/*
 * Which records a probe's verdict item or readiness fact reads (probe.h):
 * those where key's string value is one of is[] (note[i]: words the
 * item's `from` adds when is[i] matched), key is the number num, or key is
 * there at all; RW_NONE: every record.
 */
enum rec_where_kind { RW_NONE, RW_IS, RW_NUM, RW_HAS };

struct rec_where {
	enum rec_where_kind kind;
	const char *key;
	const char *is[2], *note[2];
	double num;
};

#define RW_IS(k, ...) { .kind = RW_IS, .key = (k), .is = { __VA_ARGS__ } }
#define RW_NUM(k, v) { .kind = RW_NUM, .key = (k), .num = (v) }
#define RW_HAS(k) { .kind = RW_HAS, .key = (k) }

/* 1 when every one of w[0..n) holds of r; *note the matched is[]'s note, when it has one. */
int recread_where(const struct rec_view *r, const struct rec_where *w, size_t n,
		  const char **note);

#endif
