/* SPDX-License-Identifier: MIT */
/*
 * Output of a probe: machine records (TP1) and human lines, both on stdout,
 * each record flushed as it ends. In a suite run each probe's stdout is a
 * pipe read by the parent, whose sink (sink.c) counts the records and keeps
 * them within its caps.
 */
#ifndef TP_EMIT_H
#define TP_EMIT_H

#include <stdint.h>
#include "../common/record.h"
#include "../common/recdecl.h"

/*
 * The one context field, set by the suite for each iteration: every record
 * of this process carries "iteration":ITERATION after "type" while
 * ITERATION > 0.
 */
void emit_set_context(int iteration);
/*
 * The round a probe's child writes (docs/records.md, "Rounds"): while
 * ROUND > 0 every record carries "round":ROUND after the context fields and
 * human lines are not written (a person reads the run's table, written
 * once, by the last round). The suite sets it in each round's child; the
 * last round sets 0 before it writes the run's records.
 */
void emit_set_round(int round);

/* Begins a record of TYPE with the context fields; finish with emit_end(). */
void emit_begin(struct tp_rec *r, const char *type);
/* Begins {"type":"result","probe":PROBE,"name":NAME,... */
void emit_result_begin(struct tp_rec *r, const char *probe, const char *name);
/* Finishes and writes the record; on overflow writes an error record instead. */
void emit_end(struct tp_rec *r);

/* A double printed with "%.9g" (at most 9 significant digits), NaN/inf as null. */
void emit_rec_double(struct tp_rec *r, const char *key, double v);
/*
 * A value whose relative precision matters (Hz, ticks, ppm): the fewest
 * significant digits, 9 to 17, that read back as the same double, so a TSC
 * frequency is not cut to 10 Hz. Non-finite: null.
 */
void emit_rec_exact(struct tp_rec *r, const char *key, double v);

/* One-call helpers for the common cases. */
void emit_skip(const char *probe, const char *name, const char *reason);
void emit_error(const char *probe, const char *name, const char *reason);

/* Human output (tables): printf to stdout; nothing while a round is set. */
void emit_human(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key emit_rec_keys[];

#endif
