// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`, its rounds (docs/records.md "Rounds", docs/probes/clocks.md
 * "Rounds"): each round measures every source with its share of the plan
 * (the sources still take turns, slice by slice, within the round) and
 * appends its batches to the source's slot in the suite's shared memory; the
 * batch size, the TSC calibration and the vDSO check are round 1's, so that
 * every round's batches are alike and the last round's figures over all of
 * them are what one whole run of the same plan computes. See clocks_impl.h
 * for the probe's other files.
 */
#include <string.h>

#include "../emit.h"
#include "clocks_impl.h"

size_t clocks_state_bytes(const struct probe_ctx *ctx)
{
	size_t nb = (size_t)clocks_plan(ctx->quick)->max_batches;

	return sizeof(struct clk_state) + (size_t)CLK_SLOTS * nb * sizeof(double);
}

/*
 * A round's share of the plan: budgets and least counts over R (the cap on
 * batches stays the run's), and its share of the slices in which the
 * sources take turns, at least one: as many slice ends as a whole run has
 * (quick 4 slices in 5 rounds: 5), since a slice that a preemption ends
 * overshoots its budget by that preemption's length.
 */
static void round_plan(const struct plan *w, int r, struct plan *p)
{
	*p = *w;
	p->rounds = (w->rounds + r - 1) / r;
	p->budget_ns = w->budget_ns / r;
	p->hard_ns = w->hard_ns / r;
	p->min_batches = (w->min_batches + r - 1) / r;
	p->step_budget_ns = w->step_budget_ns / r;
	p->step_min_reads = (w->step_min_reads + (uint64_t)r - 1) / (uint64_t)r;
	p->step_min_forward = (w->step_min_forward + (uint64_t)r - 1) / (uint64_t)r;
}

void clocks_rounds_env(const struct probe_ctx *ctx, struct env *e)
{
	struct clk_state *st = ctx->rounds > 1 && ctx->state_len >= clocks_state_bytes(ctx) ? ctx->state : 0;

	e->st = st;
	e->round = st ? ctx->round : 0;
	e->rounds = st ? ctx->rounds : 1;
	e->plan = clocks_plan(ctx->quick);
	if (!st)
		return;
	st->nb = (size_t)e->plan->max_batches;
	round_plan(e->plan, ctx->rounds, &st->plan);
	e->plan = &st->plan;
}

int clocks_rounds_last(const struct env *e)
{
	return !e->st || e->round >= e->rounds;
}

void clocks_rounds_as_run(const struct env *e, int run)
{
	if (e->st)
		emit_set_round(run ? 0 : e->round);
}

void clocks_rounds_load(const struct env *e, struct clk_result *res, size_t n, int base)
{
	for (size_t i = 0; e->st && i <= n; i++) {
		const struct clk_slot *s = &e->st->slot[base + (int)i];

		res[i].batch = e->st->batch + (size_t)(base + (int)i) * e->st->nb;
		res[i].batches = res[i].first = s->batches;
		res[i].iters = s->iters;
		if (e->st->vdso_done && e->st->trace_rc == 0) {
			res[i].vdso = s->vdso;
			res[i].kernel_entries = s->kernel_entries;
		}
	}
}

/* The steps of a round added to the run's: as step_acc_add() adds a chunk. */
static void steps_add(struct step_acc *a, const struct step_acc *r)
{
	if (r->s.granularity && (!a->s.granularity || r->s.granularity < a->s.granularity))
		a->s.granularity = r->s.granularity;
	a->s.backward += r->s.backward;
	if (r->s.largest_backward > a->s.largest_backward)
		a->s.largest_backward = r->s.largest_backward;
	a->reads += r->reads;
	a->forward += r->forward;
}

void clocks_rounds_save(const struct env *e, const struct clk_result *res, size_t n, int base)
{
	for (size_t i = 0; e->st && i <= n; i++) {
		struct clk_slot *s = &e->st->slot[base + (int)i];

		if (res[i].skipped)
			continue;
		s->iters = res[i].iters;
		s->batches = res[i].batches;
		s->vdso = res[i].vdso;
		s->kernel_entries = res[i].kernel_entries;
		steps_add(&s->steps, &res[i].steps);
		s->step_window_ns += res[i].step_window_ns;
		s->user_us += res[i].user_us;
		s->sys_us += res[i].sys_us;
		s->vol_ctxsw += res[i].vol_ctxsw;
		s->invol_ctxsw += res[i].invol_ctxsw;
	}
}

void clocks_rounds_total(struct env *e, struct clk_result *res, size_t n, int base)
{
	for (size_t i = 0; e->st && i <= n; i++) {
		const struct clk_slot *s = &e->st->slot[base + (int)i];

		res[i].first = 0;
		res[i].steps = s->steps;
		res[i].step_window_ns = s->step_window_ns;
		res[i].user_us = s->user_us;
		res[i].sys_us = s->sys_us;
		res[i].vol_ctxsw = s->vol_ctxsw;
		res[i].invol_ctxsw = s->invol_ctxsw;
	}
	if (e->st)
		clocks_finish_costs(e, res, n);
}
