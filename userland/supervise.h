/* SPDX-License-Identifier: MIT */
/*
 * The one supervisor: runs a function in a child process in its own process
 * group with a deadline, hands each line the child writes to a callback,
 * waits for the child (not for its output to close), kills whatever the
 * child left behind, and says how it ended. While the child runs it
 * sleeps until the child writes or exits (a pidfd), or a deadline or a
 * tick is due: no periodic wake-up on a CPU the child measures. Used by the suite for each probe
 * and for the fingerprint, and by the clocks probe for each clocksource of
 * its sweep.
 */
#ifndef TP_SUPERVISE_H
#define TP_SUPERVISE_H

#include <stddef.h>
#include <stdint.h>

/* Exit codes of a supervised function: 0 ok, these two, anything else is a fault. */
#define SUP_EXIT_SKIPPED 77	/* nothing to measure here; a skip record says why */
#define SUP_EXIT_FAILED 78	/* failed; the child's error record says why */

enum outcome {
	OUTCOME_OK,
	OUTCOME_SKIPPED,
	OUTCOME_FAILED,		/* exited SUP_EXIT_FAILED */
	OUTCOME_EXIT,		/* exited with another status */
	OUTCOME_SIGNAL,		/* killed by a signal it did not ask for */
	OUTCOME_TIMEOUT,		/* over its deadline: killed */
	OUTCOME_WATCHDOG,		/* over the whole run's deadline: killed */
	OUTCOME_STOPPED,		/* stop() asked for it: killed */
	OUTCOME_NOSTART,		/* pipe or fork failed */
};

struct sup_job {
	int (*fn)(void *arg);	/* runs in the child; returns its exit code */
	void *arg;
	int64_t deadline_ns;	/* CLOCK_MONOTONIC; 0: none */
	int64_t watchdog_ns;	/* the run's deadline; 0: none */
	/* Each line of the child's stdout (with '\n'); NULL: the child inherits stdout. */
	void (*line)(const char *line, size_t len);
	/* Looked at whenever the supervisor wakes (a line, a tick, a signal,
	 * which interrupts its wait): nonzero stops the child (e.g. SIGINT seen). */
	int (*stop)(void);
	/* Called at once and then when due (progress lines): returns when it is
	 * next due (CLOCK_MONOTONIC ns), 0: never again. NULL: none. */
	int64_t (*tick)(void *arg, int64_t now_ns);
	void *tick_arg;
};

struct sup_result {
	enum outcome out;
	int status;		/* OUTCOME_EXIT: exit status; OUTCOME_SIGNAL: signal; OUTCOME_NOSTART: errno */
	int leftovers;		/* processes it left behind, killed after it ended */
	int64_t ran_ns;
};

void supervise_run(const struct sup_job *job, struct sup_result *res);

/* Makes this process the reaper of its descendants' orphans (done once). */
void supervise_init(void);

/* A word for an outcome: "ok", "skipped", "failed", "exit", ... */
const char *supervise_outcome_name(enum outcome o);

#endif
