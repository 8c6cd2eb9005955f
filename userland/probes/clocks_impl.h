/* SPDX-License-Identifier: MIT */
/*
 * Probe `clocks`, its files' shared types: what a source is, how long to
 * measure (struct plan), what a clocksource block shares (struct env) and
 * what one source gave (struct clk_result). Internal to the probe:
 *
 *   clocks.c          the probe: sources, pre-checks, one block, the
 *                     platform counters, the registry row
 *   clocks_read.c     the measured loops: nothing but the reads
 *   clocks_measure.c  the measurement kernel: batches, steps, the vDSO check
 *   clocks_out.c      records and the human table
 *   clocks_sweep.c    the clocksource sweep
 *   clocks_rounds.c   its rounds: what they keep in the suite's shared
 *                     memory, a round's share of the plan, the run's sums
 *   clocks_dev.c      the platform counters as paths (clocks_dev.h)
 *
 * The pure helpers, tested alone, are in clocks.h.
 */
#ifndef TP_PROBES_CLOCKS_IMPL_H
#define TP_PROBES_CLOCKS_IMPL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../probe.h"
#include "../timeutil.h"
#include "clocks.h"
#include "clocks_dev.h"

#define PROBE "clocks"
#define UNROLL 16			/* calls per iteration of a batch */
#define MAX_SOURCES 40
#define CS_NAME_LEN 32			/* a clocksource name, as kernel/time/clocksource.c */

/*
 * The CPU's counter as this probe reads and names it (timeutil.h's
 * tp_counter and tp_counter_ordered): the TSC on x86, CNTVCT_EL0 on arm64,
 * where RDTSCP has no counterpart.
 */
#if TP_HAVE_TSC
#define CLK_INSN "rdtsc"
#define CLK_INSN_ORDERED "lfence;rdtsc"
#define CLK_USER_NAME "cheap.gettime (TSC * mult >> shift)"
#else
static inline uint64_t rdtscp(uint32_t *aux) { (void)aux; return 0; }
#define CLK_INSN "mrs cntvct_el0"
#define CLK_INSN_ORDERED "isb;mrs cntvct_el0"
#define CLK_USER_NAME "cheap.gettime (CNTVCT * mult >> shift)"
#endif
#if !TP_HAVE_COUNTER
static inline uint64_t tp_counter(void) { return 0; }
static inline uint64_t tp_counter_ordered(void) { return 0; }
#endif

/* ---- sources ---- */

/* K_RDTSC, K_LFENCE_RDTSC: the counter read plain and ordered (CLK_INSN, CLK_INSN_ORDERED) */
enum kind { K_TIME, K_GTOD, K_CGT, K_RDTSC, K_LFENCE_RDTSC, K_RDTSCP, K_TSC_USER, K_DEV, K_EMPTY };
enum via { VIA_LIBC, VIA_SYSCALL, VIA_INSN, VIA_TSC_USER, VIA_DEV, VIA_NONE };

struct source {
	enum kind kind;
	enum via via;
	clockid_t id;
	char name[56];
	const struct tsc_clock *tclk;
	const struct clk_dev *dev;	/* K_DEV: the platform counter */
};

/* ---- the measured loops (clocks_read.c) ---- */

/* The bare syscall instruction, so the syscall path costs what the kernel
 * costs and not libc's syscall() wrapper (errno handling, varargs). */
#if defined(__x86_64__)
static inline long sys2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}
#else
static inline long sys2(long nr, long a, long b)
{
	long r = syscall(nr, a, b);

	return r < 0 ? -errno : r;
}
#endif

/* Each runs iters * UNROLL reads and returns the last value (ns or ticks). */
typedef int64_t (*batch_fn)(const struct source *s, long iters);

batch_fn clocks_batch_for(const struct source *s);

/* One read, checked: 0 or -errno. Used for the pre-check and the tracer. */
int clocks_read_once(const struct source *s, int64_t *v);

/* n consecutive reads, as tight as the source allows. */
void clocks_fill_reads(const struct source *s, int64_t *r, size_t n);

/* ---- the measurement kernel (clocks_measure.c) ---- */

struct plan {
	int64_t batch_min_ns;	/* shortest batch */
	int64_t budget_ns;	/* per source, once min_batches are done */
	int64_t hard_ns;	/* per source, whatever was done */
	int min_batches, max_batches;
	int rounds;		/* slices per source, taken in turns */
	int64_t step_budget_ns;	/* granularity sampling per source */
	uint64_t step_min_reads;
	uint64_t step_min_forward;	/* steps forward to see before the budget is spent */
};

/* The plan for the profile: quick or full. */
const struct plan *clocks_plan(int quick);

/* What every measurement of one clocksource block shares. */
struct env {
	const char *cs;
	const struct plan *plan;
	int have_tsc, have_rdtscp;
	const char *no_tsc_why, *no_rdtscp_why;
	double tsc_hz;
	const char *calib_source, *calib_ref;
	const struct user_calib *user_calib;	/* when calib_source is "user" */
	double ns_per_unit;	/* timer unit to ns: ns per tick, or 1 */
	struct tsc_clock tclk;
	double timer_ns;	/* cost of the timer read inside a batch */
	double overhead_ns;	/* the empty loop, per call */
	int cpu;
	int traced;		/* vDSO use checked by ptrace, else by cost */
	const struct clk_dev *dev;		/* the platform counters, CLK_NDEV */
	const struct clk_result *dev_res;	/* their figures, measured once per run */
	/* rounds (clocks_rounds.c): what they share, NULL when the probe runs whole */
	struct clk_state *st;
	int round, rounds;
};

/* What one source gave. */
struct clk_result {
	struct source src;
	int err;		/* skipped: errno, or 0 with reason */
	char reason[120];
	int skipped;
	int vdso;		/* libc: 1 served in user space, 0 not, -1 unknown */
	double kernel_entries;	/* libc: time syscalls per call under the tracer */
	struct per_call ns;
	double ticks_p50;	/* NaN without the TSC */
	double resolution_ns;
	struct step_acc steps;
	int64_t step_window_ns;
	int64_t user_us, sys_us, vol_ctxsw, invol_ctxsw;
	int64_t last;
	double *batch;		/* max_batches durations, timer units */
	int batches;
	int first;		/* this round's first batch (0 when whole, or for the run's figures) */
	long iters;		/* of UNROLL calls per batch */
	uint64_t calls_per_batch;
	double batch_ns;
};

/* count results, each with room for the plan's batches; one free(). */
struct clk_result *clocks_alloc_results(const struct env *e, size_t count);

/* Pins this process to the CPU it runs on (e->cpu); the TSC clock's base. */
void clocks_pin_to_cpu(struct env *e);
void clocks_setup_tsc_clock(struct env *e);

/* The cost of one read of the batch timer, in ns. */
double clocks_timer_cost_ns(const struct env *e);

/*
 * Batches for res[0..n) and the empty loop res[n], in turns, skipping the
 * skipped; the empty loop's cost becomes e->overhead_ns.
 */
void clocks_measure_costs(struct env *e, struct clk_result *res, size_t n);

/*
 * Every source and the empty loop (res[n]): the vDSO check first (its
 * verdict goes into each record), then batches in turns, then the steps.
 * Returns the tracer's result (0 or -errno); counts what was measured.
 */
int clocks_measure_all(struct env *e, struct clk_result *res, size_t n, size_t *measured);

/* The cost figures of batches [first, batches): the round's, or the run's with first 0. */
void clocks_finish_costs(struct env *e, struct clk_result *res, size_t n);

/* ---- rounds (clocks_rounds.c; docs/probes/clocks.md, "Rounds") ---- */

/* Where a block's sources (and its empty loop) and the platform counters keep their rounds. */
#define CLK_SLOT_BLOCK 0
#define CLK_SLOT_DEV (MAX_SOURCES + 1)
#define CLK_SLOTS (CLK_SLOT_DEV + CLK_NDEV + 1)

/* What one source keeps from round to round; its batches are in clk_state's batch[]. */
struct clk_slot {
	long iters;			/* sized once, in round 1: every batch the same calls */
	int batches;
	int vdso;
	double kernel_entries;
	struct step_acc steps;
	int64_t step_window_ns;
	int64_t user_us, sys_us, vol_ctxsw, invol_ctxsw;
};

/* The suite's shared memory for clocks' rounds (ctx->state). */
struct clk_state {
	int calibrated, vdso_done;
	struct tsc_rate tsc;		/* round 1's calibration, every round's ticks */
	int trace_rc;
	struct plan plan;		/* a round's share of the profile's plan */
	size_t nb;			/* batches a slot holds: the plan's max_batches */
	struct clk_slot slot[CLK_SLOTS];
	double batch[];			/* CLK_SLOTS * nb */
};

size_t clocks_state_bytes(const struct probe_ctx *ctx);

/* Sets e->st, e->round, e->rounds and e->plan: a round's share, or the whole plan. */
void clocks_rounds_env(const struct probe_ctx *ctx, struct env *e);

/* 1 when this child writes the run's records: whole, or the last round. */
int clocks_rounds_last(const struct env *e);

/* Records from now on are the run's (run 1) or this round's (run 0). */
void clocks_rounds_as_run(const struct env *e, int run);

/* res[0..n] from and back to slots base..base+n: iters, batches (in the state), the vDSO's word. */
void clocks_rounds_load(const struct env *e, struct clk_result *res, size_t n, int base);
void clocks_rounds_save(const struct env *e, const struct clk_result *res, size_t n, int base);

/* res[0..n] made the run's: every round's batches, steps and rusage (the last round). */
void clocks_rounds_total(struct env *e, struct clk_result *res, size_t n, int base);

/* ---- records and the table (clocks_out.c) ---- */

/* The skip records of res[0..n), counted in *skipped. */
void clocks_emit_skips(const struct env *e, const struct clk_result *res, size_t n, size_t *skipped);
void clocks_emit_result(const struct env *e, const struct clk_result *res);
/* A skip or error about a whole clocksource, carrying it like every record. */
void clocks_emit_clocksource_record(const char *type, const char *cs, const char *name, const char *reason);
/* The block's own record: what it ran on and how it measured. */
void clocks_emit_block(const struct probe_ctx *ctx, const struct env *e, size_t measured, size_t skipped,
		int trace_rc, const char *cs_end);
/* The human table of res[0..n), dearest first (sorts res). */
void clocks_print_table(const struct env *e, struct clk_result *res, size_t n);

/* ---- one block, and the sweep of blocks (clocks.c, clocks_sweep.c) ---- */

/* Measures every source on the clocksource in use now. */
enum probe_status clocks_measure_block(const struct probe_ctx *ctx, struct env *e);

/* One block for the clocksource in use, or (want) one per clocksource. */
enum probe_status clocks_sweep_run(const struct probe_ctx *ctx, struct env *e, int want, const char *orig);

#endif
