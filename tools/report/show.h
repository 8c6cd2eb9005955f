/* SPDX-License-Identifier: MIT */
/*
 * How each probe's results are shown, as the probe declares it
 * (common/show.h, struct probe's show): the built-in copy, made at build
 * time from the probes' own declarations (tools/report/gen/keys_gen.c).
 * tp-report names no probe: it finds a probe's table layout, series plot
 * and the default clock's figure here.
 */
#ifndef TP_REPORT_SHOW_H
#define TP_REPORT_SHOW_H

#include "../../common/show.h"

struct show_of {
	const char *probe;
	struct show_decl d;
};

/* Every probe that declares any of it, in the suite's order; a NULL probe ends it. */
extern const struct show_of show_builtin[];

/* What probe declares, or NULL: nothing. */
const struct show_decl *show_find(const char *probe);

/* The probe whose figure is the default clock's cost, and that figure; NULL: none. */
const struct show_of *show_default_clock(void);

#endif
