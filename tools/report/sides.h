/* SPDX-License-Identifier: MIT */
/*
 * Several runs a side (docs/comparing.md): runs that --label gave one
 * label (--label=vm,vm,vm,metal,metal,metal) are one side of the lead.
 * Each run's mean of a figure is one sample of its side, so the lead
 * judges the spread between runs, not between iterations of one run.
 */
#ifndef TP_REPORT_SIDES_H
#define TP_REPORT_SIDES_H

#include "model.h"

/*
 * When some label names two or more runs of rp: fills out with one run per
 * label, in the order of its first run, each a copy of that first run
 * (shared, not owned: results, records, fingerprint) labelled with the
 * label and with members, its runs' count; and rp's figures, each with one
 * agg per side over its runs' means (n: the runs that have it). Returns 1;
 * 0 (out untouched) when every label names one run.
 */
int sides_build(const struct report *rp, struct report *out);

/* Frees what sides_build() allocated, not what it shares with rp. */
void sides_free(struct report *out);

#endif
