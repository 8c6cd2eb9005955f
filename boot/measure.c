// SPDX-License-Identifier: MIT
/* Measurement kernels; see measure.h. */
#include "measure.h"
#include "x86.h"

/* Reads per round end; the tightest TSC bracket wins. */
#define BRACKET_TRIES 3

/* Ports of the 8254 PIT and the NMI status / control register */
#define PIT_CH2 0x42
#define PIT_MODE 0x43
#define PORT_61 0x61
#define PORT_61_GATE2 0x01	/* timer 2 gate */
#define PORT_61_SPKR 0x02	/* speaker data enable */
#define PORT_61_OUT2 0x20	/* timer 2 output, read-only */

typedef uint32_t (*read_fn)(const void *ctx);

struct stamp {
	uint32_t count;
	uint64_t tsc;		/* midpoint of the bracket */
	uint64_t width;		/* bracket width in TSC ticks */
};

static struct stamp read_stamped(read_fn rd, const void *ctx)
{
	struct stamp best = { 0, 0, UINT64_MAX };

	for (int i = 0; i < BRACKET_TRIES; i++) {
		uint64_t a = tp_rdtsc();
		uint32_t c = rd(ctx);
		uint64_t b = tp_rdtsc();

		if (b - a < best.width) {
			best.width = b - a;
			best.count = c;
			best.tsc = a + (b - a) / 2;
		}
	}
	return best;
}

/* One round against a free-running up-counter of `bits` bits. */
static int counter_round(read_fn rd, const void *ctx, unsigned int bits, uint64_t target,
			 const struct tp_measure_limits *lim, struct tp_round *r)
{
	struct stamp s0, s1;
	uint64_t t0;
	uint32_t c;

	s0 = read_stamped(rd, ctx);
	t0 = s0.tsc;
	for (;;) {
		c = rd(ctx);
		if (tp_counter_delta(s0.count, c, bits) >= target)
			break;
		if (tp_rdtsc() - t0 > lim->timeout_tsc)
			return c == s0.count ? TP_MEASURE_STUCK : TP_MEASURE_TIMEOUT;
	}
	s1 = read_stamped(rd, ctx);
	r->tsc_ticks = s1.tsc - s0.tsc;
	r->ref_ticks = tp_counter_delta(s0.count, s1.count, bits);
	if (s0.width > lim->max_bracket_tsc || s1.width > lim->max_bracket_tsc)
		return TP_MEASURE_NOISY;
	return TP_MEASURE_OK;
}

uint32_t tp_pm_read(const void *ctx)
{
	const struct tp_pm_timer *pm = ctx;

	if (pm->space == ACPI_GAS_IO)
		return tp_inl((uint16_t)pm->address);
	return tp_mmio_read32(pm->address);
}

int tp_measure_pmtimer(const struct tp_pm_timer *pm, uint32_t ms, const struct tp_measure_limits *lim,
		       struct tp_round *r)
{
	/* The 24-bit counter wraps every 4.69 s; a round is far shorter, and
	 * tp_counter_delta() masks to the width the FADT declares. */
	return counter_round(tp_pm_read, pm, pm->bits, tp_ref_ticks_for_ms(ACPI_PM_TIMER_HZ, ms),
			     lim, r);
}

uint32_t tp_hpet_read(const void *ctx)
{
	const struct tp_hpet_state *h = ctx;

	/* The low 32 bits: one untorn MMIO read, whether the counter is 32 or
	 * 64 bits wide (HPET 1.0a, 2.4.7); at 100 MHz they wrap every 42 s. */
	return tp_mmio_read32(h->base + HPET_MAIN_COUNTER);
}

int tp_hpet_begin(struct tp_hpet_state *h, uint64_t base)
{
	h->base = base;
	h->gcap_id = tp_mmio_read64(base + HPET_GCAP_ID);
	h->period_fs = tp_hpet_period_fs(h->gcap_id);
	h->conf_found = tp_mmio_read64(base + HPET_GEN_CONF);
	h->enabled_by_us = 0;
	if (h->gcap_id == 0 || h->gcap_id == UINT64_MAX || !tp_hpet_period_valid(h->period_fs))
		return -1;
	if (!(h->conf_found & HPET_CONF_ENABLE)) {
		/* HPET 1.0a, 2.3.5: ENABLE_CNF starts the main counter */
		tp_mmio_write64(base + HPET_GEN_CONF, h->conf_found | HPET_CONF_ENABLE);
		h->enabled_by_us = 1;
	}
	return 0;
}

void tp_hpet_end(struct tp_hpet_state *h)
{
	if (h->enabled_by_us)
		tp_mmio_write64(h->base + HPET_GEN_CONF, h->conf_found);
	h->enabled_by_us = 0;
}

int tp_measure_hpet(const struct tp_hpet_state *h, uint32_t ms, const struct tp_measure_limits *lim,
		    struct tp_round *r)
{
	return counter_round(tp_hpet_read, h, 32, tp_hpet_ticks_for_ms(h->period_fs, ms), lim, r);
}

int tp_measure_pit(uint32_t ms, const struct tp_measure_limits *lim, struct tp_round *r)
{
	uint8_t p61 = tp_inb(PORT_61);
	uint16_t latch = tp_pit_latch_for_ms(ms, 0);
	uint64_t start_a, start_b, low, high;
	int ret = TP_MEASURE_OK;

	/* Gate high, speaker off: channel 2 counts but makes no sound. */
	tp_outb((uint8_t)((p61 & ~PORT_61_SPKR) | PORT_61_GATE2), PORT_61);
	/* Channel 2, lobyte/hibyte, mode 0 (interrupt on terminal count),
	 * binary: OUT2 goes low now and high when the count reaches 0. */
	tp_outb(0xb0, PIT_MODE);
	tp_outb(latch & 0xff, PIT_CH2);
	/* Counting starts with the next input clock after the MSB write. */
	start_a = tp_rdtsc();
	tp_outb(latch >> 8, PIT_CH2);
	start_b = tp_rdtsc();
	low = start_b;
	for (;;) {
		uint64_t t = tp_rdtsc();

		if (tp_inb(PORT_61) & PORT_61_OUT2) {
			high = tp_rdtsc();
			break;
		}
		low = t;	/* OUT2 was still low after t */
		if (t - start_b > lim->timeout_tsc) {
			high = t;
			ret = TP_MEASURE_TIMEOUT;
			break;
		}
	}
	tp_outb(p61, PORT_61);
	r->tsc_ticks = (low + (high - low) / 2) - (start_a + (start_b - start_a) / 2);
	r->ref_ticks = latch;
	if (!ret && (start_b - start_a > lim->max_bracket_tsc || high - low > lim->max_bracket_tsc))
		ret = TP_MEASURE_NOISY;
	return ret;
}

int tp_measure_stall(tp_stall_fn stall, void *ctx, uint32_t ms, struct tp_round *r)
{
	uint64_t t0, t1;

	t0 = tp_rdtsc();
	stall(ms * 1000, ctx);
	t1 = tp_rdtsc();
	r->tsc_ticks = t1 - t0;
	r->ref_ticks = (uint64_t)ms * 1000;	/* a 1 MHz reference */
	return TP_MEASURE_OK;
}

uint64_t tp_rough_tsc_hz(tp_stall_fn stall, void *ctx)
{
	struct tp_round r;

	tp_measure_stall(stall, ctx, 5, &r);
	return tp_hz_from_ticks(r.tsc_ticks, r.ref_ticks, 1000000);
}
