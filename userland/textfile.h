/* SPDX-License-Identifier: MIT */
/*
 * `timeprobe run --openmetrics=FILE` (docs/fleet.md): after the run, its
 * own records through tp-report, the one writer of OpenMetrics, into FILE
 * for node_exporter's textfile collector. tp-report writes a temporary
 * file beside FILE and renames it, so the collector never reads half of it.
 */
#ifndef TP_TEXTFILE_H
#define TP_TEXTFILE_H

#include <stddef.h>

/* tp-report beside self (argv[0]), else the name for a PATH search. */
void textfile_report_path(const char *self, char *path, size_t n);

/*
 * The records file for a run with --openmetrics=file and no --records:
 * FILE.records-PID beside it (not *.prom: the collector skips it).
 */
void textfile_records_name(const char *file, char *path, size_t n);

/*
 * Runs tp-report --textfile=file on records and waits. 0, or -1 after one
 * line on stderr naming what failed; the records are kept then.
 */
int textfile_write(const char *self, const char *records, const char *file);

#endif
