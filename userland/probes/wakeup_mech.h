// SPDX-License-Identifier: MIT
/*
 * Probe `wakeup`'s mechanisms (wakeup_mech.c): every way Linux offers to
 * wait for a time, each measuring its samples' latencies; the probe
 * (wakeup.c) sets up, runs them in rounds and writes their records.
 */
#ifndef TP_WAKEUP_MECH_H
#define TP_WAKEUP_MECH_H

#include <stddef.h>
#include <stdint.h>

struct wcfg {
	int64_t period_ns;
	size_t samples;
	int64_t wall_cap_ns;	/* stop early after this much wall time */
};

struct wout {
	int64_t *lat;		/* samples, caller-owned */
	size_t n;
	uint64_t overruns;
	int stopped_early;
};

/* A mechanism: 0 measured, 1 skipped (why says so), -errno failed. */
struct mech {
	const char *name;
	int absolute;
	int (*run)(const struct wcfg *c, struct wout *o, char *why, size_t whylen);
	const char *clock;	/* the clock waited on */
};

/* Every mechanism, in the order the probe measures and prints them. */
#define WAKEUP_NMECH 16
extern const struct mech wakeup_mechs[WAKEUP_NMECH];

#endif
