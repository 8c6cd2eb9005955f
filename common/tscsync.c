// SPDX-License-Identifier: MIT
/* Round-trip bounds of a TSC offset; see tscsync.h. Freestanding, integers only. */
#include "tscsync.h"

void tscsync_init(struct tscsync_bounds *s)
{
	*s = (struct tscsync_bounds){
		.lo_ticks = INT64_MIN, .hi_ticks = INT64_MAX, .min_rtt_ticks = INT64_MAX,
	};
}

void tscsync_add(struct tscsync_bounds *s, uint64_t a0, uint64_t b, uint64_t a1)
{
	/* differences of unsigned counters as signed: offsets below 2^63 ticks */
	int64_t lo = (int64_t)(b - a1), hi = (int64_t)(b - a0), rtt = (int64_t)(a1 - a0);

	s->samples++;
	if (rtt < 0) {
		s->rejected++;
		return;
	}
	if (lo > s->lo_ticks)
		s->lo_ticks = lo;
	if (hi < s->hi_ticks)
		s->hi_ticks = hi;
	if (rtt < s->min_rtt_ticks) {
		s->min_rtt_ticks = rtt;
		s->min_rtt_lo = lo;
		s->min_rtt_hi = hi;
	}
}

int tscsync_interval(const struct tscsync_bounds *s, struct tscsync_interval *iv)
{
	*iv = (struct tscsync_interval){ 0 };
	if (s->samples <= s->rejected)
		return -1;
	iv->lo_ticks = s->lo_ticks;
	iv->hi_ticks = s->hi_ticks;
	iv->consistent = s->lo_ticks <= s->hi_ticks;
	if (!iv->consistent) {
		iv->lo_ticks = s->min_rtt_lo;
		iv->hi_ticks = s->min_rtt_hi;
	}
	iv->excludes_zero = iv->lo_ticks > 0 || iv->hi_ticks < 0;
	return 0;
}

int64_t tscsync_mid_ticks(const struct tscsync_interval *iv)
{
	uint64_t w = (uint64_t)iv->hi_ticks - (uint64_t)iv->lo_ticks;

	return (int64_t)((uint64_t)iv->lo_ticks + w / 2);
}

uint64_t tscsync_half_ticks(const struct tscsync_interval *iv)
{
	uint64_t w = (uint64_t)iv->hi_ticks - (uint64_t)iv->lo_ticks;

	return w / 2 + (w & 1);
}
