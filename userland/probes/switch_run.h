// SPDX-License-Identifier: MIT
/*
 * Probe `switch`'s measurement (switch_run.c): one variant's ping-pong
 * between the main thread and its peer (a process or a thread, by pipe or
 * futex, on one CPU or two), timed in repetitions; switch.c picks the
 * variants and CPUs, pools the rounds and writes the records.
 */
#ifndef TP_SWITCH_RUN_H
#define TP_SWITCH_RUN_H

#include <stdint.h>

#include "switch.h"

enum sw_mech { SW_PIPE, SW_FUTEX };
enum sw_peer { SW_PROCESS, SW_THREAD };

/* What the peer counted about itself, from its start to the quit token. */
struct peer_report {
	int64_t vol_ctxsw, invol_ctxsw;
};

/* One variant: its name, mechanism, peer and whether the peer is on another CPU. */
struct switch_cfg {
	const char *name;
	enum sw_mech mech;
	enum sw_peer peer;
	int cross;			/* the peer on another CPU */
};

/* What one variant measured. */
struct switch_result {
	int cpu_main, cpu_peer;
	uint64_t rounds_per_rep;
	uint64_t counted_round_trips;	/* in the rusage window: warm-up + reps */
	struct switch_spread spread;
	int with_overhead;		/* lat_ctx is filled */
	struct switch_lat_ctx lat_ctx;
	int64_t vol_main, invol_main;
	struct peer_report peer;
	/* each repetition's round trip (us) and, with_overhead, its overhead (ns), as measured */
	double us[SWITCH_MAX_REPS], ovh_ns[SWITCH_MAX_REPS];
};

/* R's spread (and lat_ctx's, with_overhead) from its REPS repetitions US (us) and OVH_NS (ns). */
void switch_result_summarize(struct switch_result *r, double *us, double *ovh_ns, size_t reps);

/*
 * Runs CFG with the main thread on CPU_MAIN and its peer on CPU_PEER: REPS
 * repetitions of about REP_NS each into R. 0, or -errno with *WHAT naming
 * the call that failed.
 */
int switch_run(const struct switch_cfg *cfg, int cpu_main, int cpu_peer, int reps,
	       int64_t rep_ns, struct switch_result *r, const char **what);

#endif
