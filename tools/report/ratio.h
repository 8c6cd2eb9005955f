/* SPDX-License-Identifier: MIT */
/*
 * How one figure compares between run r and the first run, before any
 * threshold: whether it may lead at all, and its ratio. The lead (lead.c)
 * judges these against the noise floors (noise.c), which were measured by
 * the same ratio (gen/floors_gen.c); this file calls neither.
 */
#ifndef TP_REPORT_RATIO_H
#define TP_REPORT_RATIO_H

#include "keys.h"
#include "model.h"

/*
 * |log(ratio)| of fg in run r to run 0 as the lead compares it, before any
 * threshold: the means, or for an attribution count the smaller of its
 * rate per second and its count; a count that is 0 in one run as if it
 * were one event there (|log(n)|); NAN where fg does not compare by ratio
 * (not a figure, a fact shown elsewhere, signed, missing in a run, or 0
 * and not a count).
 */
double ratio_log(const struct report *rp, const struct figure *fg, size_t r);

/*
 * May fg lead at all: a figure (not a budget), not a fact another figure
 * shows, not measured against a reference that depends on it.
 */
int ratio_may_lead(const struct report *rp, const struct figure *fg);

/* Is d's unit "count"? */
int ratio_is_count(const struct key_decl *d);

/*
 * An attribution count in run r as *per_s events per second of the probe's
 * run and *events over every iteration; 0 when the run lacks the count or
 * its ran_ms.
 */
int ratio_attribution_rate(const struct report *rp, const struct figure *fg, size_t r,
			   double *per_s, double *events);

/*
 * An attribution count's |log(ratio)| in run r to run 0: the smaller of
 * its rate per second and its count when both go the same way, else NAN.
 * *n and *base_n: the events over every iteration.
 */
double ratio_attribution_log(const struct report *rp, const struct figure *fg, size_t r,
			     double *n, double *base_n);

#endif
