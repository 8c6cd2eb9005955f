/* SPDX-License-Identifier: MIT */
/*
 * Probe `tscsync`, what its two files share (internal to the probe):
 *
 *   tscsync.c        the probe: the round trips after boot, their records,
 *                    the matrices, the summary, the registry row
 *   tscsync_preos.c  before the OS and IA32_TSC_ADJUST: the stub's
 *                    stub_tscsync records (ctx->stub, common/stubcpu.h) on
 *                    Linux CPU numbers, each CPU's IA32_TSC_ADJUST as the
 *                    stub found it and as it is now (x86), the table of both
 *
 * The counter is the CPU's own (timeutil.h): the TSC on x86, CNTVCT_EL0 on
 * arm64. The pure part, tested alone, is in tscsync.h; the hardware IDs of
 * the Linux CPUs come from cpu_map (sysinfo.h, APIC IDs) or mpidr_map
 * (mpidr.h, arm64).
 */
#ifndef TP_PROBES_TSCSYNC_IMPL_H
#define TP_PROBES_TSCSYNC_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/handoff.h"
#include "../../common/stubcpu.h"
#include "../emit.h"
#include "../hwid.h"
#include "../options.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "tscsync.h"

#define TSCSYNC_PROBE "tscsync"
/* The `when` of a record: the stub's figures, or this probe's own. */
#define TSCSYNC_PREOS "pre-os"
#define TSCSYNC_POSTBOOT "post-boot"

/*
 * The counter in human text. (How the stub names CPUs, the prefix of the
 * records' keys apic_a, mpidr_a and of a name when no Linux CPU has the
 * ID: HWID_KEY, ../hwid.h.)
 */
#if TP_HAVE_TSC
#define TSCSYNC_COUNTER "TSC"
#else
#define TSCSYNC_COUNTER "CNTVCT"
#endif
#define TSCSYNC_NO_ADJUST "x86 only: IA32_TSC_ADJUST"

/* One ordered pair: measured (done) or not, its round trips and what they prove. */
struct cell {
	int done;
	struct tscsync_bounds s;
	struct tscsync_estimate e;
};

/* Who a pair is: its CPUs (-1: no Linux CPU has that ID) and hardware IDs (HWID_KEY; -1: unknown). */
struct pair_id {
	const char *when;
	int a, b;
	int64_t hw_a, hw_b;
};

/* ticks in ns at hz; NAN when hz is not known. */
double tscsync_ns(double ticks, double hz);
/* One pair's result record; rejected < 0: not known (the stub does not hand it over). */
void tscsync_emit_pair(const struct pair_id *id, const struct cell *c, double hz, int64_t rejected);
/* A skip of one measurement, with its `when` (the identity of skip records). */
void tscsync_emit_skip(const char *name, const char *when, const char *reason);

/* IA32_TSC_ADJUST of one CPU: unknown (not read), read, or the CPU has none. */
enum adj_state { ADJ_UNKNOWN, ADJ_VALUE, ADJ_NONE };
struct adj {
	enum adj_state state;
	int64_t v;
};

/* The stub's figures, each AP mapped to a Linux CPU (-1: no CPU has its hardware ID). */
struct preos {
	struct tp_sc_preos w;		/* every pair of the stub's file (common/stubcpu.h) */
	int bsp_cpu;
	int cpu[TP_STUB_CPUS_MAX - 1];
	struct cell c[TP_STUB_CPUS_MAX - 1];
};

/*
 * The stub's pairs (its file's stub_tscsync records, st->cpus) mapped
 * through map into p, and emitted: its pairs and IA32_TSC_ADJUST values as `pre-os` records, or one
 * `pre-os` skip saying why there are none. Returns p, or NULL (the skip).
 */
const struct preos *tscsync_preos_records(const struct stub_handoff *st,
					  const struct cpu_names *names, struct preos *p, double hz);

/*
 * IA32_TSC_ADJUST of each of cpus[] now (msr.h), into now[]: a `post-boot`
 * record or skip each; not on arm64 (one skip, now[] all ADJ_UNKNOWN).
 */
void tscsync_adjust_now(const int *cpus, int n, const struct cpu_map *map, struct adj *now);

/*
 * The human table of the stub's pairs beside the same pairs after boot (m,
 * n x n over cpus[]; NULL when none were measured), then IA32_TSC_ADJUST
 * per CPU before and after (x86). Returns how many CPUs' IA32_TSC_ADJUST
 * differ between the stub's read and now[].
 */
int tscsync_human_preos(const struct preos *p, const int *cpus, int n, const struct cell *m,
			const struct adj *now, double hz);

/* The stub's pairs in the summary record (nothing when p is NULL). */
void tscsync_summary_preos(struct tp_rec *r, const struct preos *p, int changed, double hz);

#endif
