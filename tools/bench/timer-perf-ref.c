// SPDX-License-Identifier: MIT
/*
 * A timer-perf-style reference for probe `itimer` (tools/bench/itimer-seed.sh).
 * Written from the method of seed 000 (timer-perf.c, 2008), not from the
 * probe: arm setitimer(), read the claimed interval back with getitimer(),
 * spin in user mode counting signals in the handler, and divide the
 * process's CPU time (getrusage(RUSAGE_SELF), user + system) from arming
 * to the last signal by the number of signals. With LOAD processes spinning
 * in the background, as the seed's parallel runs.
 *
 *   timer-perf-ref LOAD SECONDS US...
 *
 * ITIMER_REAL for each US, then ITIMER_VIRTUAL for each (the seed's order,
 * and the probe's), one line each:
 *   TIMER requested claimed actual_us signals cpu_us wall_us
 * measured for at least SECONDS of wall time, ending at a signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LOAD 1024

static volatile sig_atomic_t count;
static volatile uint64_t dummy;

static void on_signal(int sig)
{
	(void)sig;
	count++;
}

static double cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static double wall_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* Spins until COUNT reaches N; a few thousand iterations between looks. */
static void spin_until(sig_atomic_t n)
{
	while (count < n)
		for (int i = 0; i < 4096; i++)
			dummy++;
}

static int run(const char *name, int which, long us, double secs)
{
	struct itimerval on = { { us / 1000000, us % 1000000 }, { us / 1000000, us % 1000000 } };
	struct itimerval got, off = { { 0, 0 }, { 0, 0 } };
	double c0, w0, c1, w1;
	sig_atomic_t n;

	count = 0;
	c0 = cpu_us();
	w0 = wall_us();
	if (setitimer(which, &on, 0) < 0 || getitimer(which, &got) < 0) {
		fprintf(stderr, "timer-perf-ref: setitimer(%s, %ld us): %s\n", name, us, strerror(errno));
		return -1;
	}
	/* at least SECS of wall time, then up to the next signal */
	while (wall_us() - w0 < secs * 1e6)
		spin_until(count + 1);
	n = count;
	spin_until(n + 1);
	c1 = cpu_us();
	w1 = wall_us();
	setitimer(which, &off, 0);
	n = count;
	printf("%s %ld %ld %.3f %d %.0f %.0f\n", name, us,
	       (long)(got.it_interval.tv_sec * 1000000 + got.it_interval.tv_usec), (c1 - c0) / n, (int)n,
	       c1 - c0, w1 - w0);
	fflush(stdout);
	return 0;
}

static pid_t start_burner(void)
{
	pid_t parent = getpid(), p = fork();

	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		for (;;)
			dummy++;
	}
	return p;
}

int main(int argc, char **argv)
{
	static pid_t burner[MAX_LOAD];
	char *end;
	long load = argc > 2 ? strtol(argv[1], &end, 10) : -1;
	char *send;
	double secs = argc > 2 ? strtod(argv[2], &send) : 0;
	int rc = 0, nb = 0;

	if (argc < 4 || load < 0 || load > MAX_LOAD || *end || *send || !(secs > 0 && secs < 3600)) {
		fprintf(stderr, "usage: timer-perf-ref LOAD(0..%d) SECONDS US...\n", MAX_LOAD);
		return 2;
	}
	signal(SIGALRM, on_signal);
	signal(SIGVTALRM, on_signal);
	for (; nb < load; nb++)
		if ((burner[nb] = start_burner()) < 0) {
			fprintf(stderr, "timer-perf-ref: fork: %s\n", strerror(errno));
			rc = 1;
			break;
		}
	for (int i = 3; i < argc && !rc; i++) {
		long us = strtol(argv[i], &end, 10);

		if (*end || us < 1 || us > 10000000) {
			fprintf(stderr, "timer-perf-ref: bad interval '%s' (1..10000000 us)\n", argv[i]);
			rc = 2;
		}
	}
	for (int t = 0; t < 2 && !rc; t++)
		for (int i = 3; i < argc && !rc; i++)
			if (run(t ? "ITIMER_VIRTUAL" : "ITIMER_REAL", t ? ITIMER_VIRTUAL : ITIMER_REAL,
				strtol(argv[i], 0, 10), secs))
				rc = 1;
	for (int i = 0; i < nb; i++)
		kill(burner[i], SIGKILL);
	while (wait(0) > 0 || errno == EINTR)
		;
	return rc;
}
