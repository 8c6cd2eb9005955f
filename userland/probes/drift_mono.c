// SPDX-License-Identifier: MIT
/*
 * Probe `drift`: CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW; see
 * drift_impl.h. MONOTONIC runs at the clocksource's rate as NTP (or any
 * adjtimex() caller) steers it; MONOTONIC_RAW at the clocksource's rate as
 * the kernel calibrated it, never steered (clock_gettime(2)). Their rates'
 * difference over the run is the adjustment in force, in ppm; adjtimex()
 * says what the kernel was told (its frequency offset, tick length and
 * whether it thinks it is synchronised), so the two can be compared.
 */
#include <stdio.h>
#include <sys/timex.h>
#include <time.h>

#include "../emit.h"
#include "../timeutil.h"
#include "drift.h"
#include "drift_impl.h"

#define P "drift"
#define BRACKETS 5
#define TICK_NOMINAL_US 10000	/* adjtimex's tick at USER_HZ 100 (adjtimex(2)) */

static int64_t read_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return ts_ns(&t);
}

void drift_mono_mark(struct drift_mono_mark *m)
{
	m->width_ns = INT64_MAX;
	for (int i = 0; i < BRACKETS; i++) {
		int64_t r0 = read_ns(CLOCK_MONOTONIC_RAW), mono = read_ns(CLOCK_MONOTONIC);
		int64_t r1 = read_ns(CLOCK_MONOTONIC_RAW);

		if (r1 - r0 < m->width_ns) {
			m->width_ns = r1 - r0;
			m->raw_ns = r0 + (r1 - r0) / 2;
			m->mono_ns = mono;
		}
	}
}

/* What the kernel was told: adjtimex() with no modes reads its state. */
static void emit_told(struct tp_rec *r)
{
	struct timex tx = { 0 };
	int state = adjtimex(&tx);

	if (state < 0) {
		tp_rec_null(r, "ntp_freq_ppm");
		return;
	}
	/* freq: ppm with a 16-bit fraction (adjtimex(2)) */
	emit_rec_double(r, "ntp_freq_ppm", (double)tx.freq / 65536.0);
	emit_rec_double(r, "ntp_tick_ppm", (double)(tx.tick - TICK_NOMINAL_US) * 1e6 / TICK_NOMINAL_US);
	tp_rec_bool(r, "ntp_synced", !(tx.status & STA_UNSYNC) && state != TIME_ERROR);
}

void drift_mono_emit(const struct drift_mono_mark *a, const struct drift_mono_mark *b)
{
	double ppm = drift_mono_ppm(b->mono_ns - a->mono_ns, b->raw_ns - a->raw_ns);
	double bound = drift_mono_bound_ppm(a->width_ns, b->width_ns, b->raw_ns - a->raw_ns);
	struct tp_rec r;

	emit_result_begin(&r, P, "CLOCK_MONOTONIC vs CLOCK_MONOTONIC_RAW");
	tp_rec_str(&r, "ref", "CLOCK_MONOTONIC_RAW");
	emit_rec_double(&r, "mono_raw_ppm", ppm);
	emit_rec_double(&r, "mono_raw_bound_ppm", bound);
	emit_rec_double(&r, "duration_s", (double)(b->raw_ns - a->raw_ns) / NS_PER_S);
	emit_told(&r);
	emit_end(&r);
	emit_human("\n  CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW: %+.3f ppm (+/- %.3f), the adjustment "
		   "in force\n", ppm, bound);
}
