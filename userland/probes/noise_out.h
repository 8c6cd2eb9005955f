// SPDX-License-Identifier: MIT
/*
 * Probe `noise`'s records and table rows (noise_out.c): a CPU's or the
 * total's figures, the interrupts and softirqs that came during the run,
 * the SMI count. noise.c measures and pools the rounds; these write.
 */
#ifndef TP_NOISE_OUT_H
#define TP_NOISE_OUT_H

#include <stdint.h>

#include "../irqstat.h"
#include "../probe.h"
#include "../stats.h"
#include "../stubcpus.h"
#include "noise.h"

/* The table's row of NAME: its figures, and the pre-OS scan's beside them when PRE has one. */
void noise_human_row(const char *name, const struct noise_stats *s,
		     const struct tp_sc_cpu *pre, uint32_t window_ms);
/* The "interrupts" result: the counts that came during DURATION_MS, by source and CPU. */
void noise_emit_interrupts(const struct irqstat_table *irq, const struct irqstat_table *soft,
			   int64_t duration_ms);
/* The "smis" result: N SMIs over CPUS CPUs (CHANGED: the count moved during the run). */
void noise_emit_smi_record(uint64_t n, int cpus, int changed, int64_t duration_ms);
/* A CPU's (CPU >= 0) or the total's result record, its gaps' histogram H with it. */
void noise_emit_stats(const char *name, int cpu, const struct noise_stats *s,
		      const struct loghist *h, const struct probe_ctx *ctx, uint64_t reads,
		      long nivcsw, int threshold_ns, const struct tp_sc_cpu *pre,
		      uint32_t window_ms);

#endif
