// SPDX-License-Identifier: MIT
/* Unit tests of the itimer probe's arithmetic (userland/probes/itimer.h). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>

#include "tap.h"
#include "../../userland/load.h"
#include "../../userland/options.h"
#include "../../userland/probes/itimer.h"

static void test_interval_stats(void)
{
	/* intervals 10, 12, 8, 10 us: mean 10, min 8, max 12 */
	const int64_t st[] = { 1000000, 1010000, 1022000, 1030000, 1040000 };
	struct itimer_interval_stats s;

	is_int(itimer_interval_stats(st, 5, &s), 4, "5 stamps give 4 intervals");
	is_int(s.signals, 5, "signals counts the stamps");
	is_near(s.mean_ns, 10000, 1e-9, "mean = (last - first) / intervals");
	is_near(s.min_ns, 8000, 0, "min interval");
	is_near(s.max_ns, 12000, 0, "max interval");
	/* deviations 0, 2, -2, 0 us: sum of squares 8e6 ns^2 over n - 1 = 3 */
	is_near(s.stddev_ns, 1632.993162, 1e-5, "sample stddev of the intervals");

	is_int(itimer_interval_stats(st, 1, &s), 0, "one stamp: no interval");
	is_int(s.signals, 1, "one stamp still counted as a signal");
	is_near(s.mean_ns, 0, 0, "no mean without an interval");
	is_int(itimer_interval_stats(st, 0, &s), 0, "no stamps");

	is_int(itimer_interval_stats(st, 2, &s), 1, "two stamps: one interval");
	is_near(s.stddev_ns, 0, 0, "one interval: stddev 0");
	is_near(s.mean_ns, 10000, 0, "one interval: its length");
}

static void test_per_signal(void)
{
	const int64_t st[] = { 1000000, 1010000, 1022000, 1030000, 1040000 };
	struct itimer_interval_stats s;

	/* the headline's formula: span / (signals - 1) / 1000, exactly */
	ok(itimer_per_signal_us(40000, 5) == 40000.0 / 4 / 1000, "per signal: 40 us over 4 intervals is 10 us");
	ok(itimer_per_signal_us(60158378, 623) == 60158378.0 / 622 / 1000,
	   "per signal: the double division, exactly (a record's own counts)");
	itimer_interval_stats(st, 5, &s);
	ok(itimer_per_signal_us(st[4] - st[0], 5) == s.mean_ns / 1000, "per signal = itimer_interval_stats' mean, in us");
	/* the seed's Linux line "2000 2000 4000 (200%)": 100 signals, 396 ms of CPU */
	is_near(itimer_accuracy_pct(itimer_per_signal_us(396000000, 100), 2000), 200, 1e-9,
		"per signal over claimed: the seed's 200 %");
	ok(itimer_per_signal_us(5000, 1) == 0 && itimer_per_signal_us(5000, 0) == 0,
	   "per signal: fewer than 2 signals give 0");
}

static void test_accuracy(void)
{
	/* the seed's own lines: "2000 2000 4000 (200%)", "100 100 2407 (2407%)" */
	is_near(itimer_accuracy_pct(4000, 2000), 200, 1e-12, "Linux 2008 ITIMER_REAL 2000 us");
	is_near(itimer_accuracy_pct(2407, 100), 2407, 1e-9, "Mac OS X ITIMER_VIRTUAL 100 us");
	is_near(itimer_accuracy_pct(9945, 10000), 99.45, 1e-9, "below 100 % when early");
	/* the seed divides by claimed, not requested: "50000 52003 52098 (100%)" */
	is_near(itimer_accuracy_pct(52098, 52003), 100.18268, 1e-4, "relative to the claimed interval");
	is_near(itimer_accuracy_pct(100, 0), 0, 0, "claimed 0 gives 0, not inf");
}

static void test_lists(void)
{
	struct int_list asked = { 0 };
	int64_t us[OPT_LIST_MAX];
	int load[ITIMER_MAX_LOADS];

	is_int(itimer_intervals(&asked, 0, us, OPT_LIST_MAX), 10, "full: the seed's ten intervals");
	ok(us[0] == 100000 && us[9] == 100, "full: 100000 down to 100");
	is_int(itimer_intervals(NULL, 1, us, OPT_LIST_MAX), 3, "quick: three intervals");
	ok(us[0] == 10000 && us[1] == 1000 && us[2] == 100, "quick: 10000, 1000, 100");
	asked.n = 2;
	asked.v[0] = 777;
	asked.v[1] = 42;
	is_int(itimer_intervals(&asked, 1, us, OPT_LIST_MAX), 2, "option overrides quick");
	ok(us[0] == 777 && us[1] == 42, "option's values in order");
	is_int(itimer_intervals(&asked, 0, us, 1), 1, "capped at max");

	is_int(itimer_loads(-1, 0, 4, load), 1, "host default: one load level");
	is_int(load[0], 0, "host default: load 0");
	is_int(itimer_loads(-1, 1, 4, load), 2, "appliance default: two load levels");
	ok(load[0] == 0 && load[1] == 8, "appliance default: 0 and 2 x CPUs");
	is_int(itimer_loads(9, 1, 4, load), 1, "itimer-load=N: one level");
	is_int(load[0], 9, "itimer-load=N: N burners");
	ok(itimer_loads(0, 1, 4, load) == 1 && load[0] == 0, "itimer-load=0 in the appliance: only 0");
}

/* The burners run until stopped and are reaped by load_stop(). */
static void test_load(void)
{
	struct load l = { 0 };
	pid_t first;

	is_int(load_start(&l, 0), 0, "load 0 starts nothing");
	is_int(l.n, 0, "load 0: no burners");
	load_stop(&l);
	is_int(load_start(&l, 2), 0, "load 2 starts");
	is_int(l.n, 2, "two burners");
	first = l.pid[0];
	ok(kill(first, 0) == 0, "a burner is running");
	load_stop(&l);
	ok(kill(first, 0) < 0 && errno == ESRCH, "stopped and reaped");
	is_int(l.n, 0, "none left");
	load_stop(&l);
	ok(1, "load_stop twice is harmless");
}

static void test_model(void)
{
	/*
	 * The seed's ITIMER_REAL under 9 loads (RHEL 4.7): with CPU slices of
	 * 112 ms, 100 ms -> 100 x 112 / 212 = 52.83 ms (53 %, seed 52 %);
	 * 50 -> 50 x 112 / 162 = 34.57 (69 %, seed 65 %); 20 -> 16.97 (85 %,
	 * seed 84 %); 10 -> 9.18 (92 %, seed 91 %); 5 -> 4.79 (96 %, seed 95 %).
	 */
	is_near(itimer_model_cpu_per_signal_us(100000, 112000), 100000.0 * 112000 / 212000, 1e-6,
		"model: 100 ms with 112 ms slices");
	is_near(itimer_accuracy_pct(itimer_model_cpu_per_signal_us(100000, 112000), 100000), 52.83, 0.01,
		"model: 53 % at 100 ms (seed 52 %)");
	is_near(itimer_accuracy_pct(itimer_model_cpu_per_signal_us(50000, 112000), 50000), 69.14, 0.01,
		"model: 69 % at 50 ms (seed 65 %)");
	is_near(itimer_accuracy_pct(itimer_model_cpu_per_signal_us(5000, 112000), 5000), 95.73, 0.01,
		"model: 96 % at 5 ms (seed 95 %)");
	is_near(itimer_model_cpu_per_signal_us(0, 3000), 0, 0, "model: no interval, 0");
	is_near(itimer_model_cpu_per_signal_us(1000, 0), 0, 0, "model: no slice measured, 0");
	/* 30 ms of CPU over 10 involuntary switches: 3000 us slices */
	is_near(itimer_slice_us(30 * 1000000LL, 10), 3000, 1e-9, "slice: CPU time / switches");
	is_near(itimer_slice_us(30 * 1000000LL, 0), 0, 0, "slice: never lost the CPU, 0");
}

int main(void)
{
	test_model();
	test_interval_stats();
	test_per_signal();
	test_accuracy();
	test_lists();
	test_load();
	return tap_done();
}
