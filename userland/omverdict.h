/* SPDX-License-Identifier: MIT */
/*
 * The appliance's headline figures as OpenMetrics text for a Pushgateway
 * (timeprobe.push=, docs/lab.md): the appliance carries no tp-report, the
 * one full OpenMetrics writer, so PID 1 writes the verdict's items itself,
 * under the names and base units tp-report's --textfile gives them
 * (tools/report/openmetrics.c: `timeprobe_verdict_<key>` with its unit word
 * replaced by the base unit, the value scaled), no labels and no
 * timestamps: the Pushgateway adds job and instance. tests/boot/69-net-upload.t
 * checks every name against tp-report's on the same run.
 */
#ifndef TP_OMVERDICT_H
#define TP_OMVERDICT_H

#include <stddef.h>

/*
 * The verdict record's items with a number found in records[0..len), as
 * "# TYPE name gauge" and "name value" lines into out (at most n bytes,
 * NUL-terminated). The text's length; 0 when there is no verdict.
 */
size_t omverdict_text(const char *records, size_t len, char *out, size_t n);

#endif
