// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`, the clocksource sweep (appliance, or --clocks-sweep=1
 * as root): every block repeated for every available clocksource, the
 * original first, each in a supervised child with its share of the time
 * limit; the parent switches current_clocksource before each and puts the
 * original back at the end, whatever happened. See clocks_impl.h for the
 * probe's other files.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../emit.h"
#include "../supervise.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "clocks_impl.h"

#define MAX_CLOCKSOURCES 8

struct clocksource_list {
	char name[MAX_CLOCKSOURCES][CS_NAME_LEN];
	size_t n;
};

/* The sweep stops 20 % before the suite's deadline: time to put the original back. */
static int64_t sweep_budget_ns(const struct probe_ctx *ctx)
{
	int64_t left = ctx->deadline_ns ? ctx->deadline_ns - mono_ns() : 60 * NS_PER_S;

	return left > 0 ? left * 8 / 10 : 0;
}

struct block_job {
	const struct probe_ctx *ctx;
	struct env *e;
};

static int block_child(void *arg)
{
	struct block_job *b = arg;

	return probe_exit_code(clocks_measure_block(b->ctx, b->e));
}

/* Runs one block under the supervisor; the sweep survives whatever happens there. */
static int run_child_block(const struct probe_ctx *ctx, struct env *e, int64_t deadline)
{
	struct block_job b = { ctx, e };
	struct sup_job job = { .fn = block_child, .arg = &b, .deadline_ns = deadline };
	struct sup_result sr;
	char why[96];

	supervise_run(&job, &sr);
	switch (sr.out) {
	case OUTCOME_OK:
	case OUTCOME_SKIPPED:
		return 0;
	case OUTCOME_FAILED:
		return -EIO;	/* its records say why */
	case OUTCOME_TIMEOUT:
		clocks_emit_clocksource_record("error", e->cs, "clocksource",
			       "measurement overran its share of the time limit; killed");
		return -ETIMEDOUT;
	case OUTCOME_SIGNAL:
		snprintf(why, sizeof(why), "measurement child died: %s", strsignal(sr.status));
		break;
	default:
		snprintf(why, sizeof(why), "measurement child: %s %d", supervise_outcome_name(sr.out), sr.status);
		break;
	}
	clocks_emit_clocksource_record("error", e->cs, "clocksource", why);
	return -ECHILD;
}

/* 1 if the space-separated list in the file PATH holds NAME. */
static int in_list(const char *path, const char *name)
{
	char buf[512], *save = 0;

	if (sysinfo_read_text(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(0, " ", &save))
		if (!strcmp(t, name))
			return 1;
	return 0;
}

/* The original first: if anything goes wrong later its figures stand. */
static void sweep_list(struct clocksource_list *l, const char *orig, char *avail)
{
	struct tp_rec r;

	l->n = 0;
	snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", orig);
	for (char *save = 0, *t = strtok_r(avail, " ", &save); t && l->n < MAX_CLOCKSOURCES;
	     t = strtok_r(0, " ", &save))
		if (strcmp(t, orig))
			snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", t);

	emit_result_begin(&r, PROBE, "clocksource sweep");
	tp_rec_str(&r, "clocksource", orig);
	tp_rec_str(&r, "original", orig);
	tp_rec_arr_begin(&r, "clocksources");
	for (size_t i = 0; i < l->n; i++)
		tp_rec_str(&r, 0, l->name[i]);
	tp_rec_arr_end(&r);
	emit_end(&r);
}

/*
 * One block per clocksource of the list from the first'th, each with its
 * share of what is left. 1 if one failed.
 */
static int sweep_blocks(const struct probe_ctx *ctx, const struct env *base, const struct clocksource_list *l,
			size_t first)
{
	char now[CS_NAME_LEN], why[128];
	int64_t start = mono_ns(), budget = sweep_budget_ns(ctx);
	int failed = 0;

	for (size_t i = first; i < l->n; i++) {
		struct env e = *base;
		int64_t left = budget - (mono_ns() - start);
		int rc;

		e.cs = l->name[i];
		sysinfo_current_clocksource(now, sizeof(now));
		if (strcmp(now, l->name[i]) && (rc = sysinfo_set_clocksource(l->name[i]))) {
			snprintf(why, sizeof(why), "the kernel refused the switch: %s", strerror(-rc));
			clocks_emit_clocksource_record("skip", l->name[i], "clocksource", why);
			continue;
		}
		rc = run_child_block(ctx, &e, mono_ns() + left / (int64_t)(l->n - i));
		if (rc && rc != -EIO)
			failed = 1;
	}
	return failed;
}

/* Puts the original back, whatever happened, and says so. 0, or -1 when it could not. */
static int restore(const char *orig)
{
	char now[CS_NAME_LEN], why[128];
	int restored, replaced;
	struct tp_rec r;

	sysinfo_current_clocksource(now, sizeof(now));
	if (strcmp(now, orig))
		sysinfo_set_clocksource(orig);
	sysinfo_current_clocksource(now, sizeof(now));
	restored = !strcmp(now, orig);
	/*
	 * The kernel may retire the original itself: tsc-early is unregistered
	 * when the refined tsc clocksource takes over (seen with one CPU under
	 * QEMU TCG). Nothing can be put back then; the kernel's choice stands.
	 */
	replaced = !restored && !in_list(CLOCKSOURCE_DIR "/available_clocksource", orig);
	emit_result_begin(&r, PROBE, "clocksource restored");
	tp_rec_str(&r, "clocksource", now);
	tp_rec_str(&r, "original", orig);
	tp_rec_bool(&r, "restored", restored);
	if (replaced) {
		snprintf(why, sizeof(why), "the kernel retired %s and chose %s during the run", orig, now);
		tp_rec_str(&r, "note", why);
	}
	emit_end(&r);
	emit_human("\n-- clocksource %s restored: %s --\n", orig,
	      restored ? "yes" : replaced ? "no, the kernel retired it" : "NO");
	if (!restored && !replaced) {
		clocks_emit_clocksource_record("error", now, "clocksource restored",
			       "could not put the original clocksource back");
		return -1;
	}
	return 0;
}

static enum probe_status sweep(const struct probe_ctx *ctx, struct env *base, const char *orig,
			       char *avail)
{
	struct clocksource_list l;
	int failed;

	sweep_list(&l, orig, avail);
	failed = sweep_blocks(ctx, base, &l, 0);
	return restore(orig) || failed ? PROBE_FAILED : PROBE_OK;
}

/*
 * In rounds: every round measures the original clocksource, in this
 * child; the last round, after the run's records of it, sweeps the others
 * whole, each in a child with the whole plan (docs/probes/clocks.md,
 * "Rounds": switching the clocksource R times would disturb every probe
 * beside it, and a clocksource's block is no sample of another's).
 */
static enum probe_status sweep_in_rounds(const struct probe_ctx *ctx, struct env *e, const char *orig,
					 char *avail)
{
	struct clocksource_list l;
	struct env whole = *e;
	enum probe_status st = clocks_measure_block(ctx, e);
	int failed;

	if (!clocks_rounds_last(e))
		return st;
	clocks_rounds_as_run(e, 1);
	whole.st = 0;
	whole.plan = clocks_plan(ctx->quick);
	sweep_list(&l, orig, avail);
	failed = sweep_blocks(ctx, &whole, &l, 1);
	return restore(orig) || failed || st == PROBE_FAILED ? PROBE_FAILED : PROBE_OK;
}

/* Why the sweep cannot run here, or NULL (then avail holds the clocksources). */
static const char *no_sweep(char *avail, size_t len)
{
	if (geteuid() != 0)
		return "needs root (writes current_clocksource)";
	if (sysinfo_read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, len) <= 0)
		return "no " CLOCKSOURCE_DIR "/available_clocksource";
	return 0;
}

enum probe_status clocks_sweep_run(const struct probe_ctx *ctx, struct env *e, int want, const char *orig)
{
	char avail[256];
	const char *why = want ? no_sweep(avail, sizeof(avail)) : 0;

	if (!want)
		return clocks_measure_block(ctx, e);
	if (why) {
		if (clocks_rounds_last(e)) {	/* in rounds: the run's, once */
			clocks_rounds_as_run(e, 1);
			clocks_emit_clocksource_record("skip", orig, "clocksource sweep", why);
			clocks_rounds_as_run(e, 0);
		}
		return clocks_measure_block(ctx, e);
	}
	return e->st ? sweep_in_rounds(ctx, e, orig, avail) : sweep(ctx, e, orig, avail);
}
