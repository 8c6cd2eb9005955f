// SPDX-License-Identifier: MIT
/* Statistics on fixed inputs whose answers were worked out by hand. */
#include <jansson.h>
#include <string.h>

#include "tap.h"
#include "../../common/record.h"
#include "../../userland/stats.h"

int main(void)
{
	double v[] = { 5, 1, 4, 2, 3 };
	double one[] = { 7 };
	double even[] = { 4, 1, 3, 2 };
	struct summary s;
	struct step_stats st;
	int64_t reads[] = { 100, 100, 150, 120, 130, 130, 131, 90 };
	uint64_t work[] = { 10, 20, 30, 0 };
	uint64_t same[] = { 5, 5, 5 }, zeros[] = { 0, 0 };

	stats_summarize(v, 5, &s);
	is_int(s.n, 5, "n");
	is_near(s.min, 1, 0, "min");
	is_near(s.max, 5, 0, "max");
	is_near(s.mean, 3, 1e-12, "mean");
	is_near(s.stddev, 1.58113883, 1e-8, "sample stddev of 1..5 is sqrt(2.5)");
	is_near(s.p50, 3, 0, "median of odd count");
	/* nearest rank: ceil(0.99 x 5) = 5th of 1..5 */
	is_near(s.p99, 5, 0, "p99 of 5 samples is the 5th (nearest rank, no interpolation)");
	/* 10 samples 1..10: p50 rank 5, p90 rank 9, p10 rank 1 */
	{
		double ten[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };

		stats_sort_doubles(ten, 10);
		is_near(stats_percentile_sorted(ten, 10, 50), 5, 0, "p50 of 1..10 is the 5th");
		is_near(stats_percentile_sorted(ten, 10, 90), 9, 0, "p90 of 1..10 is the 9th");
		is_near(stats_percentile_sorted(ten, 10, 91), 10, 0, "p91 of 1..10: ceil(9.1) = 10th");
		is_near(stats_percentile_sorted(ten, 10, 10), 1, 0, "p10 of 1..10 is the 1st");
		is_near(stats_percentile_sorted(ten, 10, 0), 1, 0, "p0 is the minimum");
	}
	is_int(stats_percentile_rank(99, 1000), 990, "rank of p99 in 1000 is 990 (not 991 by an ulp)");
	is_int(stats_percentile_rank(99.9, 10000), 9990, "rank of p99.9 in 10000 is 9990");
	is_int(stats_percentile_rank(99.9, 200), 200, "rank of p99.9 in 200 is the largest");
	is_int(stats_percentile_rank(100, 7), 7, "p100 is the largest");
	ok(stats_percentile_shown(99, 1000), "shown: p99 of 1000 has 10 samples above it");
	ok(!stats_percentile_shown(99, 999), "not shown: p99 of 999 has 9 above it");
	ok(stats_percentile_shown(99.9, 10000) && !stats_percentile_shown(99.9, 9999),
	   "p99.9 needs 10000 samples");
	ok(!stats_percentile_shown(99.9, 200), "not shown: p99.9 of 200 (wakeup quick)");
	ok(!stats_percentile_shown(99, 12), "not shown: p99 of 12 batch means (clocks quick)");
	ok(stats_percentile_shown(50, 3) && !stats_percentile_shown(50, 0), "the median is shown for any n > 0");
	is_near(stats_median(even, 4), 2.5, 0, "median of even count is the midpoint");
	stats_summarize(one, 1, &s);
	ok(s.p50 == 7 && s.p999 == 7 && s.stddev == 0, "single sample");
	stats_summarize(v, 0, &s);
	ok(s.n == 0 && s.mean == 0, "no samples gives zeros");

	stats_step(reads, 8, &st);
	is_int(st.granularity, 1, "granularity is the smallest forward step (130->131)");
	is_int(st.backward, 2, "two backward steps (150->120, 131->90)");
	is_int(st.largest_backward, 41, "largest backward step");
	stats_step(reads, 2, &st);
	ok(st.granularity == 0 && st.backward == 0, "equal reads: no step seen");

	/* mean 15: (10-15)^2 = 25, (20-15)^2 = 25,
	 * (30-15)^2=225, (0-15)^2=225: sum 500; / (4 * 15^2 = 900) = 0.5555... */
	is_near(stats_normalized_variance(work, 4), 500.0 / 900.0, 1e-12, "normalized variance, worked example");
	is_near(stats_normalized_variance(same, 3), 0, 0, "equal work has no variance");
	is_near(stats_normalized_variance(zeros, 2), 0, 0, "no work at all is 0, not NaN");
	is_int(stats_count_zero(work, 4), 1, "zero-work threads");

	{
		uint64_t b[10];
		struct hist h;
		struct tp_rec r;
		const char *line, *js;
		json_t *j, *buckets;
		long n;
		uint64_t sum = 0;
		const char *k;
		json_t *val;

		stats_hist_init(&h, b, 10, 1000);
		stats_hist_add(&h, 0);
		stats_hist_add(&h, 999);
		stats_hist_add(&h, 1000);
		stats_hist_add(&h, 5500);
		stats_hist_add(&h, 9999);
		stats_hist_add(&h, 10000);	/* overflow: 10 buckets of 1 us end at 10 us */
		stats_hist_add(&h, 250000);
		stats_hist_add(&h, -3);
		is_int(h.count, 8, "hist count");
		is_int(b[0], 2, "bucket 0 holds 0 and 999");
		is_int(b[1], 1, "bucket 1 holds 1000");
		is_int(b[5], 1, "bucket 5 holds 5500");
		is_int(b[9], 1, "bucket 9 holds 9999");
		is_int(h.overflow, 2, "overflow");
		is_int(h.underflow, 1, "underflow");
		is_int(h.outlier[0], 250000, "largest outlier first");
		is_int(h.outlier[1], 10000, "then the next");
		is_int(h.noutliers, 8, "outliers kept");
		is_int(stats_hist_percentile(&h, 50), 2000, "p50: 4th of 8 is in bucket 1, upper edge 2 us");
		is_int(stats_hist_percentile(&h, 100), 250000, "p100 in the overflow is the largest sample");
		is_int(stats_hist_percentile(&h, 10), 0, "p10 is the underflow sample");

		tp_rec_begin(&r, "result");
		stats_hist_record(&r, "hist", &h);
		line = tp_rec_finish(&r);
		n = tp_rec_check(line, strlen(line) - 1, &js);
		j = n > 0 ? json_loadb(js, (size_t)n, 0, 0) : 0;
		ok(j != 0, "histogram record parses");
		buckets = json_object_get(json_object_get(j, "hist"), "buckets");
		is_int(json_object_size(buckets), 4, "sparse: only the 4 non-empty buckets are written");
		json_object_foreach(buckets, k, val)
			sum += (uint64_t)json_integer_value(val);
		sum += (uint64_t)json_integer_value(json_object_get(json_object_get(j, "hist"), "overflow"));
		sum += (uint64_t)json_integer_value(json_object_get(json_object_get(j, "hist"), "underflow"));
		is_int(sum, 8, "buckets + overflow + underflow add up to the count");
		is_int(json_integer_value(json_object_get(buckets, "5")), 1, "bucket keys are indexes");
		json_decref(j);
	}
	return tap_done();
}
