// SPDX-License-Identifier: MIT
/* The pre-OS scan's arithmetic; see hwlat.h. Freestanding. */
#include "hwlat.h"
#include "x86clock.h"

static uint64_t ticks_for_us(uint64_t us, uint64_t tsc_hz)
{
	return tp_muldiv64(us, tsc_hz, 1000000, 0);
}

uint64_t tp_hwlat_bin_lo_us(unsigned int bin)
{
	if (bin < TP_HWLAT_LIN_BINS)
		return bin + 1;
	if (bin >= TP_HWLAT_BINS)
		bin = TP_HWLAT_BINS - 1;
	return 100ull << (bin - TP_HWLAT_LIN_BINS);
}

void tp_hwlat_plan_init(struct tp_hwlat_plan *p, uint64_t tsc_hz, uint32_t thresh_us)
{
	if (thresh_us < 1)
		thresh_us = 1;
	if (thresh_us > TP_HWLAT_THRESH_US_MAX)
		thresh_us = TP_HWLAT_THRESH_US_MAX;
	p->tsc_hz = tsc_hz;
	p->thresh_ticks = ticks_for_us(thresh_us, tsc_hz);
	p->smi_ticks = ticks_for_us(TP_HWLAT_SMI_GAP_US, tsc_hz);
	for (unsigned int i = 0; i < TP_HWLAT_BINS; i++)
		p->edge_ticks[i] = ticks_for_us(tp_hwlat_bin_lo_us(i), tsc_hz);
}

unsigned int tp_hwlat_bin(const struct tp_hwlat_plan *p, uint64_t ticks)
{
	unsigned int lo = 0, hi = TP_HWLAT_BINS - 1;

	/* the last bin whose lower edge is <= ticks */
	while (lo < hi) {
		unsigned int mid = (lo + hi + 1) / 2;

		if (p->edge_ticks[mid] <= ticks)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Keeps the TP_HWLAT_TOP largest, largest first. */
static void keep_top(struct tp_hwlat_cpu *c, const struct tp_hwlat_gap *g)
{
	uint32_t i = c->ntop < TP_HWLAT_TOP ? c->ntop : TP_HWLAT_TOP - 1;

	if (c->ntop == TP_HWLAT_TOP && c->top[i].ticks >= g->ticks)
		return;
	for (; i > 0 && c->top[i - 1].ticks < g->ticks; i--)
		c->top[i] = c->top[i - 1];
	c->top[i] = *g;
	if (c->ntop < TP_HWLAT_TOP)
		c->ntop++;
}

void tp_hwlat_note(struct tp_hwlat_cpu *c, const struct tp_hwlat_plan *p, uint64_t start_tsc,
		   uint64_t ticks, enum tp_hwlat_smi smi)
{
	struct tp_hwlat_gap g = { .start_tsc = start_tsc, .ticks = ticks, .smi = smi };

	c->hist[tp_hwlat_bin(p, ticks)]++;
	c->count++;
	c->total_ticks += ticks;
	if (ticks > c->max_ticks)
		c->max_ticks = ticks;
	keep_top(c, &g);
}

uint64_t tp_hwlat_ns(uint64_t ticks, uint64_t tsc_hz)
{
	return tsc_hz ? tp_muldiv64(ticks, 1000000000ull, tsc_hz, 0) : 0;
}

uint32_t tp_hwlat_coverage_ppm(const struct tp_hwlat_cpu *c, uint64_t window_ticks)
{
	uint64_t span;

	if (!window_ticks || c->samples < 2 || c->last_tsc < c->first_tsc)
		return 0;
	span = c->last_tsc - c->first_tsc;
	if (span >= window_ticks)
		return 1000000;
	return (uint32_t)tp_muldiv64(span, 1000000, window_ticks, 0);
}

static int sampled(const struct tp_hwlat_cpu *c)
{
	return c->samples >= 2;
}

/* 1 when CPU o kept a gap overlapping g, widened by slack on both sides. */
static int overlaps(const struct tp_hwlat_cpu *o, const struct tp_hwlat_gap *g, uint64_t slack)
{
	uint64_t lo = g->start_tsc > slack ? g->start_tsc - slack : 0;
	uint64_t hi = g->start_tsc + g->ticks + slack;

	for (uint32_t k = 0; k < o->ntop; k++) {
		const struct tp_hwlat_gap *h = &o->top[k];

		if (h->start_tsc < hi && h->start_tsc + h->ticks > lo)
			return 1;
	}
	return 0;
}

void tp_hwlat_merge(struct tp_hwlat_cpu *c, size_t n, uint64_t slack_ticks,
		    struct tp_hwlat_merge *m)
{
	size_t first = n;

	*m = (struct tp_hwlat_merge){ 0 };
	for (size_t i = 0; i < n; i++)
		if (sampled(&c[i])) {
			m->sampling++;
			if (first == n)
				first = i;
		}
	for (size_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < c[i].ntop; k++) {
			struct tp_hwlat_gap *g = &c[i].top[k];

			g->shared = 0;
			for (size_t j = 0; j < n; j++)
				if (sampled(&c[j]) && (j == i || overlaps(&c[j], g, slack_ticks)))
					g->shared++;
			if (g->shared == 1)
				m->per_cpu++;
			if (i == first && m->sampling > 1 && g->shared == m->sampling) {
				m->system_wide++;
				if (g->ticks > m->system_wide_max_ticks)
					m->system_wide_max_ticks = g->ticks;
			}
		}
	}
}

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int tp_hwlat_smi_readable(const char *vendor, uint32_t cpuid1_eax, const char *hv)
{
	uint32_t family = (cpuid1_eax >> 8) & 0xf;
	uint32_t model = ((cpuid1_eax >> 4) & 0xf) | ((cpuid1_eax >> 12) & 0xf0);

	if (!streq(vendor, "GenuineIntel") || family != 6 || model < 0x1a)
		return 0;
	return !hv[0] || streq(hv, "KVMKVMKVM");
}
