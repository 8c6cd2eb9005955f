// SPDX-License-Identifier: MIT
/* Unit tests of probe noise's pure parts: gaps, their statistics, log histogram. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/record.h"
#include "../../userland/probes/noise.h"
#include "../../userland/stats.h"
#include "tap.h"

/* Reads every 10 ticks, with interruptions of the given lengths after
 * every 100 reads. */
static size_t synth(uint64_t *t, size_t max, const uint64_t *gaps, size_t ngaps)
{
	size_t n = 0, g = 0;
	uint64_t now = 1000000;

	while (n < max) {
		t[n++] = now;
		if (n % 100 == 0 && g < ngaps)
			now += gaps[g++];
		else
			now += 10;
	}
	return n;
}

static void test_gaps(void)
{
	static uint64_t t[10000];
	uint64_t gaps[] = {5000, 1000, 999, 20000, 1500}, buf[16];
	uint64_t back[] = {100, 110, 120, 50, 60, 5000, 5010};
	struct noise_gaps g;
	size_t n = synth(t, 1000, gaps, 5);

	noise_gaps_init(&g, buf, 16, 1000);
	noise_scan(&g, t, n);
	is_int(g.count, 4, "gaps: 4 of 5 interruptions reach the threshold (999 does not)");
	is_int(g.n, 4, "gaps: all kept");
	is_int(g.sum_ticks, 5000 + 1000 + 20000 + 1500, "gaps: sum of counted gaps");
	is_int(g.max_ticks, 20000, "gaps: max");
	ok(buf[0] == 5000 && buf[1] == 1000 && buf[2] == 20000 && buf[3] == 1500,
	   "gaps: kept in order");
	is_int(g.backwards, 0, "gaps: no backward step");

	noise_gaps_init(&g, buf, 2, 1000);
	noise_scan(&g, t, n);
	is_int(g.n, 2, "overflow: only cap kept");
	is_int(g.overflow, 2, "overflow: the rest counted");
	is_int(g.count, 4, "overflow: count covers all");
	is_int(g.max_ticks, 20000, "overflow: max seen past the buffer");
	is_int(g.sum_ticks, 27500, "overflow: sum covers all");

	noise_gaps_init(&g, buf, 16, 1000);
	noise_scan(&g, back, 7);
	is_int(g.backwards, 1, "backwards: a step back is counted");
	is_int(g.count, 1, "backwards: not a gap; the forward 4940 is");
	is_int(g.max_ticks, 4940, "backwards: max is the real gap");

	noise_gaps_init(&g, 0, 0, 1000);
	noise_scan(&g, t, n);
	is_int(g.count, 4, "no buffer: still counted");
	is_int(g.overflow, 4, "no buffer: all overflow");

	noise_gaps_init(&g, buf, 16, 1000);
	noise_scan(&g, t, 1);
	is_int(g.count, 0, "one read: no pair");
}

static void test_summary(void)
{
	uint64_t buf[200];
	double scratch[200];
	struct noise_gaps g, total;
	struct noise_stats s;
	struct loghist h;

	/* 100 gaps: 2000, 4000, ... 200000 ns at 1 GHz over 1 s */
	noise_gaps_init(&g, buf, 200, 1000);
	for (uint64_t i = 1; i <= 100; i++)
		noise_gap(&g, 0, i * 2000);
	stats_loghist_init(&h, 1000);
	noise_summarize(&g, 1000000000ULL, 1, 1e9, scratch, &s, &h);
	is_near(s.duration_ns, 1e9, 1e-3, "summary: duration");
	is_int(s.interruptions, 100, "summary: interruptions");
	is_near(s.per_s, 100, 1e-9, "summary: per second");
	is_near(s.stolen_pct, 100.0 * 2000 * 5050 / 1e9, 1e-9, "summary: stolen = sum / duration");
	is_near(s.max_gap_ns, 200000, 1e-6, "summary: max");
	is_near(s.p50_gap_ns, 100000, 1e-6, "summary: p50, nearest rank (50th of 100)");
	is_near(s.p99_gap_ns, 198000, 1e-6, "summary: p99, nearest rank (99th of 100)");
	ok(s.p50_gap_ns >= 1000, "summary: p50 at least the threshold");
	is_int(h.count, 100, "summary: histogram got every kept gap");

	/* 2 GHz: ticks are half a ns */
	noise_summarize(&g, 2000000000ULL, 1, 2e9, scratch, &s, 0);
	is_near(s.duration_ns, 1e9, 1e-3, "summary: 2 GHz duration");
	is_near(s.max_gap_ns, 100000, 1e-6, "summary: 2 GHz max");

	/* machine total: two CPUs, same gaps: stolen_pct is over 2 x duration */
	noise_gaps_init(&total, 0, 0, 1000);
	noise_gaps_add(&total, &g);
	noise_gaps_add(&total, &g);
	noise_summarize(&total, 1000000000ULL, 2, 1e9, 0, &s, 0);
	is_int(s.interruptions, 200, "total: interruptions summed");
	is_near(s.stolen_pct, 100.0 * 2000 * 5050 / 1e9, 1e-9, "total: stolen averaged over CPUs");
	is_near(s.per_s, 200, 1e-9, "total: per second for the machine");
	ok(isnan(s.p50_gap_ns), "total: no scratch, no percentile");

	noise_gaps_init(&g, buf, 200, 1000);
	noise_summarize(&g, 1000000000ULL, 1, 1e9, scratch, &s, 0);
	ok(s.interruptions == 0 && isnan(s.p50_gap_ns) && s.stolen_pct == 0,
	   "summary: a quiet CPU");
}

static void test_loghist(void)
{
	struct loghist h, h2;
	struct tp_rec r;
	const char *line;

	stats_loghist_init(&h, 1000);
	is_int(stats_loghist_lower_ns(&h, 0), 1000, "loghist: bucket 0 starts at base");
	is_int(stats_loghist_lower_ns(&h, 1), 1250, "loghist: 4 per octave");
	is_int(stats_loghist_lower_ns(&h, 3), 1750, "loghist: last of octave 0");
	is_int(stats_loghist_lower_ns(&h, 4), 2000, "loghist: octave 1");
	is_int(stats_loghist_lower_ns(&h, 5), 2500, "loghist: octave 1 step 500");
	stats_loghist_add(&h, 999);
	stats_loghist_add(&h, 1000);
	stats_loghist_add(&h, 1249);
	stats_loghist_add(&h, 1250);
	stats_loghist_add(&h, 1999);
	stats_loghist_add(&h, 2000);
	stats_loghist_add(&h, INT64_MAX);
	is_int(h.below, 1, "loghist: below base");
	is_int(h.bucket[0], 2, "loghist: 1000 and 1249 in [1000,1250)");
	is_int(h.bucket[1], 1, "loghist: 1250");
	is_int(h.bucket[3], 1, "loghist: 1999 in [1750,2000)");
	is_int(h.bucket[4], 1, "loghist: 2000");
	is_int(h.overflow, 1, "loghist: huge value overflows");
	is_int(h.outlier[0], INT64_MAX, "loghist: outlier kept");
	/* every value lands in the bucket whose edges hold it */
	{
		int bad = 0;

		for (int64_t v = 1000; v < 5000000; v = v * 1001 / 1000 + 1) {
			struct loghist t;
			size_t i;

			stats_loghist_init(&t, 1000);
			stats_loghist_add(&t, v);
			for (i = 0; i < LOGHIST_BUCKETS && !t.bucket[i]; i++)
				;
			if (i == LOGHIST_BUCKETS || stats_loghist_lower_ns(&t, i) > v ||
			    stats_loghist_lower_ns(&t, i + 1) <= v)
				bad++;
		}
		is_int(bad, 0, "loghist: edges agree with the index");
	}
	stats_loghist_init(&h2, 1000);
	for (int i = 0; i < 99; i++)
		stats_loghist_add(&h2, 1100);
	stats_loghist_add(&h2, 30000);
	is_int(stats_loghist_percentile(&h2, 50), 1250, "loghist: p50 is the upper edge");
	is_int(stats_loghist_percentile(&h2, 100), 32000, "loghist: p100");
	ok(stats_loghist_merge(&h, &h2) == 0 && h.count == 107, "loghist: merge");
	is_int(h.outlier[0], INT64_MAX, "loghist: merge keeps the largest outliers");
	stats_loghist_init(&h2, 500);
	ok(stats_loghist_merge(&h, &h2) < 0, "loghist: merge refuses another base");

	/* the worst case, every bucket used, fits a record comfortably */
	stats_loghist_init(&h, 1000);
	for (size_t i = 0; i < LOGHIST_BUCKETS; i++)
		h.bucket[i] = 123456789;
	tp_rec_begin(&r, "result");
	stats_loghist_record(&r, "gaps", &h);
	line = tp_rec_finish(&r);
	ok(line && strlen(line) < 6000, "loghist: a full histogram record is %zu bytes",
	   line ? strlen(line) : 0);
	ok(line && strstr(line, "\"1250\":123456789"), "loghist: keys are lower edges in ns");
}

/* Rounds: three rounds' interrupt deltas added by name and CPU column (noise_irqsum_add). */
static void test_irqsum(void)
{
	static const char *round_text[] = {
		"           CPU0       CPU1\n LOC:         10          20   Local timer interrupts\n"
		" RES:          1           0   Rescheduling interrupts\n",
		"           CPU0       CPU1\n LOC:          5           7   Local timer interrupts\n"
		" 24:          0           3   PCI-MSI 1-edge      virtio0-input.0\n",
		"           CPU0\n LOC:        100   Local timer interrupts\n",
	};
	static struct noise_irqsum s;	/* 256 KiB: not on the stack */
	struct irqstat_table d, v;
	int parsed = 1;

	memset(&s, 0, sizeof(s));
	for (int k = 0; k < 2; k++) {
		parsed &= !irqstat_parse_interrupts(round_text[k], &d);
		noise_irqsum_add(&s, &d);
		irqstat_table_free(&d);
	}
	ok(parsed && s.rounds == 2 && s.nrows == 3, "irqsum: two rounds, three sources by name");
	ok(s.row[0].total == 42 && s.row[1].total == 1 && s.row[2].total == 3,
	   "irqsum: each source's total is the rounds' sum (LOC 30 + 12, a source of one round alone)");
	noise_irqsum_view(&s, &v);
	ok(v.ncol == 2 && v.cpu[1] == 1 && v.count[0] == 15 && v.count[1] == 27 && v.count[2 * 2 + 1] == 3,
	   "irqsum: per CPU column while every round had the same columns");
	memset(&s, 0, sizeof(s));
	for (int k = 0; k < 3; k++) {
		parsed &= !irqstat_parse_interrupts(round_text[k], &d);
		noise_irqsum_add(&s, &d);
		irqstat_table_free(&d);
	}
	ok(parsed && s.ncol == 0 && s.row[0].total == 142,
	   "irqsum: a round with other CPU columns leaves the totals alone (LOC 142), no column");
}

int main(void)
{
	test_gaps();
	test_summary();
	test_loghist();
	test_irqsum();
	return tap_done();
}
