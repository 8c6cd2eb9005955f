/* SPDX-License-Identifier: MIT */
/*
 * What a figure is called and how it is written in OpenMetrics text
 * (openmetrics.io, the specification; Prometheus' naming practices): the
 * one definition the export (export_openmetrics.c) and its tests share.
 * A metric name is `timeprobe_`, the probe, and the key with its unit
 * token replaced by the base unit's (ns, us, ms, s: seconds; %, ppm:
 * ratio; Hz: hertz; per_s: per_second), the value scaled to match. Names
 * come only from declarations (a probe's key table, the verdict items the
 * probes declare, keys.h), never from a record's text; label values are
 * escaped here.
 */
#ifndef TP_REPORT_OPENMETRICS_H
#define TP_REPORT_OPENMETRICS_H

#include <stdio.h>

/* Every name begins so. */
#define OM_PREFIX "timeprobe_"

/* A figure's unit as OpenMetrics has it. */
struct om_unit {
	const char *unit;	/* the declared unit ("ns", "%", "1/s"); NULL: any other */
	const char *token;	/* its word in a key ("ns", "pct", "per_s") */
	const char *suffix;	/* the base unit's, at the name's end ("seconds"); NULL: none */
	const char *om_unit;	/* for the # UNIT line; NULL: no such line */
	double scale;		/* base = declared x scale */
};

/* The row of a declared unit; a row with unit NULL (scale 1, no suffix) for any other. */
const struct om_unit *om_unit_of(const char *unit);

/*
 * The metric name of probe's key with unit: OM_PREFIX, probe and key as
 * [a-z0-9_] words, the unit's token dropped from the key and its suffix
 * put at the end; "_value" after a name that would end in a suffix
 * OpenMetrics keeps for other types' samples (_total, _count, _sum...).
 * Caller frees.
 */
char *om_metric_name(const char *probe, const char *key, const char *unit);

/* s as a label name: [a-zA-Z0-9_], not beginning with a digit or "__". Caller frees. */
char *om_label_name(const char *s);

/*
 * s between a label value's quotes: \ " and newline escaped (\\ \" \n),
 * other control characters and bytes that are no well-formed UTF-8 as
 * U+FFFD (OpenMetrics text is UTF-8).
 */
void om_label_value(FILE *f, const char *s);

/* s as a # HELP line's text: \ and newline escaped, the rest as om_label_value. */
void om_help_text(FILE *f, const char *s);

/* v in its shortest form that reads back as the same double (finite only). */
void om_number(FILE *f, double v);

/* An RFC 3339 UTC time ("2026-12-03T13:22:41Z") as seconds since 1970; -1 if not one. */
long long om_time(const char *s);

#endif
