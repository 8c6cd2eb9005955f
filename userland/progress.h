/* SPDX-License-Identifier: MIT */
/*
 * The run's estimate and its progress lines. Each probe declares what a run
 * of it is expected to last (struct probe's expect_ms, probe.h); the suite
 * adds them up and prints the total at the start, and while a probe runs a
 * line "[4/10] drift 1:40 of ~5:00": in place on a terminal (each second),
 * as plain lines elsewhere (every PROGRESS_EVERY_MS from the probe's start;
 * the serial console keeps them, and nothing of a run is silent for longer). Where the lines go is the sink's
 * (sink_set_progress()). The arithmetic and the text are pure functions,
 * tested in tests/unit/test_progress.c.
 */
#ifndef TP_PROGRESS_H
#define TP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define PROGRESS_EVERY_MS 5000	/* plain lines: one per 5 s of a probe */
#define PROGRESS_INPLACE_MS 1000	/* a terminal's line: redrawn each second */

/* m:ss below an hour, h:mm:ss from there; ms rounded to the nearest second. */
const char *progress_clock(char *buf, size_t n, int64_t ms);

/* "[index/total] name elapsed of ~expected" into buf; its length. */
int progress_format(char *buf, size_t n, int index, int total, const char *name,
		    int64_t elapsed_ms, int64_t expect_ms);

/*
 * One probe's estimate for ctx: its own expect_ms() (a quarter of its time
 * limit when it declares none), never above its limit (scaled by
 * ctx->time_scale, as the suite scales it).
 */
int64_t progress_expect_ms(const struct probe *p, const struct probe_ctx *ctx);
/*
 * The probe's time limit in ms: its declared one (quick or full) times the
 * emulator's scale, or twice the length the user asked of it (its
 * asked_ms(), --wakeup-seconds) when that is longer.
 */
int64_t progress_limit_ms(const struct probe *p, const struct probe_ctx *ctx);
/* The run's estimate: every probe of list, repeat times. */
int64_t progress_total_ms(const struct probe *const *list, size_t n, int repeat,
			  const struct probe_ctx *ctx);

/* When the next line is due after one at last_ns, for a probe started at start_ns. */
int64_t progress_next_ns(int64_t start_ns, int64_t last_ns, int inplace);

/* One probe's progress while it runs (a round of it: its index counts rounds). */
struct progress {
	int index, total;
	const char *name;
	int64_t start_ns, expect_ms, next_ns;
};

/* The run's expected total, one line kept on the terminal or the consoles;
 * steps: the probes' rounds in all (said when more than the probes). */
void progress_announce(int probes, int steps, int64_t total_ms, int scale, const char *profile);
void progress_start(struct progress *pg, int index, int total, const char *name,
		    int64_t expect_ms, int64_t now_ns);
/* Called often (the supervisor's tick): a line when one is due. */
void progress_tick(struct progress *pg, int64_t now_ns);
/* The probe ended: an in-place line is wiped. */
void progress_end(void);
/* The run ended: how long it took against the estimate, a human line. */
void progress_finish(int64_t ran_ms, int64_t total_ms);

#endif
