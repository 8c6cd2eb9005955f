/* SPDX-License-Identifier: MIT */
/*
 * The injected skew (common/skew.h) as the suite's options hold it: the
 * last well-formed `skew:REF:PPM` item of timeprobe.inject=, for probe
 * `drift` (which reads REF that much fast), selection.c (which runs no
 * probe for it) and the readiness record (which says it was injected).
 */
#ifndef TP_SKEWOPT_H
#define TP_SKEWOPT_H

#include "../common/skew.h"
#include "options.h"

/* 1 and *k when timeprobe.inject= holds a skew; 0 and k->ref "" when not. */
int skewopt_get(const struct options *o, struct tp_skew *k);

/* 1 when one item of timeprobe.inject= is a well-formed skew (not a probe's name). */
int skewopt_is_item(const char *item);

#endif
