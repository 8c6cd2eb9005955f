/* SPDX-License-Identifier: MIT */
/*
 * The one output sink of the suite process: every line, the parent's own
 * and each probe's, goes to every console through here; TP1 records are
 * counted and kept for the results file, within caps so that a probe that
 * floods cannot grow PID 1 without bound. See sink.c.
 */
#ifndef TP_SINK_H
#define TP_SINK_H

#include <stddef.h>
#include <stdint.h>
#include "../common/record.h"

/* Records kept (bytes of record lines) per probe and per run. */
#define SINK_PROBE_CAP (4u << 20)
#define SINK_RUN_CAP (32u << 20)

/*
 * Output descriptors (the appliance's consoles); stdout if none. fatal: a
 * write error stops the run (a host command whose stdout is the result);
 * otherwise it is ignored (PID 1: a console that went away must not stop
 * the run, the others and the results file still get everything).
 */
void sink_set_outputs(const int *fds, size_t n, int fatal);
/*
 * What an output gets: human lines, records (TP1 lines), or both. A host
 * on a terminal shows the human lines there and writes the records to a
 * file (main.c, README "Under a full OS"); sink_set_outputs() gives both.
 */
#define SINK_HUMAN 1u
#define SINK_RECORDS 2u
void sink_set_output_kinds(int fd, unsigned what);
/* One more output (a records file); -1 when there is no room. */
int sink_add_output(int fd, unsigned what);

/*
 * Where progress lines go: fd -1 (the default), every output as human
 * lines (the appliance's consoles: plain lines, the serial log keeps
 * them); else that descriptor alone, in place (each line replaces the last
 * with '\r', and is wiped before any other output) when inplace.
 */
void sink_set_progress(int fd, int inplace);
int sink_progress_inplace(void);
/* A progress line without its '\n': in place unless keep, or a plain line. */
void sink_progress(const char *text, int keep);
/* Wipes an in-place line (the end of a probe). */
void sink_progress_done(void);

/* For tests: smaller caps. */
void sink_set_caps(size_t probe_bytes, size_t run_bytes);

/* One line with its '\n' to every output; a record is counted and kept within the caps. */
void sink_line(const char *line, size_t len);
/* A record line kept for the results file but written to no output (the stub's own). */
void sink_keep(const char *line, size_t len);
/* The parent's own records (kept whatever the caps) and human lines. */
void sink_emit(struct tp_rec *r);
void sink_human(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Starts counting one probe's records; the end says how many were not kept. */
void sink_probe_begin(void);
unsigned long sink_probe_dropped(void);

/* errno of the first failed write on a fatal output, else 0. */
int sink_write_error(void);

unsigned long sink_records(void);	/* records written */
uint64_t sink_first_result_tsc(void);	/* the TSC when the first result record passed; 0: none */
unsigned long sink_dropped(void);	/* of those, not kept */
const char *sink_saved(size_t *len);	/* the kept record lines */

#endif
