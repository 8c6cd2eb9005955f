// SPDX-License-Identifier: MIT
/*
 * Every probe, in the order the suite runs them: each probe's main file,
 * NAME.c, ends with its struct probe, named NAME_probe, with its options,
 * figures and key table (its other files, NAME_*.c, are helpers without
 * one); adding a probe is that file and one word in PROBES below
 * (docs/adding-a-probe.md). The fault injections (inject.c, one struct
 * probe each) come last and run only when asked for.
 */
#include <string.h>

#include "../probe.h"

#define PROBES(X) X(clocks) X(vdso_check) X(yield) X(switch) X(tsc) X(tscsync) X(counter) X(drift) X(itimer) X(wakeup) X(noise) X(hwlat)
#define INJECTIONS(X) X(crash) X(hang) X(exit) X(exit1) X(grandchild) X(flood) X(observers) X(rounds)

#define DECLARE(n) extern const struct probe n##_probe;
#define POINT(n) &n##_probe,
PROBES(DECLARE)
INJECTIONS(DECLARE)

const struct probe *const probe_table[] = { PROBES(POINT) INJECTIONS(POINT) };
const size_t probe_count = sizeof(probe_table) / sizeof(probe_table[0]);

static const struct probe *find(const char *name, int inject)
{
	for (size_t i = 0; i < probe_count; i++)
		if (probe_table[i]->inject == inject && !strcmp(probe_table[i]->name, name))
			return probe_table[i];
	return 0;
}

const struct probe *probe_find(const char *name)
{
	return find(name, 0);
}

const struct probe *probe_inject_find(const char *name)
{
	return find(name, 1);
}
