/* SPDX-License-Identifier: MIT */
/*
 * What else happened while a probe ran, and what the probe did itself: the
 * suite takes a snapshot before and after each probe and emits one
 * `attribution` record with the differences, and one human line. Two
 * scopes, named apart in both: the machine's (interrupts per source from
 * /proc/interrupts, softirqs from /proc/softirqs and on Intel CPUs
 * MSR_SMI_COUNT per CPU, all three read by irqstat.h; every context switch
 * from /proc/stat; every CPU migration, migrations.h) and the probe's own
 * (its reaped process tree's switches and CPU time,
 * getrusage(RUSAGE_CHILDREN), and the interrupts on the CPUs it was
 * pinned to). The pure parts are tested on recorded text
 * (tests/unit/test_attribution.c).
 */
#ifndef TP_ATTRIBUTION_H
#define TP_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "irqstat.h"
#include "../common/recdecl.h"

struct attribution_snap {
	struct irqstat_table irq, soft;
	int irq_rc, soft_rc;	/* 0, or -errno: not read */
	uint64_t ctxt;
	int ctxt_rc;
	struct irqstat_smi smi;
	struct rusage own;	/* RUSAGE_CHILDREN: the reaped probes' trees */
	int own_rc;
	uint64_t migrations;	/* migrations.h: the machine's, every CPU's */
	int migrations_rc;
	int64_t t_ns;
};

struct attribution {
	struct attribution_snap before, after;
	int pinned[IRQSTAT_CPUS];	/* the CPUs the probe was pinned to */
	int npinned;			/* 0: not pinned */
};

/* The probe's own share between two RUSAGE_CHILDREN snapshots. */
struct attribution_own {
	uint64_t vol_ctxsw, invol_ctxsw;
	int64_t cpu_us;			/* user + system */
};

/*
 * The suite's hook: begin before the probe (or a round of it), end after
 * it (emits, frees; line: the console line too, for a whole probe or its
 * last round; a round's record carries "round", emit.h).
 * PINNED lists the NPINNED CPUs the suite pins the probe to (NULL, 0:
 * none); their interrupts are the probe's share of the machine's.
 */
void attribution_begin(struct attribution *a, const int *pinned, int npinned);
void attribution_end(struct attribution *a, const char *probe, int line);

/* ---- pure parts ---- */

/* "ctxt N" of /proc/stat text; 0 or -EINVAL. */
int attribution_parse_ctxt(const char *text, uint64_t *ctxt);

/* after - before of the children's rusage; a counter that went down gives 0. */
void attribution_own_delta(const struct rusage *before, const struct rusage *after, struct attribution_own *d);

/*
 * Counts of every row of A since B on the N CPUs listed, over the columns
 * both tables have; rows with one machine-wide figure (ERR, MIS) and rows
 * new in A are left out, as irqstat_row_delta() leaves them.
 */
uint64_t attribution_cpus_delta(const struct irqstat_table *b, const struct irqstat_table *a,
			 const int *cpus, int n);

/* CPUs 1 2 3 5 as "1-3,5" (the kernel's cpulist format); cut to fit LEN. */
void attribution_cpulist(const int *cpus, int n, char *buf, size_t len);

/* 1210 as "1 210" (SI digit groups, as the human tables write counts). */
void attribution_group(uint64_t v, char *buf, size_t len);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key attribution_rec_keys[];

#endif
