// SPDX-License-Identifier: MIT
/*
 * The kernel selftests' sleep-latency loop, printing what it measures: the
 * relative half of nanosleep_lat_test() in Linux's
 * tools/testing/selftests/timers/nsleep-lat.c (6.1), which only checks
 * the mean against 40 ms and prints nothing when it passes. COUNT sleeps
 * of US microseconds with clock_nanosleep(CLOCK_MONOTONIC, 0, ...) back to
 * back, timed as one span; the mean time per sleep minus US is the
 * latency. Debian packages no kernel selftests, so tools/bench/peers.py
 * builds this in a temporary folder.
 *
 *   nsleep_lat_ref US COUNT    prints "mean_latency_us X"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

int main(int argc, char **argv)
{
	int64_t us = argc > 1 ? atoll(argv[1]) : 1000, count = argc > 2 ? atoll(argv[2]) : 10;
	struct timespec target = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 }, start, end;

	if (us <= 0 || count <= 0 || clock_nanosleep(CLOCK_MONOTONIC, 0, &target, NULL))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int64_t i = 0; i < count; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &target, NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("mean_latency_us %.3f\n", ((double)(ns_of(&end) - ns_of(&start)) / count - us * 1e3) / 1e3);
	return 0;
}
