// SPDX-License-Identifier: MIT
/*
 * The traced-child check (userland/trace_entry.h): a child that makes known
 * system calls gets exactly those time system calls counted, per item
 * between its markers; one that dies is an error, not a count. Then every
 * clock id through this process's vDSO, as the fingerprint asks.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../../userland/trace_entry.h"
#include "tap.h"

#define CALLS 3

/* item 0: clock_gettime; 1: nothing; 2: gettimeofday; 3: getpid, not a time call */
static void read_item(void *arg, size_t i)
{
	struct timespec ts;
	struct timeval tv;

	(void)arg;
	if (i == 0)
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	else if (i == 2)
		syscall(SYS_gettimeofday, &tv, 0);
	else if (i == 3)
		syscall(SYS_getpid);
}

static void die(void *arg, size_t i)
{
	(void)arg, (void)i;
	raise(SIGKILL);
}

/* Every clock id through the vDSO's own entry: whatever the clocksource,
 * the CPU-time clocks always enter the kernel and the coarse ones never
 * (Linux's lib/vdso/gettimeofday.c). */
static void test_clocks(void)
{
	int k[TRACE_MAX_CLOCK_ID + 1];

	is_str(trace_clock_name(CLOCK_MONOTONIC), "CLOCK_MONOTONIC", "clock id 1 is named");
	ok(!trace_clock_name(10) && !trace_clock_name(-1) && !trace_clock_name(TRACE_MAX_CLOCK_ID + 1),
	   "no name for id 10 (gone), -1 or past the last id");
	trace_clocks_enter_kernel(k);
	if (!getauxval(AT_SYSINFO_EHDR)) {
		is_int(k[CLOCK_MONOTONIC], -ENOENT, "no vDSO mapped: -ENOENT");
		return;
	}
	is_int(k[CLOCK_PROCESS_CPUTIME_ID], 1, "CLOCK_PROCESS_CPUTIME_ID through the vDSO enters the kernel");
	is_int(k[CLOCK_MONOTONIC_COARSE], 0, "CLOCK_MONOTONIC_COARSE through the vDSO stays in user space");
	is_int(k[10], -ENOSYS, "id 10 is not read");
}

int main(void)
{
	uint64_t count[4] = { 9, 9, 9, 9 };
	int rc = trace_time_syscalls(read_item, 0, 4, CALLS, count);

	if (rc == -EPERM) {
		printf("1..0 # SKIP this machine refuses tracing a child\n");
		return 0;
	}
	is_int(rc, 0, "four items traced");
	is_int(count[0], CALLS, "clock_gettime syscalls counted, one per call");
	is_int(count[1], 0, "an item with no system call: 0");
	is_int(count[2], CALLS, "gettimeofday syscalls counted");
	is_int(count[3], 0, "getpid is not a time system call");
	is_int(trace_time_syscalls(die, 0, 1, 1, count), -ECHILD, "a child that dies: -ECHILD");
	test_clocks();
	return tap_done();
}
