/* SPDX-License-Identifier: MIT */
/*
 * The run's bookends: the run record (what ran where), each probe's keys
 * record, the option error records, the summary table a person reads on a
 * screen without serial, and the end record with the counts. All go through
 * the sink.
 */
#ifndef TP_SUMMARY_H
#define TP_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include "options.h"
#include "suite.h"
#include "supervise.h"

struct summary_row {
	const char *name;
	int iteration;
	enum outcome out;
	unsigned long records;
	int64_t ms;
	int64_t expect_ms;	/* the probe's own estimate (progress.h), beside what it took */
};

struct busy_mark;
/* The run record; start is how busy the machine was as the run began (busy.h). */
void summary_run_record(const struct options *o, const char *env, int ncpu,
			const struct busy_mark *start);
/*
 * What every key of each probe's records is (struct probe_key): one `keys`
 * record per probe, after run and fingerprint, before any probe's record.
 * All of them together do not fit one record (TP_REC_MAX).
 */
void summary_keys_records(void);
/* An option's error record (default kept), or its warning record (taken: an old spelling set it). */
void summary_option_error(const struct opt_error *e);
/* After the verdict: every option refused so far, again, where a person
 * reading the end of the log sees it (the end record counts them). */
void summary_option_recap(void);
void summary_table(const struct summary_row *rows, size_t n, const struct suite_result *res);
/* The end record, with the other work done on the machine since start. */
void summary_end_record(const struct suite_result *res, const struct busy_mark *start, int ncpu);

#endif
