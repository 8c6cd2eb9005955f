/* SPDX-License-Identifier: MIT */
/*
 * A probe's rounds (probe.h's struct probe_rounds, docs/records.md
 * "Rounds"): how many it runs this time, and the memory its rounds share.
 * Each round runs in a child of its own (suite.c, supervise.h), so what a
 * probe keeps from round to round lives in an anonymous shared mapping the
 * suite makes before round 1: every round's child inherits it, writes to it,
 * and the last round reads all of it back to write the run's figures.
 */
#ifndef TP_ROUNDS_H
#define TP_ROUNDS_H

#include "probe.h"

/*
 * How many rounds probe p runs when the run asks for want: 1 for a whole
 * probe or want <= 1; else want, fewer when its expected time (progress.h)
 * holds fewer rounds of its min_round_ms, and at least 1.
 */
int rounds_of(const struct probe *p, const struct probe_ctx *ctx, int want);

/*
 * ctx->state for p's rounds: state_bytes(ctx) zeroed bytes shared with the
 * children; none (NULL, 0) for a whole probe or one that keeps nothing.
 * 0, or -errno when the mapping failed (then the probe runs whole).
 */
int rounds_state_open(const struct probe *p, struct probe_ctx *ctx);
void rounds_state_close(struct probe_ctx *ctx);

/* A round's time limit: the probe's limit_s shared out over its rounds, at
 * least ROUNDS_LIMIT_MIN_S (or the whole limit when that is shorter). */
#define ROUNDS_LIMIT_MIN_S 10
int rounds_limit_s(int limit_s, int rounds);

#endif
