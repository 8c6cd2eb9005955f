// SPDX-License-Identifier: MIT
/*
 * The suite's options: the command-line contract's rows (common/words.c)
 * and the probes' own rows, each bound to where struct options keeps it.
 * `timeprobe help` and README's tables are printed from these rows.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "../common/buf.h"
#include "../common/words.h"

struct opt_row {
	const struct tp_word *w;
	size_t off, size;	/* where struct options keeps the value; size 0: nowhere */
};

#define AT(f) offsetof(struct options, f), sizeof(((struct options *)0)->f)
#define NOWHERE 0, 0
#define W(id) (&tp_words[id])
/* A probe's own row, in the contract's row type. */
#define PROBE_ROW(...) (&(const struct tp_word)__VA_ARGS__)
#define U TP_BY_USER
#define S TP_FOR_SUITE

static const struct opt_row opt_rows[] = {
	{ W(TPW_PROBES), AT(probes) },
	{ W(TPW_PROFILE), AT(quick) },
	{ W(TPW_AFTER), AT(after) },
	{ W(TPW_REPEAT), AT(repeat) },
	{ W(TPW_TIMEOUT), AT(timeout_s) },
	{ W(TPW_WATCHDOG), AT(watchdog_s) },
	{ W(TPW_INJECT), AT(inject) },
	{ W(TPW_SAVE), AT(save) },
	{ W(TPW_HOLD), AT(hold_s) },
	/* The probes' own rows. */
	{ PROBE_ROW({
		.name = "clocksource-sweep", .type = TP_WT_BOOL, .by = U, .reader = S, .hi = 1,
		.def = -1, .dflt = "on", .dflt_host = "off",
		.help = "`clocks`: repeat for every clocksource (root)",
	  }), AT(clocksource_sweep) },
	{ PROBE_ROW({
		.name = "itimer-us", .type = TP_WT_INTS, .by = U, .reader = S, .lo = 1,
		.hi = 10000000, .dflt = "100000,50000,20000,10000,5000,2000,1000,500,200,100",
		.bounds = "1..10000000 each", .help = "`itimer`: requested intervals",
	  }), AT(itimer_us) },
	{ PROBE_ROW({
		.name = "load", .type = TP_WT_INT, .by = U, .reader = S, .lo = -1, .hi = 1024,
		.def = -1, .dflt = "0 and 2 × CPUs", .dflt_host = "0",
		.help = "`itimer`: CPU-burning processes in the background",
	  }), AT(load) },
	{ PROBE_ROW({
		.name = "wakeup-us", .type = TP_WT_INTS, .by = U, .reader = S, .lo = 10,
		.hi = 10000000, .dflt = "1000,100", .bounds = "10..10000000 each",
		.help = "`wakeup`: periods",
	  }), AT(wakeup_us) },
	{ PROBE_ROW({
		.name = "priority", .type = TP_WT_INT, .by = U, .reader = S, .lo = -1,
		.hi = 99, .def = -1, .dflt = "90", .dflt_host = "0 (none)", .bounds = "0..99",
		.help = "`wakeup`: SCHED_FIFO priority",
	  }), AT(priority) },
	{ PROBE_ROW({
		.name = "wakeup-cpu", .type = TP_WT_INT, .by = U, .reader = S, .lo = -1,
		.hi = 4095, .def = -1, .dflt = "-1 (not pinned)",
		.help = "`wakeup`: CPU to pin the measuring thread to",
	  }), AT(wakeup_cpu) },
	{ PROBE_ROW({
		.name = "threads", .type = TP_WT_INTS, .by = U, .reader = S, .lo = 1,
		.hi = 4096, .dflt = "1,2,CPUs,10,50,450", .bounds = "1..4096 each",
		.help = "`yield`: thread counts",
	  }), AT(threads) },
	{ PROBE_ROW({
		.name = "gnuplot", .type = TP_WT_BOOL, .by = U, .reader = S, .hi = 1,
		.dflt = "0", .help = "`yield`: also print the seed's gnuplot-ready columns",
	  }), AT(gnuplot) },
	{ PROBE_ROW({
		.name = "noise-threshold-ns", .type = TP_WT_INT, .by = U, .reader = S,
		.lo = 10, .hi = 1000000000, .def = 1000, .dflt = "1000", .bounds = "10..10⁹",
		.help = "`noise`: smallest gap counted as an interruption",
	  }), AT(noise_threshold_ns) },
	{ PROBE_ROW({
		.name = "noise-ms", .type = TP_WT_INT, .by = U, .reader = S, .hi = 3600000,
		.dflt = "1000 quick, 10000 full", .help = "`noise`: spin time per CPU",
	  }), AT(noise_ms) },
	{ PROBE_ROW({
		.name = "calib-rounds", .type = TP_WT_INT, .by = U, .reader = S, .lo = 1,
		.hi = 100, .def = 5, .dflt = "5",
		.help = "`tsc`: rounds of the user-space calibration",
	  }), AT(calib_rounds) },
	/* The stub's own: checked here with its bounds, listed in the run record. */
	{ W(TPW_CALIB_ROUNDS), NOWHERE },
	{ W(TPW_CALIB_MS), NOWHERE },
	{ W(TPW_TSC_EARLY), NOWHERE },
	/* Written by the stub, the build and the launcher. */
	{ W(TPW_TSC_HZ), AT(tsc_hz) },
	{ W(TPW_TSC_REF), AT(tsc_ref) },
	{ W(TPW_TSC_CALIB), AT(tsc_calib) },
	{ W(TPW_BOOTPART), AT(bootpart) },
	{ W(TPW_VARIANT), AT(variant) },
	{ W(TPW_KCONFIG), AT(kconfig) },
	{ W(TPW_ACCEL), AT(accel) },
};

#define N_ROWS (sizeof(opt_rows) / sizeof(opt_rows[0]))

static void store_int(const struct opt_row *r, struct options *o, int64_t v)
{
	char *p = (char *)o + r->off;

	if (r->size == sizeof(int64_t))
		*(int64_t *)p = v;
	else if (r->size == sizeof(int))
		*(int *)p = (int)v;
}

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < N_ROWS; i++) {
		enum tp_word_type t = opt_rows[i].w->type;

		if (opt_rows[i].size && (t == TP_WT_INT || t == TP_WT_BOOL || t == TP_WT_CHOICE))
			store_int(&opt_rows[i], o, opt_rows[i].w->def);
	}
}

static void fail(struct opt_errors *errs, const char *name, const char *value, const char *reason)
{
	struct opt_error *e;

	if (!errs || errs->n >= OPT_ERRORS_MAX)
		return;
	e = &errs->e[errs->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->value, sizeof(e->value), "%s", value ? value : "");
	snprintf(e->reason, sizeof(e->reason), "%s", reason);
}

static void why(char *out, size_t len, const struct tp_word *w, enum tp_word_err e,
		const char *reason)
{
	struct tp_buf b;

	tp_buf_init(&b, out, len);
	tp_word_why(&b, w, e, reason);
}

/*
 * The next element of a list the contract already checked (no empty ones)
 * into out; 1, 0 at the end, -1 (with msg) when it does not fit. The whole
 * value is read, however long: nothing is cut.
 */
static int next_elem(const char **p, char *out, size_t outlen, char *msg, size_t len)
{
	size_t n;

	if (!*p)
		return 0;
	n = strcspn(*p, ",");
	if (n >= outlen) {
		snprintf(msg, len, "'%.20s...' is longer than %zu characters", *p, outlen - 1);
		return -1;
	}
	memcpy(out, *p, n);
	out[n] = 0;
	*p = (*p)[n] ? *p + n + 1 : 0;
	return 1;
}

/* INTS: each element checked by the contract's parser, at most OPT_LIST_MAX. */
static int set_ints(const struct tp_word *w, struct int_list *dst, const char *value,
		    char *msg, size_t len)
{
	struct int_list tmp = { 0 };
	const char *p = value;
	char tok[24];
	int rc;

	while ((rc = next_elem(&p, tok, sizeof(tok), msg, len)) > 0) {
		if (tmp.n >= OPT_LIST_MAX) {
			snprintf(msg, len, "more than %d values", OPT_LIST_MAX);
			return -1;
		}
		if (tp_word_int(w, tok, strlen(tok), &tmp.v[tmp.n++]))
			return -1;	/* cannot happen: tp_word_check() passed it */
	}
	if (rc < 0)
		return -1;
	*dst = tmp;
	return 0;
}

static int set_names(struct name_list *dst, const char *value, char *msg, size_t len)
{
	struct name_list tmp = { 0 };
	const char *p = value;
	char tok[sizeof(tmp.v[0])];
	int rc;

	while ((rc = next_elem(&p, tok, sizeof(tok), msg, len)) > 0) {
		if (tmp.n >= OPT_LIST_MAX) {
			snprintf(msg, len, "more than %d names", OPT_LIST_MAX);
			return -1;
		}
		snprintf(tmp.v[tmp.n++], sizeof(tmp.v[0]), "%s", tok);
	}
	if (rc < 0)
		return -1;
	*dst = tmp;
	return 0;
}

/* A word the stub alone reads: kept as given for the run record. */
static void keep_stub_word(struct options *o, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < o->n_stub_words; i++)
		if (!strcmp(o->stub_words[i].name, name))
			break;
	if (i == OPT_STUB_WORDS_MAX)
		return;
	if (i == o->n_stub_words)
		o->n_stub_words++;
	snprintf(o->stub_words[i].name, sizeof(o->stub_words[i].name), "%s", name);
	snprintf(o->stub_words[i].value, sizeof(o->stub_words[i].value), "%s", value);
}

static int set_one(const struct opt_row *r, struct options *o, const char *value,
		   char *msg, size_t len)
{
	const struct tp_word *w = r->w;
	char *base = (char *)o + r->off;
	const char *reason;
	enum tp_word_err e = tp_word_check(w, value, strlen(value), &reason);
	int64_t v;

	if (e) {
		why(msg, len, w, e, reason);
		return -1;
	}
	if (!r->size) {
		keep_stub_word(o, w->name, value);
		return 0;
	}
	switch (w->type) {
	case TP_WT_INT:
	case TP_WT_BOOL:
		tp_word_int(w, value, strlen(value), &v);
		store_int(r, o, v);
		return 0;
	case TP_WT_CHOICE:
		tp_word_choice(w, value, strlen(value), &v);
		store_int(r, o, v);
		return 0;
	case TP_WT_INTS:
		return set_ints(w, (struct int_list *)base, value, msg, len);
	case TP_WT_NAMES:
		return set_names((struct name_list *)base, value, msg, len);
	case TP_WT_STR:
		snprintf(base, r->size, "%s", value);
		return 0;
	}
	return -1;
}

static const struct opt_row *find_row(const char *name)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (!strcmp(opt_rows[i].w->name, name))
			return &opt_rows[i];
	return 0;
}

int options_set(struct options *o, const char *name, const char *value, struct opt_errors *errs)
{
	const struct opt_row *r = find_row(name);
	char msg[96];

	if (!r) {
		fail(errs, name, value, "unknown option");
		return -1;
	}
	if (!value) {
		if (r->w->type != TP_WT_BOOL) {
			why(msg, sizeof(msg), r->w, TP_WE_NEEDS_VALUE, 0);
			fail(errs, name, "", msg);
			return -1;
		}
		value = "1";
	}
	if (set_one(r, o, value, msg, sizeof(msg))) {
		fail(errs, name, value, msg);
		return -1;
	}
	return 0;
}

void options_from_cmdline(struct options *o, const char *cmdline, struct opt_errors *errs)
{
	const char *p = cmdline;

	while (*p) {
		char word[1024];
		size_t n = 0;
		char *eq;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		/* the kernel's own quoting: "a b" inside a word */
		for (int quote = 0; *p && (quote || !isspace((unsigned char)*p)); p++) {
			if (*p == '"') {
				quote = !quote;
				continue;
			}
			if (n + 1 < sizeof(word))
				word[n++] = *p;
		}
		word[n] = 0;
		if (strncmp(word, TP_WORD_PREFIX, TP_WORD_PREFIX_LEN))
			continue;
		eq = strchr(word, '=');
		if (eq)
			*eq++ = 0;
		options_set(o, word + TP_WORD_PREFIX_LEN, eq, errs);
	}
}

const struct tp_word *options_row(size_t i)
{
	return i < N_ROWS ? opt_rows[i].w : 0;
}
