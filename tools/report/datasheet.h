/* SPDX-License-Identifier: MIT */
/*
 * `tp-report --datasheet=FILE`: one small JSON file of a run's timing
 * facts for other software (docs/datasheet.md): the TSC's frequency in
 * kHz and its uncertainty, the ordering bound across CPUs, the drift
 * against each independent reference, each reference's read cost, the
 * tsc=reliable answer, and for every value the record it came from. The
 * first run of the first file; written to a temporary name and renamed.
 */
#ifndef TP_REPORT_DATASHEET_H
#define TP_REPORT_DATASHEET_H

/* 0, or 1 after a message on stderr (nothing written). */
int datasheet_write(const char *out, const char *log, unsigned long long max_input);

#endif
