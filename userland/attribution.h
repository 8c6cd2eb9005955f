/* SPDX-License-Identifier: MIT */
/*
 * What else happened while a probe ran: the suite takes a snapshot before
 * and after each probe (interrupts per source from /proc/interrupts,
 * softirqs from /proc/softirqs, context switches from /proc/stat, and on
 * Intel CPUs MSR_SMI_COUNT per CPU through /dev/cpu/N/msr) and emits one
 * `attribution` record with the differences, and one human line. The
 * parsers are pure and tested on recorded text (tests/unit/test_attribution.c).
 */
#ifndef TP_ATTRIBUTION_H
#define TP_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/noise.h"

#define ATTR_CPUS 256

struct attr_smi {
	int n;			/* CPUs read */
	int cpu[ATTR_CPUS];
	uint64_t count[ATTR_CPUS];
	int err;		/* -errno of the first failure; 0: every online CPU read */
	const char *why;	/* set when no count can be had (AMD, no msr driver, ...) */
};

struct attr_snap {
	struct irq_table irq, soft;
	int irq_rc, soft_rc;	/* 0, or -errno: not read */
	uint64_t ctxt;
	int ctxt_rc;
	struct attr_smi smi;
	int64_t t_ns;
};

struct attribution {
	struct attr_snap before, after;
};

/* The suite's hook: begin before the probe, end after it (emits, frees). */
void attribution_begin(struct attribution *a);
void attribution_end(struct attribution *a, const char *probe);

/* MSR_SMI_COUNT of every online CPU, or in s->why the reason there is none
 * (not Intel, no msr driver, not root, the read refused). Also noise's. */
void attr_smi_take(struct attr_smi *s);

/* ---- pure parts ---- */

/* "ctxt N" of /proc/stat text; 0 or -EINVAL. */
int attr_parse_ctxt(const char *text, uint64_t *ctxt);

/* "0-3,5,7-8" (/sys/devices/system/cpu/online) into cpus; how many, or -EINVAL. */
int attr_parse_cpulist(const char *text, int *cpus, int max);


/*
 * SMIs between two snapshots, summed over the CPUs present in both (the
 * counter is 32 bits wide: a wrap counts forward). *cpus_changed is set when
 * a CPU was in one snapshot only (it went offline or came online).
 */
uint64_t attr_smi_delta(const struct attr_smi *before, const struct attr_smi *after,
			int *cpus_changed);

/*
 * Per source of A, its count since B, over the CPUs both tables have (a
 * CPU that went offline leaves /proc/interrupts; one that came back brings
 * its old counts); rows with one machine-wide figure (ERR, MIS) by their
 * totals, rows new in A count 0. out holds a->nrows figures. Returns 1
 * when the CPUs differ between the two.
 */
int attr_irq_delta(const struct irq_table *b, const struct irq_table *a, uint64_t *out);

/* 1210 as "1 210" (SI digit groups, as the human tables write counts). */
void attr_group(uint64_t v, char *buf, size_t len);

#endif
