// SPDX-License-Identifier: MIT
/*
 * Unit tests of the wakeup probe's arithmetic (userland/probes/wakeup.h) and
 * of the fixed-bucket histogram it writes (userland/stats.h: hist_*).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../common/record.h"
#include "../../userland/options.h"
#include "../../userland/stats.h"
#include "../../userland/probes/wakeup.h"

static void test_missed(void)
{
	is_int(wakeup_missed_periods(0, 1000), 0, "on time: none missed");
	is_int(wakeup_missed_periods(999, 1000), 0, "late by less than a period: none");
	is_int(wakeup_missed_periods(1000, 1000), 1, "late by exactly a period: one");
	is_int(wakeup_missed_periods(2500, 1000), 2, "late by 2.5 periods: two");
	is_int(wakeup_missed_periods(-5, 1000), 0, "early (negative): none");
	is_int(wakeup_missed_periods(5000, 0), 0, "no period: none");
}

static void test_summary(void)
{
	/* 1..1000 us, nearest rank: p50 the 500th, p99 the 990th, p99.9 the 999th */
	int64_t lat[1000];
	double scratch[1000];
	struct lat_summary s;

	for (int i = 0; i < 1000; i++)
		lat[999 - i] = (int64_t)(i + 1) * 1000;	/* unsorted on purpose */
	wakeup_lat_summarize(lat, 1000, scratch, &s);
	is_int(s.samples, 1000, "samples");
	is_int(s.min_ns, 1000, "min");
	is_int(s.max_ns, 1000000, "max");
	is_near(s.avg_ns, 500500, 1e-6, "avg");
	is_near(s.p50_ns, 500000, 1e-6, "p50: 500th sample");
	is_near(s.p99_ns, 990000, 1e-6, "p99: 990th sample");
	is_near(s.p999_ns, 999000, 1e-6, "p99.9: 999th sample");
	is_int(lat[0], 1000000, "the samples are left as they were");
	wakeup_lat_summarize(lat, 0, scratch, &s);
	ok(s.samples == 0 && s.max_ns == 0, "no samples: zeros");
}

static void test_defaults(void)
{
	struct int_list asked = { 0 };
	int64_t us[OPT_LIST_MAX];

	is_int(wakeup_periods(&asked, us, OPT_LIST_MAX), 2, "two default periods");
	ok(us[0] == 1000 && us[1] == 100, "1000 and 100 us");
	asked.n = 1;
	asked.v[0] = 250;
	ok(wakeup_periods(&asked, us, OPT_LIST_MAX) == 1 && us[0] == 250, "option overrides");
	is_int(wakeup_samples(1, 1000), 200, "quick: 200 samples");
	is_int(wakeup_samples(1, 100), 200, "quick: 200 samples at 100 us too");
	is_int(wakeup_samples(0, 1000), 3000, "full: 3 s at 1000 us");
	is_int(wakeup_samples(0, 100), 30000, "full: 3 s at 100 us");
	is_int(wakeup_samples(0, 10), 30000, "full: at most 30000");
	is_int(wakeup_samples(0, 100000), 1000, "full: at least 1000");
	is_int(wakeup_length(37, 0, 32, 1, 1000), 37, "--wakeup-samples=37: 37, quick or not");
	is_int(wakeup_length(37, 60, 32, 0, 100), 37, "--wakeup-samples over --wakeup-seconds");
	is_int(wakeup_length(0, 2, 16, 0, 1000), 125, "--wakeup-seconds=2, 16 slots, 1000 us: 125 each");
	is_int(wakeup_length(0, 1, 16, 0, 100000), 1, "--wakeup-seconds: at least 1 sample");
	is_int(wakeup_length(0, 86400, 1, 0, 10), WAKEUP_SAMPLES_MAX, "at most WAKEUP_SAMPLES_MAX");
	is_int(wakeup_length(0, 0, 16, 1, 1000), 200, "neither: the profile's");
	is_int(wakeup_priority(-1, 1), 90, "appliance: SCHED_FIFO 90");
	is_int(wakeup_priority(-1, 0), 0, "host: none");
	is_int(wakeup_priority(0, 1), 0, "wakeup-priority=0: none in the appliance too");
	is_int(wakeup_priority(50, 0), 50, "wakeup-priority=50 on a host");
}

static void test_hist(void)
{
	uint64_t b[10];
	struct hist h, v;
	struct tp_rec r;
	const char *line, *json;
	uint64_t sum;

	stats_hist_init(&h, b, 10, 1000);	/* 1 us buckets, 0 .. 10 us */
	stats_hist_add(&h, 0);		/* bucket 0 */
	stats_hist_add(&h, 999);		/* bucket 0: [0, 1000) */
	stats_hist_add(&h, 1000);		/* bucket 1 */
	stats_hist_add(&h, 5500);		/* bucket 5 */
	stats_hist_add(&h, 9999);		/* bucket 9, the last */
	stats_hist_add(&h, 10000);		/* overflow: >= 10 x 1 us */
	stats_hist_add(&h, 123456);		/* overflow */
	stats_hist_add(&h, -1);		/* underflow */
	is_int(h.count, 8, "count");
	ok(b[0] == 2 && b[1] == 1 && b[5] == 1 && b[9] == 1, "buckets by lower edge");
	is_int(h.overflow, 2, "overflow at nbuckets x width");
	is_int(h.underflow, 1, "negative values counted apart");
	sum = h.overflow + h.underflow;
	for (int i = 0; i < 10; i++)
		sum += b[i];
	is_int(sum, h.count, "buckets + overflow + underflow = samples");
	is_int(h.noutliers, 8, "all 8 kept as outliers");
	ok(h.outlier[0] == 123456 && h.outlier[1] == 10000 && h.outlier[7] == -1, "outliers descending");

	/* nearest rank over 8: p50 is rank 4 (1000 ns, bucket 1, upper edge 2 us) */
	is_int(stats_hist_percentile(&h, 12.5), 0, "rank 1 is the underflow: 0");
	is_int(stats_hist_percentile(&h, 25), 1000, "rank 2: bucket 0's upper edge");
	is_int(stats_hist_percentile(&h, 50), 2000, "p50: bucket 1's upper edge");
	is_int(stats_hist_percentile(&h, 75), 10000, "rank 6: bucket 9's upper edge");
	is_int(stats_hist_percentile(&h, 100), 123456, "in the overflow: the largest sample");

	tp_rec_begin(&r, "t");
	stats_hist_record(&r, "hist", &h);
	line = tp_rec_finish(&r);
	ok(line && tp_rec_check(line, strlen(line) - 1, &json) > 0, "record with a histogram has a valid CRC");
	ok(line && strstr(line, "\"hist\":{\"width_ns\":1000,\"buckets\":{\"0\":2,\"1\":1,\"5\":1,\"9\":1},"
			  "\"overflow\":2,\"underflow\":1,\"outliers_ns\":[123456,10000,9999,5500,1000,999,0,-1]}"),
	   "sparse: empty buckets left out, in order");

	stats_hist_truncate(&h, 3, &v);
	is_int(v.nbuckets, 3, "truncated view: 3 buckets");
	is_int(v.overflow, 4, "truncated view: the cut buckets join the overflow");
	is_int(v.count, h.count, "truncated view: same count");
	is_int(h.overflow, 2, "the original is unchanged");
	stats_hist_truncate(&h, 50, &v);
	is_int(v.nbuckets, 10, "truncating to more buckets changes nothing");

	stats_hist_init(&h, b, 10, 1000);
	is_int(stats_hist_percentile(&h, 50), 0, "empty histogram: 0");
	tp_rec_begin(&r, "t");
	stats_hist_record(&r, "hist", &h);
	line = tp_rec_finish(&r);
	ok(line && strstr(line, "\"buckets\":{},\"overflow\":0,\"outliers_ns\":[]"), "empty histogram encodes as {}");
}

/* A full 10 ms histogram with every bucket used must still make a record:
 * the probe cuts it (stats_hist_truncate) until it fits; check the arithmetic
 * that makes that terminate. */
static void test_big(void)
{
	static uint64_t b[10000];
	struct hist h, v;
	struct tp_rec r;
	size_t nb = 10000;

	stats_hist_init(&h, b, 10000, 1000);
	for (int64_t i = 0; i < 10000; i++)
		for (int k = 0; k < 3; k++)
			stats_hist_add(&h, i * 1000 + k);
	for (;;) {
		tp_rec_begin(&r, "t");
		stats_hist_truncate(&h, nb, &v);
		stats_hist_record(&r, "hist", &v);
		if (!r.overflow && r.len + 16 < TP_REC_MAX)
			break;
		nb = nb * 3 / 4;
	}
	ok(nb > 100 && nb < 10000, "a full histogram is cut to %zu buckets to fit", nb);
	ok(tp_rec_finish(&r) != NULL, "and then makes a valid record");
	is_int(v.overflow + 3 * nb, 30000, "nothing lost: cut samples are overflow");
}

int main(void)
{
	test_missed();
	test_summary();
	test_defaults();
	test_hist();
	test_big();
	return tap_done();
}
