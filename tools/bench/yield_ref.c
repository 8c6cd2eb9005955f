// SPDX-License-Identifier: MIT
/*
 * The smallest yield loop: THREADS threads of one process call
 * sched_yield() for SECONDS, and the process's CPU time over all their calls
 * is the cost of one, as the yield probe's ns_per_yield counts it
 * (CLOCK_PROCESS_CPUTIME_ID / calls). No rounds, no barrier, no records:
 * what is left between it and the probe is the probe's own bookkeeping.
 * It also prints the share of calls that switched (involuntary context
 * switches / calls, as the probe's invol_ctxsw / total_yields): a call by a
 * thread alone on its CPU returns without switching and costs about a third
 * of one that switches, so two figures compare only at the same share.
 * tools/bench/peers.py builds it in a temporary folder, static with
 * musl-gcc as the probe is when it can (glibc registers rseq, which the
 * kernel updates on every switch).
 *
 *   yield_ref THREADS SECONDS    prints "switches_per_yield S" and
 *                                "cpu_ns_per_yield X"
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static atomic_int stop;
static atomic_llong calls;

static void *yielder(void *arg)
{
	long long n = 0;

	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		sched_yield();
		n++;
	}
	atomic_fetch_add(&calls, n);
	return NULL;
}

static double cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4, seconds = argc > 2 ? atoi(argv[2]) : 3;
	struct timespec span = { 0, 0 };
	pthread_t t[256];
	struct rusage ru;
	double cpu0, calls_done;

	if (threads < 1 || threads > 256 || seconds < 1)
		return 1;
	span.tv_sec = seconds;
	cpu0 = cpu_ns();
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, yielder, NULL))
			return 1;
	nanosleep(&span, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	calls_done = (double)atomic_load(&calls);
	if (!calls_done || getrusage(RUSAGE_SELF, &ru))
		return 1;
	printf("switches_per_yield %.3f\n", (double)ru.ru_nivcsw / calls_done);
	printf("cpu_ns_per_yield %.1f\n", (cpu_ns() - cpu0) / calls_done);
	return 0;
}
