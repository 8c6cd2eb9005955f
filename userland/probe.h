/* SPDX-License-Identifier: MIT */
/*
 * A probe: one file under userland/probes/, one row in probes/registry.c.
 * It is told what to do (struct probe_ctx), measures, and writes its records
 * and human table through emit.h. The suite runs each probe in a child
 * process with a time limit, so a probe may block, crash or exit: the suite
 * notices and goes on.
 */
#ifndef TP_PROBE_H
#define TP_PROBE_H

#include <stdint.h>

#include "options.h"
#include "supervise.h"

enum probe_status {
	PROBE_OK = 0,
	PROBE_SKIPPED = 1,	/* emitted a skip record: nothing to measure here */
	PROBE_FAILED = 2,	/* emitted an error record */
};

/* The exit code of a probe's process: see supervise.h. */
static inline int probe_exit_code(enum probe_status s)
{
	return s == PROBE_OK ? 0 : s == PROBE_SKIPPED ? SUP_EXIT_SKIPPED : SUP_EXIT_FAILED;
}

/* The best TSC calibration available to this run. */
struct tsc_calib {
	double hz;		/* 0: none (no TSC, or calibration failed) */
	const char *source;	/* "stub" (from the command line) or "user" */
	const char *ref;	/* the reference it was measured against */
};

struct probe_ctx {
	const struct options *opt;
	int quick;		/* profile quick */
	int appliance;		/* running as PID 1 in the appliance */
	int ncpu;		/* CPUs online */
	int64_t deadline_ns;	/* CLOCK_MONOTONIC: the suite kills the probe then */
	struct tsc_calib tsc;	/* filled lazily: call probe_tsc_calib() */
};

struct probe {
	const char *name;
	const char *summary;
	enum probe_status (*run)(struct probe_ctx *ctx);
	int limit_quick_s;	/* time limit for profile quick ... */
	int limit_full_s;	/* ... and full (scaled up under TCG by the suite) */
	int inject;		/* fault injection: runs only when named by inject= */
};

/* Every row, fault injection included; probe_find() finds measuring probes. */
extern const struct probe probe_table[];
extern const size_t probe_count;
const struct probe *probe_find(const char *name);
const struct probe *inject_find(const char *name);

/* Fills ctx->tsc: the stub's figure if it handed one over, else a 200 ms
 * calibration against CLOCK_MONOTONIC_RAW. Returns ctx->tsc.hz. */
double probe_tsc_calib(struct probe_ctx *ctx);

#endif
