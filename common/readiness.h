/* SPDX-License-Identifier: MIT */
/*
 * Is `tsc=reliable` safe here, and which clock is wrong: what a rule of the
 * decision table is (its figure's bound and the bound's source; each rule
 * is declared by the probe that measures its figure, struct probe_reason
 * in userland/probe.h, or by the record itself), the reference vote, the
 * answer and the kernel words that follow from it. The suite
 * (userland/readiness.c) fills the figures from a run's records and writes
 * the `tsc_readiness` record; docs/readiness.md is the table for people.
 * Freestanding C (no libc), tested by tests/unit/test_readiness.c.
 */
#ifndef TP_COMMON_READINESS_H
#define TP_COMMON_READINESS_H

#include <stddef.h>

#include "buf.h"

/*
 * What a rule's failure does. REQUIRED: no figure leaves the answer
 * unknown, a failed one makes it `not safe`. CHECKED: a failed one makes it
 * `not safe`, none is no matter. ADVICE: changes the kernel words only.
 */
enum rd_kind { RD_REQUIRED, RD_CHECKED, RD_ADVICE };

struct rd_rule {
	const char *id;		/* the reason's `item` in the record */
	const char *what;	/* what a person reads */
	const char *unit;	/* NULL: a yes/no that passes when 1 */
	double bound;		/* |figure| at most this passes */
	enum rd_kind kind;
	const char *source;	/* where the bound comes from (docs/readiness.md) */
	int x86_only;		/* REQUIRED only of a TSC: arm64 has no platform counter to drift */
};

/* 1 when figure v passes rule r (|v| <= bound; a yes/no: v is 1), 0 when not. */
int rd_rule_passes(const struct rd_rule *r, double v);

/* One reason: its rule and whether it passed (RD_NOT_MEASURED: no figure). */
enum rd_pass { RD_NOT_MEASURED = -1, RD_FAILED = 0, RD_PASSED = 1 };

struct rd_reason_state {
	const struct rd_rule *rule;
	enum rd_pass pass;
};

enum rd_answer { RD_UNKNOWN, RD_NOT_SAFE, RD_SAFE };

/* "unknown", "not safe", "safe". */
const char *rd_answer_name(enum rd_answer a);

/* The answer from the reasons: any failed REQUIRED or CHECKED one is not safe; else a
 * REQUIRED rule of rules[0..nrules) with no measured reason is unknown (x86_only rules
 * only where have_tsc); else safe. */
enum rd_answer rd_decide(const struct rd_reason_state *s, size_t n,
			 const struct rd_rule *const *rules, size_t nrules, int have_tsc);

/*
 * The reference vote. Every entry is one clock's own rate error in ppm
 * against a common figure, as far as it can be seen (a reference read
 * against the TSC: minus the TSC's rate against it), with its uncertainty.
 * Two entries agree when they are within the sum of their uncertainties
 * plus RD_VOTE_FLOOR_PPM. The one that disagrees with every other while
 * the others all agree is named, with its error against their mean.
 */
#define RD_VOTE_FLOOR_PPM 50.0
#define RD_VOTE_MAX 8

struct rd_vote_in {
	const char *name;
	double ppm;
	double unc_ppm;
};

enum rd_vote_res {
	RD_VOTE_TOO_FEW,	/* fewer than three: two that disagree cannot say which is off */
	RD_VOTE_AGREE,		/* all agree */
	RD_VOTE_NAMED,		/* one is off: named */
	RD_VOTE_SPLIT,		/* disagreement with no single culprit */
};

struct rd_vote_out {
	enum rd_vote_res res;
	int named;		/* index into the entries, -1 when none */
	double ppm;		/* the named one's error against the others' mean */
};

void rd_vote(const struct rd_vote_in *in, size_t n, struct rd_vote_out *out);

/* "too few", "agree", "named", "split". */
const char *rd_vote_res_name(enum rd_vote_res r);

/*
 * The words for this machine's kernel line: safe, `tsc=reliable`, or
 * `tsc=nowatchdog` where the ADVICE rule on sockets failed (the kernel
 * keeps its own checks across sockets); not safe, `clocksource=CLOCK`
 * (clock: the kernel's name of a platform clock the vote did not name;
 * NULL: nothing); unknown, nothing. Written into b, "" when none.
 */
void rd_kernel_args(struct tp_buf *b, enum rd_answer a, int advice_failed, const char *clock);

#endif
