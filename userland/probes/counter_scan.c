// SPDX-License-Identifier: MIT
/* The errata signatures of back-to-back counter reads; see counter.h. */
#include "counter.h"

#define BIT32 ((uint64_t)1 << 32)
#define HALF32 ((uint64_t)1 << 31)
/* Linux's sun50i workaround: ((v + 1) & GENMASK(8, 0)) <= 1 */
#define SUN50I_MASK 0x1ffu

static const char *const sig_names[COUNTER_SIGS] = {
	[COUNTER_SIG_858921] = "arm64 erratum 858921 (Cortex-A73)",
	[COUNTER_SIG_SUN50I] = "Allwinner A64 UNKNOWN1",
	[COUNTER_SIG_FSL_HISI] = "Freescale A-008585 or HiSilicon 161010101",
};

const char *counter_sig_name(enum counter_sig s)
{
	return s < COUNTER_SIGS ? sig_names[s] : "none";
}

void counter_scan_init(struct counter_scan *s)
{
	*s = (struct counter_scan){ .min_step = UINT64_MAX };
}

static int low_bits_edge(uint64_t v)
{
	return ((v + 1) & SUN50I_MASK) <= 1;
}

enum counter_sig counter_step_sig(uint64_t a, uint64_t b)
{
	int bit32_changed = (int)(((a ^ b) >> 32) & 1);

	if (b >= a) {
		/* forward: only 858921's ~2^32 jump is impossible */
		return bit32_changed && b - a >= HALF32 ? COUNTER_SIG_858921 : COUNTER_SIGS;
	}
	/* back by ~2^32: the wrong read was before (bit 32 early) or is this one */
	if (a - b >= HALF32)
		return COUNTER_SIG_858921;
	if (low_bits_edge(a) || low_bits_edge(b))
		return COUNTER_SIG_SUN50I;
	return COUNTER_SIG_FSL_HISI;
}

static void step(struct counter_scan *s, uint64_t a, uint64_t b)
{
	enum counter_sig sig = counter_step_sig(a, b);

	s->pairs++;
	if (sig < COUNTER_SIGS)
		s->sig[sig]++;
	if (b < a) {
		s->backwards++;
		if (a - b > s->max_back)
			s->max_back = a - b;
		return;
	}
	if (b == a)
		s->equal++;
	if (b - a > s->max_step)
		s->max_step = b - a;
	if (b - a < s->min_step)
		s->min_step = b - a;
	if (b - a >= 32)
		s->steps_32++;
}

void counter_scan_run(struct counter_scan *s, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s->have_last)
			step(s, s->last, v[i]);
		s->last = v[i];
		s->have_last = 1;
	}
}

uint64_t counter_scan_signatures(const struct counter_scan *s)
{
	uint64_t n = 0;

	for (int i = 0; i < COUNTER_SIGS; i++)
		n += s->sig[i];
	return n;
}
