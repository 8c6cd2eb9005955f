/* SPDX-License-Identifier: MIT */
/*
 * A probe: one file under userland/probes/ that ends with its struct probe
 * (name, summary, options, time limits, entry point, promised figures), and
 * one word in the list of probes/registry.c. It is told what to do (struct
 * probe_ctx), measures, and writes its records and human table through
 * emit.h. The suite runs each probe in a child process with a time limit,
 * so a probe may block, crash or exit: the suite notices and goes on.
 * docs/adding-a-probe.md is the recipe.
 */
#ifndef TP_PROBE_H
#define TP_PROBE_H

#include <stdint.h>

#include "options.h"
#include "supervise.h"
#include "tsccal.h"
#include "../common/words.h"

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
	struct user_calib user;	/* source "user": its rounds, failures, spread */
};

struct probe_ctx {
	const struct options *opt;
	int quick;		/* profile quick */
	int appliance;		/* running as PID 1 in the appliance */
	int ncpu;		/* CPUs online */
	int64_t deadline_ns;	/* CLOCK_MONOTONIC: the suite kills the probe then */
	struct tsc_calib tsc;	/* filled lazily: call probe_tsc_calib() */
};

/*
 * A probe's own option: the command-line contract's row type (name, type,
 * bounds, default, help; common/words.h) and where its value lives, store:
 * a static of the probe's file (or of the suite module that uses it), set
 * by options.c before the suite forks the probe. Its name is
 * "<probe>-<what>" (docs/adding-a-probe.md). was: the name it had before,
 * still taken for one release, with a warning. A default that differs
 * between the appliance and a host is env_def[], put in place of w.def
 * (then a value no one can set) by options_resolve().
 */
struct probe_opt {
	struct tp_word w;
	void *store;		/* INT, BOOL, CHOICE: int; INTS: struct int_list; NAMES: struct name_list */
	const char *was;	/* the old spelling, or NULL */
	int by_env;
	int64_t env_def[2];	/* [OPT_ENV_APPLIANCE], [OPT_ENV_HOST] */
	/*
	 * by_env rows: the value both sides of a comparison use, so that their
	 * results line up (`timeprobe list --compare`, tools/compare.sh); NULL:
	 * the host's default, which the appliance can always do.
	 */
	int64_t (*compare)(void);
};

struct probe {
	const char *name;
	const char *summary;
	enum probe_status (*run)(struct probe_ctx *ctx);
	int limit_quick_s;	/* time limit for profile quick ... */
	int limit_full_s;	/* ... and full (scaled up under TCG by the suite) */
	const struct probe_opt *opts;	/* its own options */
	size_t n_opts;
	/*
	 * Figures its records promise in every run where it measures: record
	 * fields, the first its headline (LAVA's measurement). The boot tests
	 * check each is there (`timeprobe list --figures`). NULL-terminated.
	 */
	const char *const *figures;
	int inject;		/* fault injection: runs only when named by inject= */
};

#define PROBE_OPTS(a) .opts = (a), .n_opts = sizeof(a) / sizeof((a)[0])
#define PROBE_FIGURES(...) .figures = (const char *const[]){ __VA_ARGS__, 0 }

/* Every probe, fault injections last; probe_find() finds measuring probes. */
extern const struct probe *const probe_table[];
extern const size_t probe_count;
const struct probe *probe_find(const char *name);
const struct probe *inject_find(const char *name);

/* Fills ctx->tsc: the stub's figure if it handed one over, else the pinned,
 * bracketed user calibration of tsccal.h (tsc-calib-rounds rounds of 50 ms in
 * profile quick, 200 ms in full). Returns ctx->tsc.hz. */
double probe_tsc_calib(struct probe_ctx *ctx);

#endif
