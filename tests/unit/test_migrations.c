// SPDX-License-Identifier: MIT
/*
 * The migrations counter (userland/migrations.h) across the joint it
 * exists for: a child forked after migrations_open() that moves itself
 * between two CPUs (sched_setaffinity: each move is a migration) shows up
 * in the parent's count once it has exited. Skipped where the kernel or
 * its perf_event_paranoid refuses the counter, or with one CPU.
 */
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
	ok(after - before >= MOVES - 1, "the child's migrations arrive in the parent's count: %llu",
	   (unsigned long long)(after - before));
	return tap_done();
}
