/* SPDX-License-Identifier: MIT */
/* The suite: runs each probe in its own child with a time limit. */
#ifndef TP_SUITE_H
#define TP_SUITE_H

#include <stddef.h>
#include "options.h"

struct suite_result {
	int ok, skipped, failed;
	unsigned long records;		/* records written before the end record */
	char *saved;			/* every record line, for the results file */
	size_t saved_len, saved_cap;
	int watchdog_fired;
};

/* Extra output descriptors (the appliance's consoles). stdout if none. */
void suite_set_outputs(const int *fds, size_t n);

/* Writes one line (with its '\n') to every output; records are counted and kept. */
void suite_line(struct suite_result *res, const char *line, size_t len);

/*
 * Runs the suite. errs are the option errors found so far, reported as
 * error records after the run record. Returns 0 when every probe ran
 * (whether ok, skipped or failed), 2 on bad usage found here.
 */
int suite_run(const struct options *o, const struct opt_errors *errs, int appliance,
	      const char *env, struct suite_result *res);

#endif
