// SPDX-License-Identifier: MIT
/*
 * The migrations counters (userland/migrations.h) across the joint they
 * exist for: a child that moves itself between two CPUs
 * (sched_setaffinity: each move is a migration) shows up in the machine's
 * count the parent reads, and a child that called
 * migrations_close_inherited() reads none (its copies closed) while the
 * parent's go on. Skipped where the kernel or its
 * perf_event_paranoid refuses the counters, or with one CPU.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../userland/migrations.h"
#include "tap.h"

#define MOVES 20

/* Two CPUs this process may run on; 0 when there are not two. */
static int two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			*(n++ ? b : a) = c;
	return n == 2;
}

static void hop(int a, int b)
{
	for (int i = 0; i < MOVES; i++) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(i % 2 ? b : a, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			_exit(1);
		sched_yield();
	}
	_exit(0);
}

int main(void)
{
	uint64_t before, after;
	int a, b, rc = migrations_open(), st = 0;
	pid_t pid;

	if (rc || !two_cpus(&a, &b)) {
		tap_skip_all(rc ? migrations_why(rc) : "fewer than two CPUs to move between");
		return 0;
	}
	is_int(migrations_open(), 0, "a second open returns the first's result");
	ok(!migrations_read(&before), "the count reads");
	pid = fork();
	if (pid == 0)
		hop(a, b);
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	   "a child moved itself between CPU %d and CPU %d %d times", a, b, MOVES);
	ok(!migrations_read(&after), "the count reads after it exited");
	ok(after - before >= MOVES - 1, "the child's migrations arrive in the machine's count: %llu",
	   (unsigned long long)(after - before));
	pid = fork();
	if (pid == 0) {
		uint64_t n;

		migrations_close_inherited();
		_exit(migrations_read(&n) == -EBADF ? 0 : 1);
	}
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	   "a forked child's copies are closed by migrations_close_inherited() "
	   "(tests/host/attribution.t reads a probe's fd table)");
	ok(!migrations_read(&after), "the parent's count still reads");
	return tap_done();
}
