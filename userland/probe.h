/* SPDX-License-Identifier: MIT */
/*
 * A probe: one file under userland/probes/ that ends with its struct probe
 * (name, summary, options, time limits, entry point, promised figures, key
 * table), helper files of its own beside it when it needs them (NAME_*.c),
 * and one word in the list of probes/registry.c. It is told what to do (struct
 * probe_ctx), measures, and writes its records and human table through
 * emit.h. The suite runs each probe in a child process with a time limit,
 * so a probe may block, crash or exit: the suite notices and goes on.
 * Its key table says what every key of its records is (struct probe_key):
 * the run ships it and the report reads it. docs/adding-a-probe.md is the
 * recipe.
 */
#ifndef TP_PROBE_H
#define TP_PROBE_H

#include <stdint.h>

#include "options.h"
#include "readiness.h"
#include "recread.h"
#include "supervise.h"
#include "stubvals.h"
#include "tsccal.h"
#include "../common/show.h"
#include "../common/verdict.h"
#include "../common/words.h"

enum probe_status {
	PROBE_OK = 0,
	PROBE_SKIPPED = 1,	/* emitted a skip record: nothing to measure here */
	PROBE_FAILED = 2,	/* emitted an error record */
};

/* The exit code of a probe's process: see supervise.h. */
static inline int probe_exit_code(enum probe_status s)
{
	return s == PROBE_OK ? 0 : s == PROBE_SKIPPED ? SUP_EXIT_SKIPPED : SUP_EXIT_FAILED;
}

/* The best TSC calibration available to this run. */
struct tsc_rate {
	double hz;		/* 0: none (no TSC, or calibration failed) */
	const char *source;	/* "stub" (from its file, ctx->stub), "user" or "cntfrq" (tsccal_probe_or_claim()) */
	const char *ref;	/* the reference it was measured against */
	struct user_calib user;	/* source "user": its rounds, failures, spread */
};

struct probe_ctx {
	const struct options *opt;
	const struct stub_handoff *stub;	/* the stub's figures, read once (stubvals.h); zero: none */
	int quick;		/* profile quick */
	int appliance;		/* running as PID 1 in the appliance */
	int ncpu;		/* CPUs online */
	int64_t deadline_ns;	/* CLOCK_MONOTONIC: the suite kills the probe then */
	int time_scale;		/* 1, or 4 on an emulated CPU (QEMU TCG): the limits' factor */
	struct tsc_rate tsc;	/* filled lazily: call tsccal_probe() */
	/*
	 * Rounds (struct probe_rounds): this child runs round `round` of
	 * `rounds` (1..rounds), with a share of the budget (probe_round_ns());
	 * round 0 and rounds 1: the probe runs whole. state: state_len bytes
	 * shared by all its rounds' children (zero before round 1), where a
	 * probe keeps its samples until its last round writes the run's figure.
	 */
	int round, rounds;
	void *state;
	size_t state_len;
};

/*
 * A probe's own option: the command-line contract's row type (name, type,
 * bounds, default, help; common/words.h) and where its value lives, store:
 * a static of the probe's file (or of the suite module that uses it), set
 * by options.c before the suite forks the probe. Its name is
 * "<probe>-<what>" (docs/adding-a-probe.md). was: the name it had before,
 * still taken for one release, with a warning. A default that differs
 * between the appliance and a host is env_def[], put in place of w.def
 * (then a value no one can set) by options_resolve().
 */
struct probe_opt {
	struct tp_word w;
	void *store;		/* INT, BOOL, CHOICE: int; INTS: struct int_list; NAMES: struct name_list */
	const char *was;	/* the old spelling, or NULL */
	int by_env;
	int64_t env_def[2];	/* [OPT_ENV_APPLIANCE], [OPT_ENV_HOST] */
	/*
	 * by_env rows: the value both sides of a comparison use, so that their
	 * results line up (`timeprobe list --compare`, tools/compare.sh); NULL:
	 * the host's default, which the appliance can always do.
	 */
	int64_t (*compare)(void);
};

/*
 * What a key of a probe's result records is. Identity: what was measured,
 * equal in two runs that compare (a path, a period, a thread count).
 * Figure: a number the machine produced, compared between runs. Budget: a
 * number the probe chose or the run's length decided (a window, a count of
 * round trips): shown, never ranked as a difference between machines.
 * Context: circumstances and findings that are not compared.
 */
enum probe_key_class { PK_ID, PK_FIGURE, PK_BUDGET, PK_CONTEXT };

/*
 * Which way a figure is better: higher (a rate), lower (a cost, a
 * latency), nearer zero (a signed difference: an offset, a deviation in
 * ppm; of either sign, so no ratio of two says anything), or neither.
 */
enum probe_key_dir { PK_NEITHER, PK_HIGHER, PK_LOWER, PK_ZERO };

/*
 * How sure a run is of a figure (docs/records.md, "Uncertainty"): unsaid
 * (older tables: the report judges it by its between-run floor alone);
 * an interval, the record carrying "NAME_ci95": [lo, hi, n] (userland/ci.h),
 * a 95 % interval of the figure from the n samples behind it; none, one
 * value with no samples behind it (a count, a setting: its floor alone);
 * unstable, bimodal or quantized by nature (a hand-off that spins or
 * sleeps, a timer's granularity), never compared by ratio.
 */
enum probe_key_ci { PK_CI_UNSAID, PK_CI_INTERVAL, PK_CI_NONE, PK_CI_UNSTABLE };

/*
 * What kind of number a figure is, for comparing two runs
 * (docs/comparing.md): unsaid, an ordinary value (a mean, a median, a
 * rate); an event count over its window (overruns, switches, interrupts),
 * compared as a rate per second; a maximum or a far quantile of few
 * samples, compared as an extreme through its rounds' maxima; or a count
 * or maximum shown for context, never a lead row.
 */
enum probe_key_kind { PK_KIND_UNSAID, PK_KIND_VALUE, PK_KIND_COUNT, PK_KIND_MAX, PK_KIND_CONTEXT };

/*
 * One row of a probe's key table. name is the record key, or an fnmatch()
 * pattern for keys named at run time (an interrupt's count). same_as names
 * the key that holds the same fact in its primary unit (bound_ticks:
 * bound_ns), or the same statistic when the record's n is below
 * same_below_n (p999_ns is max_ns with fewer than 1000 samples): the report
 * shows it once. max_of: the largest value of that key over the probe's
 * other results of the run (max_bound_ns of the pairs' bound_ns): shown
 * once too, by the result it came from. half_of: this figure is the
 * half-width of an interval
 * centred on that key (bound_ns of offset_ns), and iterations combine by
 * intersecting the intervals. In a skip or error record of the probe, only
 * its identity keys apply.
 */
struct probe_key {
	const char *name;
	enum probe_key_class cls;
	const char *unit;	/* ns, ticks, Hz, ppm, %, count, ...; NULL: none (text, flags) */
	enum probe_key_dir dir;
	const char *what;	/* one line for docs/records.md */
	const char *same_as;
	int same_below_n;	/* 0: same_as always holds */
	const char *max_of;
	const char *half_of;
	enum probe_key_ci ci;
	enum probe_key_kind kind;
};

/* Key table rows: a figure, then the other classes (direction neither). */
#define PKEY_FIG(n, u, d, w, ...) { .name = (n), .cls = PK_FIGURE, .unit = (u), .dir = (d), \
	.what = (w), __VA_ARGS__ }
#define PKEY_ID(n, u, w) { .name = (n), .cls = PK_ID, .unit = (u), .what = (w) }
#define PKEY_BUDGET(n, u, w) { .name = (n), .cls = PK_BUDGET, .unit = (u), .what = (w) }
#define PKEY_CTX(n, u, w) { .name = (n), .cls = PK_CONTEXT, .unit = (u), .what = (w) }

/* Which record's figure an item or a fact keeps when several have one. */
enum probe_pick {
	PP_LAST,	/* the last */
	PP_FIRST,	/* the first */
	PP_LARGEST,	/* the largest |figure| (the worst) */
	PP_INDEPENDENT,	/* the first whose independent_key is true, else the first */
	PP_SUM,		/* the sum over the records (a fact only) */
};

/*
 * One item of the verdict (userland/verdict.c, docs/verdict.md): the row
 * of its words and bounds with their source (lim), its place in the
 * verdict's block and record, and which figure of which record it is.
 * The figure is key's number (|key| + plus_key's, when plus_key is set)
 * plus add, from the probe's result records that where[] selects, or
 * (record set) from the run's own record of that type. tp-report prints
 * the bounds from these rows (tools/report/gen/keys_gen.c writes them).
 */
struct probe_verdict {
	struct verdict_limit lim;
	int place;			/* first 1: the verdict's order */
	const char *record;		/* NULL: the probe's results; else "fingerprint" */
	const char *key;
	const char *plus_key;
	double add;
	struct rec_where where[2];
	enum probe_pick pick;
	const char *from;		/* words after "PROBE: NAME"; a record's: all of it */
	const char *context_key;	/* then ", KEY VALUE" */
	const char *one_origin_key;	/* a list naming key when its figure's sides are one */
	const char *independent_key;	/* the reference is independent (true, false, absent) */
	const char *why_key;		/* when not independent: why, from the record */
	const char *p999_key, *n_key;	/* a worst case's p99.9 and sample count, beside it */
	const char *absent;		/* a record's item: why no figure; NULL: it did not say */
};

/*
 * One fact of the tsc_readiness record (readiness.h's enum readiness_fact,
 * docs/readiness.md) that the probe's records say: key's number (or
 * true/false as 1/0) from its result records, or from its own record of
 * type record ("calib", "skip"), or from the run's ("fingerprint", "run"),
 * those that where[] selects; several kept as pick says (PP_LAST,
 * PP_FIRST, PP_SUM). one_origin_key: a list that names key when its two
 * sides are one figure. A clock of a vote (RF_CLOCK_*): its name is
 * name_key's string, its rate key's, its uncertainty |unc_key| or half of
 * hi_key - lo_key; after boot, whether its reference is independent of the
 * TSC is independent_key's answer (true, false, null: the record's, which
 * tscref.c decided), why_key's its reason. RF_POSTBOOT_WHY: key is the text,
 * name_key's string after name_prefix the reference it is about.
 */
struct probe_fact {
	enum readiness_fact fact;
	const char *record;
	const char *key;
	struct rec_where where[2];
	enum probe_pick pick;
	const char *one_origin_key;
	const char *name_key, *name_prefix;
	const char *unc_key, *lo_key, *hi_key;
	const char *independent_key, *why_key;
};

/*
 * One reason of the tsc_readiness record: its rule (id, what a person
 * reads, unit, the bound, what its failure does, the bound's source),
 * its place in the record, the fact it judges (plus another's, an offset's
 * bound; or the ppm of fact against vs), the record it comes from as the
 * reason says it, and why there is no figure: absent; absent_vs when vs is
 * the one missing; needs_absent when the fact needs is missing too.
 * one_origin: why a fact of one origin is not judged. one_cpu: with one
 * CPU and no figure, passed, from this (a pair's figure). no_tsc: where the
 * counter is no TSC, why not measured, or with no_tsc_passes, passed, from
 * this. per_clock: one reason per RF_CLOCK_POSTBOOT clock (the TSC's rate
 * against it), from its record; absent with none.
 */
struct probe_reason {
	struct rd_rule rule;
	int place;			/* first 1: the record's order */
	enum readiness_fact fact, plus, vs, needs;
	const char *from;
	const char *absent, *absent_vs, *needs_absent;
	const char *one_origin;
	const char *one_cpu;
	const char *no_tsc;
	int no_tsc_passes;
	int per_clock;
	/* a figure no fact holds, read from the kept records (readiness.h's readiness_hidden) */
	double (*read)(const char *recs, size_t len, char *from, size_t nfrom, char *why, size_t nwhy);
};

/*
 * Whether a probe splits its sample budget into rounds (the suite's
 * timeprobe.rounds=R, docs/records.md "Rounds"): round k of every selected
 * probe runs before round k+1 of any, each in its own child. A probe that
 * splits sets min_round_ms, the shortest round whose samples still mean
 * something (it gets at most its expected time / min_round_ms rounds), and
 * state_bytes, what it keeps across its rounds (ctx->state). One that stays
 * whole (min_round_ms 0) says why in whole: its doc says it too.
 */
struct probe_rounds {
	int64_t min_round_ms;
	size_t (*state_bytes)(const struct probe_ctx *ctx);
	const char *whole;
};

struct probe {
	const char *name;
	const char *summary;
	enum probe_status (*run)(struct probe_ctx *ctx);
	int limit_quick_s;	/* time limit for profile quick ... */
	int limit_full_s;	/* ... and full (scaled up under TCG by the suite) */
	/*
	 * How long a run of it is expected to take with ctx's profile and its
	 * own options, in ms: the run's estimate and its progress lines
	 * (progress.h) read it. Its work (not the windows it waits out) takes
	 * ctx->time_scale times longer on an emulated CPU. NULL: a quarter of
	 * its limit. The probes' figures are measured (README, "How long").
	 */
	int64_t (*expect_ms)(const struct probe_ctx *ctx);
	/*
	 * A length the user asked of it through its own options, in ms
	 * (wakeup: --wakeup-seconds, --wakeup-samples); 0, or NULL: none. The
	 * probe's time limit is then at least twice it (progress_limit_ms()).
	 */
	int64_t (*asked_ms)(const struct probe_ctx *ctx);
	const struct probe_opt *opts;	/* its own options */
	size_t n_opts;
	/*
	 * Figures its records promise in every run where it measures: record
	 * fields, the first its headline (LAVA's measurement). The boot tests
	 * check each is there (`timeprobe list --figures`). NULL-terminated.
	 */
	const char *const *figures;
	const struct probe_key *keys;	/* every key of its records (NULL: injections) */
	size_t n_keys;
	const struct probe_verdict *verdict;	/* its items of the verdict (verdict.c) */
	size_t n_verdict;
	const struct probe_fact *facts;		/* what its records tell tsc_readiness */
	size_t n_facts;
	const struct probe_reason *reasons;	/* and the reasons it judges them by */
	size_t n_reasons;
	int inject;		/* fault injection: runs only when named by inject= */
	struct probe_rounds rounds;
	/*
	 * How the report shows its results (common/show.h): the default
	 * clock's figure, its table's layout, its series plot; zero: none.
	 */
	struct show_decl show;
};

/* This child's share of a budget of total_ns: the whole, or 1/rounds of it. */
static inline int64_t probe_round_ns(const struct probe_ctx *ctx, int64_t total_ns)
{
	return ctx->rounds > 1 ? total_ns / ctx->rounds : total_ns;
}

/* 1 when this child writes the run's figures: a whole probe, or its last round. */
static inline int probe_round_last(const struct probe_ctx *ctx)
{
	return ctx->rounds <= 1 || ctx->round >= ctx->rounds;
}

/*
 * A figure for expect_ms(): native_ms where the CPU is not emulated; on an
 * emulated one emulated_ms where it was measured there (README, "How
 * long"), else (0) native_ms times ctx->time_scale, as the limits.
 */
static inline int64_t probe_expect(const struct probe_ctx *ctx, int64_t native_ms, int64_t emulated_ms)
{
	if (ctx->time_scale <= 1)
		return native_ms;
	return emulated_ms > 0 ? emulated_ms : native_ms * ctx->time_scale;
}

#define PROBE_OPTS(a) .opts = (a), .n_opts = sizeof(a) / sizeof((a)[0])
#define PROBE_KEYS(a) .keys = (a), .n_keys = sizeof(a) / sizeof((a)[0])
#define PROBE_VERDICT(a) .verdict = (a), .n_verdict = sizeof(a) / sizeof((a)[0])
#define PROBE_FACTS(a) .facts = (a), .n_facts = sizeof(a) / sizeof((a)[0])
#define PROBE_REASONS(a) .reasons = (a), .n_reasons = sizeof(a) / sizeof((a)[0])
#define PROBE_FIGURES(...) .figures = (const char *const[]){ __VA_ARGS__, 0 }

/* Every probe, fault injections last; probe_find() finds measuring probes. */
extern const struct probe *const probe_table[];
extern const size_t probe_count;
const struct probe *probe_find(const char *name);
const struct probe *probe_inject_find(const char *name);

/* Fills ctx->tsc: the stub's figure if it handed one over, else the pinned,
 * bracketed user calibration of tsccal.h (tsc-calib-rounds rounds of 50 ms in
 * profile quick, 200 ms in full). Returns ctx->tsc.hz. */
double tsccal_probe(struct probe_ctx *ctx);
/* tsccal_probe()'s figure when it has one; else the frequency the counter
 * claims (CNTFRQ_EL0 on arm64, timeutil.h), ctx->tsc.source then "cntfrq";
 * else 0 (the TSC claims none). Returns ctx->tsc.hz. */
double tsccal_probe_or_claim(struct probe_ctx *ctx);

#endif
