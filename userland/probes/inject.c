// SPDX-License-Identifier: MIT
/*
 * Fault-injection probes (timeprobe.inject=NAME,...): each does exactly what
 * its name says, so a user or a test can see the suite survive it. Their
 * rows are marked inject: they run only when asked for.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../emit.h"
#include "../probe.h"

#define FLOOD_RECORDS 200000	/* ~24 MB of records: over the suite's per-probe cap */

static enum probe_status inject_crash(struct probe_ctx *ctx)
{
	(void)ctx;
	emit_human("inject-crash: raising SIGSEGV\n");
	raise(SIGSEGV);
	return PROBE_FAILED;
}

static enum probe_status inject_hang(struct probe_ctx *ctx)
{
	(void)ctx;
	emit_human("inject-hang: sleeping until killed\n");
	for (;;)
		pause();
	return PROBE_FAILED;	/* not reached */
}

static enum probe_status inject_exit(struct probe_ctx *ctx)
{
	(void)ctx;
	emit_human("inject-exit: exiting with status 3\n");
	exit(3);
}

/* Statuses 1 and 2 were once read as "skipped" and "failed": no longer. */
static enum probe_status inject_exit1(struct probe_ctx *ctx)
{
	(void)ctx;
	emit_human("inject-exit1: exiting with status 1\n");
	exit(1);
}

/*
 * A grandchild in a session of its own, holding the probe's stdout, while
 * the probe itself ends well: the suite must not wait for the pipe to close
 * and must not leave the grandchild running.
 */
static enum probe_status inject_grandchild(struct probe_ctx *ctx)
{
	(void)ctx;
	emit_human("inject-grandchild: leaving a setsid() grandchild that holds stdout\n");
	fflush(stdout);
	if (fork() == 0) {
		setsid();
		for (;;)
			pause();
	}
	emit_skip("grandchild", 0, "fault injection: nothing measured");
	return PROBE_OK;
}

/* Records, fast and many: the suite keeps a bounded number of them. */
static enum probe_status inject_flood(struct probe_ctx *ctx)
{
	struct tp_rec r;

	(void)ctx;
	for (long i = 0; i < FLOOD_RECORDS; i++) {
		emit_result_begin(&r, "flood", "record");
		tp_rec_int(&r, "i", i);
		tp_rec_str(&r, "pad", "................................................................");
		emit_end(&r);
	}
	return PROBE_OK;
}

/* How many of this task's descriptors are perf events (fork copies a
 * parent's, and a counter opened with inherit comes with one). */
static int perf_event_fds(void)
{
	char path[300], target[64];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		ssize_t l;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		l = readlink(path, target, sizeof(target) - 1);
		if (l > 0) {
			target[l] = 0;
			n += !strcmp(target, "anon_inode:[perf_event]");
		}
	}
	closedir(d);
	return n;
}

/* /proc/self/status's TracerPid: a ptrace()r, or 0; -1 unread. */
static long tracer_pid(void)
{
	char line[256];
	long pid = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "TracerPid:", 10))
			pid = strtol(line + 10, 0, 10);
	if (f)
		fclose(f);
	return pid;
}

/* What watches a probe's task while it runs, as a probe sees it: the
 * suite's tests read the record (tests/host/attribution.t). */
static enum probe_status inject_observers(struct probe_ctx *ctx)
{
	struct tp_rec r;

	(void)ctx;
	emit_result_begin(&r, "observers", "self");
	tp_rec_int(&r, "perf_event_fds", perf_event_fds());
	tp_rec_int(&r, "tracer_pid", tracer_pid());
	emit_end(&r);
	return PROBE_OK;
}

/*
 * inject=rounds: a made-up probe that splits into rounds, for the suite's
 * tests (tests/host/rounds.t). Round k draws k samples, k * 100 + j for
 * j = 0..k-1 (unequal rounds, so a mean of round means is not the mean),
 * keeps them in the shared state (ctx->state) and writes its round's n,
 * mean and median; its last round writes the same over every round's
 * samples together, as a probe's run figures are.
 */
#define MADEUP_MAX 64	/* samples over every round: 1 + 2 + ... + 10 < 64 */

struct madeup_state {
	int n;
	double v[MADEUP_MAX];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void madeup_result(const double *v, int n)
{
	double sorted[MADEUP_MAX], sum = 0;
	struct tp_rec r;

	memcpy(sorted, v, (size_t)n * sizeof(*v));
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	for (int i = 0; i < n; i++)
		sum += v[i];
	emit_result_begin(&r, "rounds", "made-up");
	tp_rec_int(&r, "n", n);
	emit_rec_double(&r, "mean_x", n ? sum / n : 0);
	/* the lower median: one of the samples, exact in the record */
	emit_rec_double(&r, "median_x", n ? sorted[(n - 1) / 2] : 0);
	emit_end(&r);
	emit_human("  made-up: n %d, mean %.3f, median %.0f\n", n, n ? sum / n : 0, n ? sorted[(n - 1) / 2] : 0);
}

static enum probe_status inject_rounds(struct probe_ctx *ctx)
{
	struct madeup_state *st = ctx->state, whole = { 0 };
	int k = ctx->round > 0 ? ctx->round : 1, first;

	if (!st || ctx->state_len < sizeof(*st))
		st = &whole;
	first = st->n;
	for (int j = 0; j < k && st->n < MADEUP_MAX; j++)
		st->v[st->n++] = k * 100 + j;
	if (ctx->rounds > 1)
		madeup_result(st->v + first, st->n - first);
	if (!probe_round_last(ctx))
		return PROBE_OK;
	emit_set_round(0);
	madeup_result(st->v, st->n);
	return PROBE_OK;
}

static size_t madeup_state_bytes(const struct probe_ctx *ctx)
{
	(void)ctx;
	return sizeof(struct madeup_state);
}

/* ---- the registry's rows (probes/registry.c) ---- */

/* The run's estimate (probe.h): a moment, or the whole limit for hang. */
static int64_t expect_moment(const struct probe_ctx *ctx)
{
	return probe_expect(ctx, 100, 0);
}

extern const struct probe hang_probe;

static int64_t expect_limit(const struct probe_ctx *ctx)
{
	return probe_expect(ctx, (int64_t)hang_probe.limit_quick_s * 1000, 0);
}

#define INJECT(n, what, limit, expect) \
	const struct probe n##_probe = { .name = #n, .summary = what, .run = inject_##n, \
		.limit_quick_s = limit, .limit_full_s = limit, .expect_ms = expect, .inject = 1 }

INJECT(crash, "raises SIGSEGV", 10, expect_moment);
INJECT(hang, "never returns; killed at its time limit", 5, expect_limit);
INJECT(exit, "exits with status 3", 10, expect_moment);
INJECT(exit1, "exits with status 1", 10, expect_moment);
INJECT(grandchild, "ends well, leaving a setsid() grandchild that holds stdout", 10, expect_moment);
INJECT(flood, "writes records far past the suite's cap", 60, expect_moment);
INJECT(observers, "says what watches its task: perf event descriptors, a tracer", 10, expect_moment);

/* expected 10 s: time for 10 rounds of 1 s (it takes a moment each) */
static int64_t expect_rounds(const struct probe_ctx *ctx)
{
	(void)ctx;
	return 10000;
}

const struct probe rounds_probe = {
	.name = "rounds", .summary = "a made-up probe in rounds: k samples in round k, figures over all",
	.run = inject_rounds, .limit_quick_s = 10, .limit_full_s = 10, .expect_ms = expect_rounds,
	.inject = 1, .rounds = { .min_round_ms = 1000, .state_bytes = madeup_state_bytes },
};
