/* SPDX-License-Identifier: MIT */
/*
 * The `tsc_readiness` record at the end of every run, before the verdict:
 * is `tsc=reliable` safe on this machine, the reasons (each figure, its
 * bound from common/readiness.c, the record it came from, passed or not),
 * the kernel words to use, and the reference the vote finds off. Read from
 * the run's kept records (sink_saved(), through recread.c), as verdict.c
 * does; docs/readiness.md. Four files: readiness_facts.c reads the
 * records, readiness_hidden.c the stub's scan summary, readiness.c votes
 * and judges, readiness_out.c writes the record and the block. Tested by tests/unit/test_readiness.c.
 */
#ifndef TP_READINESS_H
#define TP_READINESS_H

#include <stddef.h>

#include "../common/readiness.h"
#include "../common/record.h"
#include "../common/skew.h"

#define READINESS_REASONS 16
#define READINESS_CLOCKS 6
#define READINESS_TEXT 160

struct readiness_reason {
	const struct rd_rule *rule;
	enum rd_pass pass;
	double value;
	char from[READINESS_TEXT];	/* the record it came from */
	char why[READINESS_TEXT];	/* not measured, or not held against the TSC: why */
};

/* One clock in a vote: its name and its own rate error in ppm, with its uncertainty. */
struct readiness_clock {
	char name[24];
	double tsc_hz;		/* the TSC's rate measured against it */
	double unc_ppm;
};

/* What the records say, before any judgement (NAN or -1: absent). */
struct readiness_facts {
	int invariant;
	double stub_vs_kernel_ppm, cpuid15_hz, stub_hz, warps;
	int stub_kernel_one_origin;
	double offset_ns, bound_ns, preos_offset_ns, adjust_changed, counter_bad;
	double cpus;		/* the run record's: one CPU has no pair to disagree */
	struct readiness_clock pre[READINESS_CLOCKS], post[READINESS_CLOCKS];
	size_t npre, npost;
	char drift_why[READINESS_TEXT];	/* drift's skips of the platform counters */
};

struct readiness {
	struct readiness_facts f;
	struct readiness_reason reason[READINESS_REASONS];
	size_t n;
	struct rd_vote_out vote_pre, vote_post;
	const char *pre_named;	/* the clock the vote before the OS named, NULL when none */
	const char *post_named;	/* the clock the vote after boot named, NULL when none */
	const char *wrong;	/* the named clock, NULL when none */
	double wrong_ppm;
	const char *wrong_when;	/* "pre-os" or "post-boot" */
	enum rd_answer answer;
	char kernel_args[48];
	int sockets;		/* -1: not known */
	struct tp_skew skew;	/* what timeprobe.inject= injected, ref "" when nothing */
};

/* 1 when ref is one of the platform references (hpet, pmtimer, pit). */
int readiness_is_platform(const char *ref);

/* What the kept records recs[0..len) say (readiness_facts.c). */
void readiness_read_facts(struct readiness_facts *f, const char *recs, size_t len);

/*
 * hidden_gaps' figure, the hidden gaps of the stub's stub_hwlat summary
 * (readiness_hidden.c), with from (the reference and its chunks); NAN and
 * why when there is none (no stub, no scan, no reference: arm64).
 */
double readiness_hidden(const char *recs, size_t len, char *from, size_t nfrom, char *why,
			size_t nwhy);

/* Reads the kept records recs[0..len) and judges; sockets and skew as the caller found them. */
void readiness_gather(struct readiness *rd, const char *recs, size_t len, int sockets,
		      const struct tp_skew *skew);

void readiness_record(struct tp_rec *r, const struct readiness *rd);

/* Distinct physical_package_id values of the online CPUs (sysfs); -1 when none can be read. */
int readiness_sockets(void);

/* Gathers from the suite's kept records, prints the block and emits the record. */
void readiness_emit(const struct tp_skew *skew);

#endif
