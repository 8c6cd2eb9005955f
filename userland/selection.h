/* SPDX-License-Identifier: MIT */
/* Which probes a run runs, in registry order; see selection.c. */
#ifndef TP_SELECTION_H
#define TP_SELECTION_H

#include <stddef.h>
#include "options.h"
#include "probe.h"

/*
 * Fills list (room for max) with the probes named by o->probes (all when
 * none), then the fault injections named by o->inject. A name that is not
 * there gets an option error record; if no name in o->probes was valid,
 * every probe runs rather than none. Returns the count.
 */
size_t selection_probes(const struct options *o, const struct probe **list, size_t max);

/* NULL when every name in o->probes and o->inject is known; else the first bad one. */
const char *selection_unknown(const struct options *o, const char **which);

/* Why bad is no probe (which "probes") or no fault injection ("inject"),
 * with the near misses among the registry's names; in buf[len]. */
const char *selection_why(const char *which, const char *bad, char *buf, size_t len);

/* "not one of crash, hang, ...", from the registry. */
const char *selection_inject_names(void);

#endif
