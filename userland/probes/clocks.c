// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`: what one read of the time costs (seeds 001 bench_time and
 * 003 clockvergleich). Foundation version: clock_gettime(CLOCK_MONOTONIC),
 * gettimeofday() and rdtsc; issue 3 widens it to every source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#include "../emit.h"
#include "../probe.h"
#include "../stats.h"
#include "../timeutil.h"

#define UNROLL 16

struct source {
	const char *name;
	const char *path;
	void (*batch)(long iters);	/* iters * UNROLL reads */
};

static volatile int64_t sink;

static void b_mono(long iters)
{
	struct timespec t;

	for (long i = 0; i < iters; i++)
		for (int k = 0; k < UNROLL; k++) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			sink = t.tv_nsec;
		}
}

static void b_gtod(long iters)
{
	struct timeval tv;

	for (long i = 0; i < iters; i++)
		for (int k = 0; k < UNROLL; k++) {
			gettimeofday(&tv, 0);
			sink = tv.tv_usec;
		}
}

static void b_rdtsc(long iters)
{
	for (long i = 0; i < iters; i++)
		for (int k = 0; k < UNROLL; k++)
			sink = (int64_t)rdtsc();
}

static void b_empty(long iters)
{
	for (long i = 0; i < iters; i++)
		for (int k = 0; k < UNROLL; k++)
			sink = k;
}

static const struct source sources[] = {
	{ "clock_gettime(CLOCK_MONOTONIC)", "vdso", b_mono },
	{ "gettimeofday()", "vdso", b_gtod },
	{ "rdtsc", "insn", b_rdtsc },
};

/* Per-call cost of each batch, in ns; batches long enough (>= 100 us) that
 * the two clock reads around each cost under 1 %. */
static void measure(void (*batch)(long), int nbatch, double *ns, double *ticks)
{
	long iters = 1;

	/* grow the batch until it takes at least 100 us */
	for (;;) {
		int64_t t0 = mono_ns();

		batch(iters);
		if (mono_ns() - t0 >= 100 * NS_PER_US || iters > (1L << 28))
			break;
		iters *= 2;
	}
	for (int b = 0; b < nbatch; b++) {
		uint64_t c0 = rdtsc_ordered();
		int64_t t0 = mono_ns();

		batch(iters);
		int64_t t1 = mono_ns();
		uint64_t c1 = rdtsc_ordered();

		ns[b] = (double)(t1 - t0) / (double)(iters * UNROLL);
		ticks[b] = (double)(c1 - c0) / (double)(iters * UNROLL);
	}
}

enum probe_status probe_clocks(struct probe_ctx *ctx)
{
	int nbatch = ctx->quick ? 50 : 500;
	double *ns = calloc((size_t)nbatch, sizeof(*ns)), *ticks = calloc((size_t)nbatch, sizeof(*ticks));
	double overhead;

	if (!ns || !ticks)
		return PROBE_FAILED;
	measure(b_empty, nbatch, ns, ticks);
	overhead = median(ns, (size_t)nbatch);
	human("%10s %10s %10s  %-6s %s\n", "ns/call", "ticks/call", "p99 ns", "path", "name");
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		struct summary sn, st;
		struct tp_rec r;

		measure(sources[i].batch, nbatch, ns, ticks);
		summarize(ns, (size_t)nbatch, &sn);
		summarize(ticks, (size_t)nbatch, &st);
		emit_result_begin(&r, "clocks", sources[i].name);
		tp_rec_str(&r, "path", sources[i].path);
		rec_double(&r, "ns_per_call", sn.p50);
		rec_double(&r, "ns_per_call_min", sn.min);
		rec_double(&r, "ns_per_call_p99", sn.p99);
		rec_double(&r, "ticks_per_call", st.p50);
		rec_double(&r, "overhead_ns_per_call", overhead);
		tp_rec_int(&r, "batches", nbatch);
		emit_end(&r);
		human("%10.2f %10.1f %10.2f  %-6s %s\n", sn.p50, st.p50, sn.p99, sources[i].path, sources[i].name);
	}
	free(ns);
	free(ticks);
	return PROBE_OK;
}
