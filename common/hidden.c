// SPDX-License-Identifier: MIT
/* Time hidden from the TSC, a chunk's arithmetic; see hidden.h. Freestanding. */
#include "hidden.h"
#include "x86clock.h"

#define NS_PER_S 1000000000ull
#define PPM 1000000ull

void tp_hidden_scale_hz(struct tp_hidden_scale *s, uint64_t ref_hz)
{
	s->ns_mul = NS_PER_S;
	s->ns_div = ref_hz;
}

void tp_hidden_scale_fs(struct tp_hidden_scale *s, uint32_t period_fs)
{
	s->ns_mul = period_fs;
	s->ns_div = PPM;	/* 1e6 fs in a ns */
}

void tp_hidden_scale_skew(struct tp_hidden_scale *s, int32_t ppm)
{
	if (!ppm || ppm <= -(int32_t)PPM)
		return;
	s->ns_mul *= (uint64_t)((int64_t)PPM + ppm);
	s->ns_div *= PPM;
}

/* The middle of an edge's TSC bracket: the reference was read somewhere in it. */
static uint64_t mid(const struct tp_hidden_edge *e)
{
	return e->tsc_a + (e->tsc_b - e->tsc_a) / 2;
}

void tp_hidden_chunk(const struct tp_hidden_scale *s, const struct tp_hidden_edge *e0,
		     const struct tp_hidden_edge *e1, struct tp_hidden_chunk *c)
{
	uint64_t tsc = mid(e1) > mid(e0) ? mid(e1) - mid(e0) : 0;
	uint64_t tsc_ns = tp_muldiv64(tsc, NS_PER_S, s->tsc_hz, 1);
	uint64_t ref = tp_counter_delta(e0->ref, e1->ref, s->bits);
	uint64_t ref_ns = tp_muldiv64(ref, s->ns_mul, s->ns_div, 1);
	uint64_t widths = (e0->tsc_b - e0->tsc_a) + (e1->tsc_b - e1->tsc_a);

	c->deficit_ns = (int64_t)ref_ns - (int64_t)tsc_ns;
	/* each read anywhere in its bracket: half of each width; each end's
	 * reference read truncated: one tick; the rate: ppm of the chunk; the
	 * two conversions' rounding: 1 ns */
	c->unc_ns = tp_muldiv64(widths, NS_PER_S, 2 * s->tsc_hz, 0) + 1 +
		    (s->ns_div ? (s->ns_mul + s->ns_div - 1) / s->ns_div : 0) +
		    tp_muldiv64(tsc_ns, s->ppm, PPM, 0) + 1 + 1;
}

int tp_hidden_is_gap(const struct tp_hidden_chunk *c)
{
	return c->deficit_ns > 0 && (uint64_t)c->deficit_ns > c->unc_ns;
}

void tp_hidden_add(struct tp_hidden_sum *sum, const struct tp_hidden_chunk *c)
{
	if (!sum->chunks || c->deficit_ns > sum->max_deficit_ns) {
		sum->max_deficit_ns = c->deficit_ns;
		sum->max_unc_ns = c->unc_ns;
	}
	sum->chunks++;
	sum->gaps += (uint32_t)tp_hidden_is_gap(c);
}
