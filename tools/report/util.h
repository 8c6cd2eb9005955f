/* SPDX-License-Identifier: MIT */
/*
 * Small helpers for tp-report: allocation that cannot fail (a host tool has
 * nothing better to do on out-of-memory than stop), a growable string, and
 * the one way numbers are printed for people.
 */
#ifndef TP_REPORT_UTIL_H
#define TP_REPORT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <jansson.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string literal: STR(TP_REC_LINE_MAX) is "8190". */
#define STR_(x) #x
#define STR(x) STR_(x)

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *v (of *cap elements of size) so that it holds at least need. */
void grow(void *v, size_t *cap, size_t need, size_t size);

struct sbuf {
	char *s;		/* NUL-terminated once anything was added */
	size_t len;
	size_t cap;
};

void sbuf_add(struct sbuf *b, const char *s, size_t n);
void sbuf_adds(struct sbuf *b, const char *s);
void sbuf_addf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_reset(struct sbuf *b);
void sbuf_free(struct sbuf *b);
/* Returns the string and leaves b empty; "" if nothing was added. */
char *sbuf_take(struct sbuf *b);
/*
 * Adds s as a person may see it on a terminal: C0 and C1 control characters
 * and DEL written out ("\n", "\x1b", "\u009b"), so a record's string can
 * neither move the cursor nor break a table row. Everything else as is.
 */
void sbuf_add_visible(struct sbuf *b, const char *s);

/*
 * Prints fmt to stderr with each %s argument made visible first
 * (sbuf_add_visible()): a warning may name what a record or a command line
 * holds. Only %s conversions (and %%) are allowed in fmt.
 */
void warn_visible(const char *fmt, ...);

/*
 * n strings grouped by equality in one pass (a hash, not n x n compares):
 * idx holds 0..n-1 reordered, group by group, the groups in the order of
 * their first string and each in index order; group g is
 * idx[start[g] .. start[g + 1]).
 */
struct groups {
	size_t *idx;
	size_t *start;		/* n + 1 of them */
	size_t n;		/* groups */
};

void group_strings(const char *const *s, size_t n, struct groups *g);
void groups_free(struct groups *g);

/* A JSON integer or real as a double; json_is_number() says which apply. */
double json_num(const json_t *v);

/*
 * A figure for a person: integers as integers, other values with five
 * significant digits but never in exponent form for ordinary magnitudes,
 * trailing zeros dropped (21.5, 100.04, 10004.2, 0.0012346; 1e-07 below 1e-6).
 */
void fmt_num(char *buf, size_t n, double v);
/* A ratio against the baseline: "2.10x"; "-" when it cannot be formed. */
void fmt_ratio(char *buf, size_t n, double num, double den);

#endif
