/* SPDX-License-Identifier: MIT */
/*
 * The suite: selects the probes (selection.c), runs each under the
 * supervisor (supervise.c) with a time limit, every line through the sink
 * (sink.c), and ends with the summary (summary.c).
 */
#ifndef TP_SUITE_H
#define TP_SUITE_H

#include "options.h"
#include "stubvals.h"

struct suite_result {
	int ok, skipped, failed;
	int watchdog_fired;
	int stop_signal;	/* SIGINT, SIGTERM, SIGHUP or SIGQUIT ended the run (host) */
	int write_error;	/* errno of a failed write on stdout (host) */
};

/* On a host: SIGINT, SIGTERM, SIGHUP and SIGQUIT stop the current probe and
 * end the run (its error and end records written). */
void suite_catch_signals(void);

/*
 * Runs the suite. errs are the option errors found so far, reported as
 * error records after the run record. Returns the host command's exit
 * status: 0 every probe ok or skipped, 1 a probe failed or stdout (or the
 * records file) could not be written, 128 + signal when stopped by one of
 * suite_catch_signals()'s.
 */
int suite_run(const struct options *o, const struct stub_handoff *stub,
	      const struct opt_errors *errs, int appliance, const char *env,
	      struct suite_result *res);

#endif
