/* SPDX-License-Identifier: MIT */
/*
 * PID 1's side of the stub's file (common/stubfile.h): every line checked
 * as a TP1 record (its CRC), the good ones kept for the results file as
 * they stand (the stub printed them already: not written again), and the
 * stub's figures typed into one struct stub_handoff (stubvals.h): its
 * values from its stub_handoff record, the calibration from its `calib`
 * records, the per-CPU figures from its per-CPU records, the only place
 * the suite takes them from. Anything else wrong in the file is an error
 * record. Tested by tests/unit/test_stubread.c and test_handoff.c.
 */
#ifndef TP_STUBREAD_H
#define TP_STUBREAD_H

#include <stddef.h>

#include "options.h"
#include "stubvals.h"

struct stubfile_report {
	int found;		/* the file was there */
	unsigned int records;	/* lines that are whole records */
	unsigned int refused;	/* lines that are not */
	unsigned int values;	/* stub_handoff keys taken */
};

/*
 * The file's text: records kept through keep() (NULL: not kept), figures
 * into *st anew (its cpus kept, when the caller gave room); *rep anew.
 */
void stubfile_apply(struct stub_handoff *st, const char *text, size_t len, struct opt_errors *errs,
		    void (*keep)(const char *line, size_t len), struct stubfile_report *rep);

/* Reads TP_STUB_FILE_PATH (none: nothing, rep->found 0) and applies it, kept in the sink. */
void stubfile_read(struct stub_handoff *st, struct opt_errors *errs, struct stubfile_report *rep);

#endif
