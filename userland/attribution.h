/* SPDX-License-Identifier: MIT */
/*
 * What else happened while a probe ran: the suite takes a snapshot before
 * and after each probe (interrupts per source from /proc/interrupts,
 * softirqs from /proc/softirqs and on Intel CPUs MSR_SMI_COUNT per CPU, all
 * three read by irqstat.h; context switches from /proc/stat) and emits one
 * `attribution` record with the differences, and one human line. The
 * pure parts are tested on recorded text (tests/unit/test_attribution.c).
 */
#ifndef TP_ATTRIBUTION_H
#define TP_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "irqstat.h"

struct attr_snap {
	struct irqstat_table irq, soft;
	int irq_rc, soft_rc;	/* 0, or -errno: not read */
	uint64_t ctxt;
	int ctxt_rc;
	struct irqstat_smi smi;
	int64_t t_ns;
};

struct attribution {
	struct attr_snap before, after;
};

/* The suite's hook: begin before the probe, end after it (emits, frees). */
void attribution_begin(struct attribution *a);
void attribution_end(struct attribution *a, const char *probe);

/* ---- pure parts ---- */

/* "ctxt N" of /proc/stat text; 0 or -EINVAL. */
int attr_parse_ctxt(const char *text, uint64_t *ctxt);

/* 1210 as "1 210" (SI digit groups, as the human tables write counts). */
void attr_group(uint64_t v, char *buf, size_t len);

#endif
