// SPDX-License-Identifier: MIT
/*
 * The smallest yield loop: THREADS threads of one process call
 * sched_yield() for SECONDS, and the process's CPU time over all their calls
 * is the cost of one, as the yield probe's ns_per_yield counts it
 * (CLOCK_PROCESS_CPUTIME_ID / calls). No rounds, no barrier, no records:
 * what is left between it and the probe is the probe's own bookkeeping.
 * It also prints the share of calls that switched (involuntary context
 * switches / calls, as the probe's invol_ctxsw / total_yields): a call by a
 * thread alone on its CPU returns without switching and costs about 40 %
 * of one that switches, so two figures compare only at the same share.
 * With `processes` the yielders are forked processes instead (stress-ng's
 * yield stressor's shape), their CPU time and switches the children's.
 * tools/bench/peers.py builds it in a temporary folder, static with
 * musl-gcc as the probe is when it can (glibc registers rseq, which the
 * kernel updates on every switch).
 *
 *   yield_ref THREADS SECONDS [processes]
 *       prints "switches_per_yield S" and "cpu_ns_per_yield X"
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the yielders share: in shared memory, so forked ones share it too. */
struct shared {
	atomic_int stop;
	atomic_llong calls;
};

static struct shared *sh;

static void *yielder(void *arg)
{
	long long n = 0;

	(void)arg;
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		sched_yield();
		n++;
	}
	atomic_fetch_add(&sh->calls, n);
	return NULL;
}

/* CPU time (ns) and involuntary switches of this process's threads, or of
 * its waited-for children. */
static double cpu_ns(int children, long *switches)
{
	struct rusage ru;
	struct timespec t;

	getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru);
	*switches = ru.ru_nivcsw;
	if (children)
		return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Starts N yielders (threads in T, or processes); 0, or -1. */
static int start(int n, int processes, pthread_t *t)
{
	for (int i = 0; i < n; i++) {
		pid_t pid = processes ? fork() : 1;

		if (pid == 0) {
			yielder(NULL);
			_exit(0);
		}
		if (pid < 0 || (!processes && pthread_create(&t[i], NULL, yielder, NULL)))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4, seconds = argc > 2 ? atoi(argv[2]) : 3;
	int processes = argc > 3 && !strcmp(argv[3], "processes");
	struct timespec span = { 0, 0 };
	pthread_t t[256];
	long sw0, sw1;
	double cpu0, cpu1, calls_done;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (threads < 1 || threads > 256 || seconds < 1 || sh == MAP_FAILED)
		return 1;
	span.tv_sec = seconds;
	cpu0 = cpu_ns(processes, &sw0);
	if (start(threads, processes, t))
		return 1;
	nanosleep(&span, NULL);
	atomic_store(&sh->stop, 1);
	for (int i = 0; i < threads; i++)
		if (processes ? wait(NULL) < 0 : pthread_join(t[i], NULL) != 0)
			return 1;
	cpu1 = cpu_ns(processes, &sw1);
	calls_done = (double)atomic_load(&sh->calls);
	if (!calls_done)
		return 1;
	printf("switches_per_yield %.3f\n", (double)(sw1 - sw0) / calls_done);
	printf("cpu_ns_per_yield %.1f\n", (cpu1 - cpu0) / calls_done);
	return 0;
}
