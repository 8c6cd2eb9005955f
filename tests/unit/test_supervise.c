// SPDX-License-Identifier: MIT
/*
 * The supervisor against children that end every way a probe can: each
 * outcome is an enum, output lines arrive whole, a setsid() grandchild that
 * holds the pipe neither delays the result nor survives it; while a silent
 * child runs the supervisor does not wake (its voluntary context switches,
 * RUSAGE_THREAD: each wait it blocks in is one), and a tick that asks for no
 * more is called once.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tap.h"
#include "../../userland/supervise.h"
#include "../../userland/timeutil.h"

static char got[4096];
static size_t got_len;
static int lines, stop_now;

static void collect(const char *line, size_t len)
{
	if (got_len + len < sizeof(got)) {
		memcpy(got + got_len, line, len);
		got_len += len;
	}
	lines++;
}

static int stop(void)
{
	return stop_now;
}

static int c_ok(void *a) { printf("one\ntw"); fflush(stdout); printf("o\n"); return 0; }
static int c_skip(void *a) { return SUP_EXIT_SKIPPED; }
static int c_fail(void *a) { return SUP_EXIT_FAILED; }
static int c_exit1(void *a) { exit(1); }
static int c_segv(void *a) { raise(SIGSEGV); return 0; }
static int c_hang(void *a) { while (1) pause(); return 0; }
static int c_partial(void *a) { printf("cut"); fflush(stdout); raise(SIGKILL); return 0; }
static int c_quiet(void *a) { struct timespec t = { 0, 500000000 }; nanosleep(&t, 0); return 0; }

static int ticks;

static int64_t tick_once(void *arg, int64_t now_ns)
{
	ticks++;
	return 0;
}

/* The supervisor's voluntary switches while a child sleeps 500 ms silently:
 * a wait woken every 50 ms would block 10 times; one on the child's exit
 * (its pidfd, and its pipe's hang-up) twice at most. */
static long quiet_wakeups(void)
{
	struct sup_job job = { .fn = c_quiet, .line = collect, .stop = stop, .tick = tick_once,
			       .deadline_ns = mono_ns() + 20 * NS_PER_S,
			       .watchdog_ns = mono_ns() + 30 * NS_PER_S };
	struct rusage before, after;
	struct sup_result r;

	getrusage(RUSAGE_THREAD, &before);
	supervise_run(&job, &r);
	getrusage(RUSAGE_THREAD, &after);
	return r.out == OUTCOME_OK ? after.ru_nvcsw - before.ru_nvcsw : -1;
}

/* Leaves a grandchild in a session of its own that holds stdout, and ends well. */
static int c_grandchild(void *a)
{
	fflush(stdout);
	if (fork() == 0) {
		setsid();
		for (;;)
			pause();
	}
	printf("parent done\n");
	return 0;
}

static struct sup_result run(int (*fn)(void *), int64_t limit_ms)
{
	struct sup_job job = { .fn = fn, .line = collect, .stop = stop };
	struct sup_result r;

	got_len = 0;
	lines = 0;
	job.deadline_ns = limit_ms ? mono_ns() + limit_ms * NS_PER_MS : 0;
	supervise_run(&job, &r);
	got[got_len] = 0;
	return r;
}

int main(void)
{
	struct sup_result r;

	supervise_init();
	r = run(c_ok, 5000);
	is_int(r.out, OUTCOME_OK, "exit 0 is ok");
	is_str(got, "one\ntwo\n", "output arrives in whole lines");
	is_int(lines, 2, "two lines");
	is_int(run(c_skip, 5000).out, OUTCOME_SKIPPED, "the skip code is skipped");
	is_int(run(c_fail, 5000).out, OUTCOME_FAILED, "the failed code is failed");
	r = run(c_exit1, 5000);
	ok(r.out == OUTCOME_EXIT && r.status == 1, "exit 1 is an exit with status 1, not a skip");
	r = run(c_segv, 5000);
	ok(r.out == OUTCOME_SIGNAL && r.status == SIGSEGV, "SIGSEGV is a signal outcome");
	r = run(c_hang, 300);
	is_int(r.out, OUTCOME_TIMEOUT, "a hang is a timeout");
	printf("# timeout after %lld ms (limit 300)\n", (long long)(r.ran_ns / NS_PER_MS));
	r = run(c_partial, 5000);
	is_str(got, "cut\n", "a cut line is ended with a newline");

	r = run(c_grandchild, 20000);
	is_int(r.out, OUTCOME_OK, "a grandchild holding stdout does not turn ok into a timeout");
	is_int(r.leftovers, 1, "the grandchild is found and killed");
	printf("# grandchild case took %lld ms (limit 20000)\n", (long long)(r.ran_ns / NS_PER_MS));

	{
		struct sup_job job = { .fn = c_hang, .line = collect, .stop = stop,
				       .deadline_ns = mono_ns() + 10 * NS_PER_S,
				       .watchdog_ns = mono_ns() + 200 * NS_PER_MS };

		supervise_run(&job, &r);
		is_int(r.out, OUTCOME_WATCHDOG, "the run's deadline first: watchdog, not timeout");
	}
	stop_now = 1;
	is_int(run(c_hang, 10000).out, OUTCOME_STOPPED, "stop() stops the child");
	stop_now = 0;
	{
		struct sup_job job = { .fn = c_skip };

		supervise_run(&job, &r);
		is_int(r.out, OUTCOME_SKIPPED, "without a line callback the child inherits stdout");
	}
	{
		long w = quiet_wakeups();

		ok(w >= 0 && w <= 4, "a silent child: the supervisor blocked %ld times in 500 ms "
		   "(no periodic wake-up)", w);
		is_int(ticks, 1, "a tick that returns 0 is called once");
	}
	is_str(supervise_outcome_name(OUTCOME_WATCHDOG), "watchdog", "outcome names");
	return tap_done();
}
