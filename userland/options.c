// SPDX-License-Identifier: MIT
/*
 * The suite's options: the command-line contract's rows (common/words.c)
 * and the probes' own rows (each probe's struct probe), each bound to where
 * its value is kept.
 * `timeprobe help` and README's tables are printed from these rows.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "probe.h"
#include "suggest.h"
#include "sysinfo.h"
#include "../common/buf.h"
#include "../common/stubfile.h"
#include "../common/words.h"

struct opt_row {
	const struct tp_word *w;
	size_t off, size;	/* where the value is kept (struct options, or store); size 0: nowhere */
	void *store;		/* a probe's own option: its value lives in its file */
	const struct probe_opt *po;	/* a probe's own option: its row */
};

#define AT(f) offsetof(struct options, f), sizeof(((struct options *)0)->f), 0, 0
#define NOWHERE 0, 0, 0, 0
#define W(id) (&tp_words[id])

/* The suite's own words; then come the probes' rows (registry order). */
static const struct opt_row suite_rows[] = {
	{ W(TPW_PROBES), AT(probes) },
	{ W(TPW_PROFILE), AT(quick) },
	{ W(TPW_AFTER), AT(after) },
	{ W(TPW_REPEAT), AT(repeat) },
	{ W(TPW_ROUNDS), AT(rounds) },
	{ W(TPW_TIMEOUT), AT(timeout_s) },
	{ W(TPW_WATCHDOG), AT(watchdog_s) },
	{ W(TPW_INJECT), AT(inject) },
	{ W(TPW_SAVE), AT(save) },
	{ W(TPW_SAVE_TO), AT(save_to) },
	{ W(TPW_HOLD), AT(hold_s) },
	{ W(TPW_LAVA), AT(lava) },
	{ W(TPW_CPU_DMA_LATENCY), AT(cpu_dma_latency_us) },
	{ W(TPW_UPLOAD), AT(upload) },
	{ W(TPW_PUSH), AT(push) },
};

/* After the probes' rows: the words of the stub, the build and the launcher. */
static const struct opt_row handoff_rows[] = {
	/* The stub's own: checked here with its bounds, listed in the run record. */
	{ W(TPW_CALIB_ROUNDS), NOWHERE },
	{ W(TPW_CALIB_MS), NOWHERE },
	{ W(TPW_TSC_EARLY), NOWHERE },
	{ W(TPW_HWLAT_MS), NOWHERE },
	{ W(TPW_HWLAT_THRESH_US), NOWHERE },
	{ W(TPW_HWLAT_STUCK), NOWHERE },
	/*
	 * Written by the stub in its file alone: refused on any line (refused()),
	 * read by stubread.c into the probes' ctx->stub, never kept here.
	 */
	{ W(TPW_TSC_HZ), NOWHERE },
	{ W(TPW_TSC_REF), NOWHERE },
	{ W(TPW_BOOTPART), NOWHERE },
	{ W(TPW_FIRMWARE), NOWHERE },
	{ W(TPW_BOOT_TSC), NOWHERE },
	/* Written by the build and the launcher. */
	{ W(TPW_VARIANT), AT(variant) },
	{ W(TPW_KCONFIG), AT(kconfig) },
	{ W(TPW_ACCEL), AT(accel) },
};

/*
 * Linux's own words that the suite reads too (TP_WF_BARE rows read by the
 * suite), taken bare from the kernel command line alone: they are no
 * timeprobe.* options, so row_at() does not list them.
 */
static const struct opt_row bare_rows[] = {
	{ W(TPW_TSC_EARLY_KHZ), AT(tsc_early_khz) },
};

#define N_SUITE (sizeof(suite_rows) / sizeof(suite_rows[0]))
#define N_HANDOFF (sizeof(handoff_rows) / sizeof(handoff_rows[0]))
#define N_BARE (sizeof(bare_rows) / sizeof(bare_rows[0]))

/* The i-th row of all: suite rows, every probe's rows, hand-off rows. */
static int row_at(size_t i, struct opt_row *out)
{
	if (i < N_SUITE) {
		*out = suite_rows[i];
		return 1;
	}
	i -= N_SUITE;
	for (size_t k = 0; k < probe_count; k++) {
		const struct probe *p = probe_table[k];

		if (i < p->n_opts) {
			const struct probe_opt *po = &p->opts[i];

			*out = (struct opt_row){ &po->w, 0, 0, po->store, po };
			out->size = po->w.type == TP_WT_INTS ? sizeof(struct int_list) :
				    po->w.type == TP_WT_NAMES ? sizeof(struct name_list) : sizeof(int);
			return 1;
		}
		i -= p->n_opts;
	}
	if (i < N_HANDOFF) {
		*out = handoff_rows[i];
		return 1;
	}
	return 0;
}

static char *slot(const struct opt_row *r, struct options *o)
{
	return r->store ? (char *)r->store : (char *)o + r->off;
}

static void store_int(const struct opt_row *r, struct options *o, int64_t v)
{
	char *p = slot(r, o);

	if (r->size == sizeof(int64_t))
		*(int64_t *)p = v;
	else if (r->size == sizeof(int))
		*(int *)p = (int)v;
}

static int64_t load_int(const struct opt_row *r, struct options *o)
{
	char *p = slot(r, o);

	return r->size == sizeof(int64_t) ? *(int64_t *)p : *(int *)p;
}

void options_defaults(struct options *o)
{
	struct opt_row r;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; row_at(i, &r); i++) {
		enum tp_word_type t = r.w->type;

		if (r.store)
			memset(r.store, 0, r.size);
		if (r.size && (t == TP_WT_INT || t == TP_WT_BOOL || t == TP_WT_CHOICE))
			store_int(&r, o, r.w->def);
	}
}

void options_resolve(struct options *o, enum opt_env env)
{
	struct opt_row r;

	for (size_t i = 0; row_at(i, &r); i++)
		if (r.po && r.po->by_env && load_int(&r, o) == r.w->def)
			store_int(&r, o, r.po->env_def[env]);
	/* hold: time to read the screen on hardware; none under QEMU or on a host */
	if (o->hold_s < 0)
		o->hold_s = env == OPT_ENV_APPLIANCE && !sysinfo_running_in_qemu() ? 30 : 0;
}

/* Appends an error to errs; NULL when errs is full (or none). */
static struct opt_error *fail(struct opt_errors *errs, const char *name, const char *value,
			      const char *reason)
{
	struct opt_error *e;

	if (!errs || errs->n >= OPT_ERRORS_MAX)
		return 0;
	e = &errs->e[errs->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->value, sizeof(e->value), "%s", value ? value : "");
	snprintf(e->reason, sizeof(e->reason), "%s", reason);
	e->taken = 0;
	e->as_typed = 0;
	return e;
}

/* name was a probe option's old spelling: set all the same, and said so. */
static void warn_was(struct opt_errors *errs, const struct opt_row *r, const char *value)
{
	char msg[96];
	struct opt_error *e;

	snprintf(msg, sizeof(msg), "%s is now %s", r->po->was, r->w->name);
	e = fail(errs, r->po->was, value, msg);
	if (e)
		e->taken = 1;
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
	char *base = slot(r, o);
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

/* A contract word in either spelling, as Linux's parameq() takes a
 * parameter (common/words.h) and as a host's options are written:
 * --cpu-dma-latency is cpu_dma_latency. A probe's own names (dashes) are
 * matched as written. */
static int same_word(const char *word, const char *name)
{
	return tp_param_eq(word, strlen(word), name, strlen(name));
}

/* The row called name (1), or whose old spelling it is (2); 0: none. */
static int find_row(const char *name, struct opt_row *r)
{
	for (size_t i = 0; row_at(i, r); i++) {
		if (r->po ? !strcmp(r->w->name, name) : same_word(r->w->name, name))
			return 1;
		if (r->po && r->po->was && !strcmp(r->po->was, name))
			return 2;
	}
	return 0;
}

static const char *row_name(size_t i, const void *ctx)
{
	struct opt_row r;

	return row_at(i, &r) ? r.w->name : 0;
}

/* "unknown option", with the near misses among the rows' names. */
static void unknown(char *msg, size_t len, const char *name)
{
	size_t n = 0;
	struct opt_row r;

	while (row_at(n, &r))
		n++;
	snprintf(msg, len, "unknown option");
	suggest_append(msg, len, name, row_name, n, 0);
}

/* Why a word from src is not taken (the contract's writer of its row), or NULL. */
static const char *refused(const struct tp_word *w, enum opt_source src)
{
	if (src == OPT_FROM_LAUNCHER && !(w->by & TP_BY_LAUNCHER))
		return "not a launcher's word: SMBIOS OEM strings carry only those; ignored";
	if (src == OPT_FROM_USER && w->by == TP_BY_STUB)
		return "the stub's alone: taken from its file " TP_STUB_FILE_PATH " only; ignored";
	return 0;
}

int options_set_from(struct options *o, enum opt_source src, const char *name,
		     const char *value, struct opt_errors *errs)
{
	struct opt_row row, *r = &row;
	const char *no;
	char msg[96];
	int found = find_row(name, r);

	if (!found) {
		unknown(msg, sizeof(msg), name);
		fail(errs, name, value, msg);
		return -1;
	}
	if ((no = refused(r->w, src))) {
		fail(errs, name, value, no);
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
	if (found == 2)
		warn_was(errs, r, value);
	return 0;
}

int options_set(struct options *o, const char *name, const char *value, struct opt_errors *errs)
{
	return options_set_from(o, OPT_FROM_USER, name, value, errs);
}

/* The word a into word[1024] as Linux's next_arg() cuts it (common/words.h):
 * its name, then its value after a NUL, returned (NULL: none). */
static char *cut(const struct tp_arg *a, char word[1024])
{
	if (a->name_len + a->val_len + 2 > 1024)
		return snprintf(word, 1024, "%.*s", (int)a->name_len, a->name), (char *)0;
	memcpy(word, a->name, a->name_len);
	word[a->name_len] = 0;
	if (!a->has_val)
		return 0;
	memcpy(word + a->name_len + 1, a->val, a->val_len);
	word[a->name_len + 1 + a->val_len] = 0;
	return word + a->name_len + 1;
}

/* One "timeprobe.NAME=VALUE" word a, from src. */
static void apply_word(struct options *o, enum opt_source src, const struct tp_arg *a,
		       struct opt_errors *errs)
{
	char word[1024], *value = cut(a, word);

	if (!strncmp(word, TP_WORD_PREFIX, TP_WORD_PREFIX_LEN))
		options_set_from(o, src, word + TP_WORD_PREFIX_LEN, value, errs);
}

/* One bare "NAME=VALUE" word of a bare row (either spelling, as Linux's
 * parameq), from src; the last one wins, as in Linux's parse_args(). A bad
 * value keeps the one before, and says so. */
static void apply_bare(struct options *o, enum opt_source src, const struct tp_arg *a,
		       struct opt_errors *errs)
{
	char word[1024], msg[96], *value = cut(a, word);

	for (size_t i = 0; value && i < N_BARE; i++) {
		const struct tp_word *t = bare_rows[i].w;

		if (!same_word(word, t->name) || refused(t, src))
			continue;
		if (set_one(&bare_rows[i], o, value, msg, sizeof(msg)))
			fail(errs, t->name, value, msg);
	}
}

/* Linux reads no parameter after "--" (kernel/params.c, parse_args); nor do we. */
static int next_param(const char *line, size_t *pos, struct tp_arg *a)
{
	return tp_line_arg(line, pos, a) && !tp_arg_dashes(a);
}

static void from_line(struct options *o, const char *line, enum opt_source src,
		      struct opt_errors *errs)
{
	size_t pos = 0;
	struct tp_arg a;

	while (next_param(line, &pos, &a))
		apply_word(o, src, &a, errs);
}

/* 1 when a's prefix is a near miss of "timeprobe." (suggest.h): refused, with the word meant. */
static int prefix_typo(const struct tp_arg *a, struct opt_errors *errs)
{
	char word[1024], msg[160], *value;
	size_t lead;
	struct opt_error *e;

	if (!suggest_prefix_typo(a->name, a->name_len, TP_WORD_PREFIX, &lead))
		return 0;
	value = cut(a, word);
	snprintf(msg, sizeof(msg), "a mistyped prefix; did you mean " TP_WORD_PREFIX
		 "%s?", lead < a->name_len ? word + lead : "<option>");
	if ((e = fail(errs, word, value, msg)))
		e->as_typed = 1;
	return 1;
}

void options_from_cmdline(struct options *o, const char *cmdline, struct opt_errors *errs)
{
	size_t pos = 0, sl = sizeof(TP_WORD_PREFIX TP_WORD_RETIRED_SEAL) - 1;
	struct tp_arg a;

	/* words as the kernel cuts them (common/words.c); none is the stub's */
	while (next_param(cmdline, &pos, &a)) {
		if (tp_param_eq(a.name, a.name_len, TP_WORD_PREFIX TP_WORD_RETIRED_SEAL, sl) &&
		    a.has_val) {
			fail(errs, TP_WORD_RETIRED_SEAL, "", "retired: the stub hands its figures "
			     "over in " TP_STUB_FILE_PATH ", not on the command line; ignored");
			continue;
		}
		if (prefix_typo(&a, errs))
			continue;
		apply_word(o, OPT_FROM_USER, &a, errs);
		apply_bare(o, OPT_FROM_USER, &a, errs);
	}
}

void options_from_kernel(struct options *o, const char *cmdline, struct opt_errors *errs)
{
	size_t pos = 0;
	struct tp_arg a;

	while (next_param(cmdline, &pos, &a))
		apply_bare(o, OPT_FROM_USER, &a, errs);
}

void options_from_launcher(struct options *o, const char *words, struct opt_errors *errs)
{
	from_line(o, words, OPT_FROM_LAUNCHER, errs);
}

const struct tp_word *options_row(size_t i)
{
	struct opt_row r;

	return row_at(i, &r) ? r.w : 0;
}

size_t int_list_or(const struct int_list *asked, const int64_t *dflt, size_t ndflt, int64_t *out,
		   size_t max)
{
	const int64_t *src = asked && asked->n ? asked->v : dflt;
	size_t n = asked && asked->n ? asked->n : ndflt;

	if (n > max)
		n = max;
	memcpy(out, src, n * sizeof(*out));
	return n;
}
