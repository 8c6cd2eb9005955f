// SPDX-License-Identifier: MIT
/*
 * An lmbench-style context-switch time, written apart from the probe so
 * tools/bench/switch-lmbench.sh can put the two side by side. It follows
 * lmbench 3's lat_ctx (bench "lat_ctx -s 0 2"):
 *
 *   1. overhead: one process passes an int token through its own pipes, a
 *      write and a read per step, cycling over the ring's pipes, no other
 *      process there (lat_ctx's benchmark_overhead());
 *   2. a ring of two processes joined by two pipes (lat_ctx's
 *      create_daemons()), the token once round it to start, then timed
 *      round trips (lat_ctx's benchmark());
 *   3. switch = round trip / 2 - overhead (lat_ctx's main():
 *      time /= procs; time -= overhead).
 *
 * Unlike lmbench, both processes are pinned to one CPU (the one given),
 * so every hand-over is a switch there, and each figure is the median of
 * REPS timed repetitions (lmbench's benchmp() also reports a median).
 *
 * usage: lat_ctx_ref CPU ROUND_TRIPS REPS
 * prints: cpu=N reps=R round_trips=N overhead_ns=X round_trip_us=Y lat_ctx_ns=Z
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPS 101

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of N values (sorts them): the middle one, or the mean of two. */
static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Reads a whole decimal number in [lo, hi] from S, or exits naming it. */
static long arg(const char *what, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "lat_ctx_ref: %s: not a number in %ld..%ld: '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return v;
}

/* N steps of write + read of the token, through p[0], then p[1], ... */
static void overhead_loop(int p[2][2], long n)
{
	int msg = 1, i = 0;

	while (n-- > 0) {
		if (write(p[i][1], &msg, sizeof(msg)) != sizeof(msg) ||
		    read(p[i][0], &msg, sizeof(msg)) != sizeof(msg)) {
			perror("lat_ctx_ref: overhead pipe");
			exit(1);
		}
		i ^= 1;
	}
}

/* N times round the ring: write to the peer, read its answer. */
static void ring_loop(int p[2][2], long n)
{
	int msg = 1;

	while (n-- > 0) {
		if (write(p[0][1], &msg, sizeof(msg)) != sizeof(msg) ||
		    read(p[1][0], &msg, sizeof(msg)) != sizeof(msg)) {
			perror("lat_ctx_ref: ring pipe");
			exit(1);
		}
	}
}

/* The peer: read from p[0], answer on p[1], until end of file. */
static void peer(int p[2][2])
{
	int msg;

	close(p[0][1]);
	close(p[1][0]);
	while (read(p[0][0], &msg, sizeof(msg)) == sizeof(msg))
		if (write(p[1][1], &msg, sizeof(msg)) != sizeof(msg))
			break;
	_exit(0);
}

int main(int argc, char **argv)
{
	double ovh[MAX_REPS], rt[MAX_REPS], ovh_ns, rt_us;
	int p[2][2], cpu, reps;
	long n;
	cpu_set_t set;
	pid_t pid;

	if (argc != 4) {
		fprintf(stderr, "usage: lat_ctx_ref CPU ROUND_TRIPS REPS\n");
		return 2;
	}
	cpu = (int)arg("CPU", argv[1], 0, CPU_SETSIZE - 1);
	n = arg("ROUND_TRIPS", argv[2], 1, 100000000);
	reps = (int)arg("REPS", argv[3], 1, MAX_REPS);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "lat_ctx_ref: sched_setaffinity(CPU %d): %s\n", cpu, strerror(errno));
		return 1;
	}
	if (pipe(p[0]) || pipe(p[1])) {
		perror("lat_ctx_ref: pipe");
		return 1;
	}
	/* 1. the overhead, as many write + read steps as the ring makes */
	overhead_loop(p, 2 * n);	/* warm-up */
	for (int i = 0; i < reps; i++) {
		double t0 = now_ns();

		overhead_loop(p, 2 * n);
		ovh[i] = (now_ns() - t0) / (double)(2 * n);
	}
	/* 2. the ring: the peer inherits the CPU */
	signal(SIGPIPE, SIG_IGN);
	pid = fork();
	if (pid < 0) {
		perror("lat_ctx_ref: fork");
		return 1;
	}
	if (pid == 0)
		peer(p);
	close(p[0][0]);
	close(p[1][1]);
	ring_loop(p, n);	/* the token once round, and warm-up */
	for (int i = 0; i < reps; i++) {
		double t0 = now_ns();

		ring_loop(p, n);
		rt[i] = (now_ns() - t0) / (double)n;
	}
	close(p[0][1]);
	waitpid(pid, 0, 0);
	/* 3. lat_ctx's arithmetic */
	ovh_ns = median_of(ovh, reps);
	rt_us = median_of(rt, reps) / 1e3;
	printf("cpu=%d reps=%d round_trips=%ld overhead_ns=%.1f round_trip_us=%.3f lat_ctx_ns=%.1f\n",
	       cpu, reps, n, ovh_ns, rt_us, rt_us * 1e3 / 2 - ovh_ns);
	return 0;
}
