/* SPDX-License-Identifier: MIT */
/*
 * The pre-OS scan's run, the same on both architectures (hwlat.h): the
 * slots, the window on one CPU, an AP's part, and the BSP's part around the
 * APs' start, which each architecture does its own way (hwlat.c through MP
 * services, arm64/hwlat.c through PSCI CPU_ON). The AP's part is inlined:
 * the AP calls nothing of ours. Reads go through arch.h: the counter, the
 * CPU's ID, interrupts off, the SMI counter (x86 only: smi_readable).
 */
#ifndef TP_BOOT_HWLATRUN_H
#define TP_BOOT_HWLATRUN_H

#include "arch.h"
#include "hwlat.h"

/* The APs' start: every AP in its slot, 1 s and 10 ms an AP (hwlat_ready_ms). */
#define HWLAT_READY_MS 1000
#define HWLAT_READY_MS_PER_AP 10
/* From the BSP's go to the window's start: the APs see go before it. */
#define HWLAT_LEAD_US 1000
/* After the window: the APs' last reads and their return. */
#define HWLAT_GRACE_MS 1000

enum { SLOT_FREE, SLOT_CLAIMED, SLOT_DONE };

/* What every CPU reads; the BSP writes go_tsc and stop once. */
struct hwlat_run {
	struct tp_hwlat_plan plan;
	uint64_t ready_ticks;		/* an AP's longest wait for go */
	uint64_t go_tsc;		/* 0 until go; then the window's start */
	uint64_t end_tsc;
	uint32_t smi_readable;
	uint32_t stuck_slot;		/* never returns; UINT32_MAX: none */
	uint32_t nslots;
	uint32_t next_slot __attribute__((aligned(64)));	/* claimed by the APs */
	uint32_t stop __attribute__((aligned(64)));
};

extern struct tp_hwlat_slot *tp_hwlat_slots;	/* from the pool, run.nslots of them */
extern struct hwlat_run tp_hwlat_run;

/* Where a CPU's reads are: its last read and the SMI count it last saw. */
struct hwlat_pos {
	uint64_t prev, smi;
};

/* Waits for go; the CPU's first read into s (and the SMI count before, where readable). */
static inline __attribute__((always_inline)) void tp_hwlat_begin(struct hwlat_run *r,
								 struct tp_hwlat_cpu *c,
								 struct hwlat_pos *s)
{
	s->smi = 0;
	if (r->smi_readable)
		c->smi_before = s->smi = tp_smi_count();
	c->has_smi = r->smi_readable;
	while ((s->prev = tp_counter()) < r->go_tsc)
		tp_relax();
	c->first_tsc = s->prev;
	c->samples = 1;
}

/* Reads back to back until the counter reaches until; gaps go to c. */
static inline __attribute__((always_inline)) void tp_hwlat_span(struct hwlat_run *r,
								struct tp_hwlat_cpu *c,
								struct hwlat_pos *s, uint64_t until)
{
	const struct tp_hwlat_plan *p = &r->plan;
	uint64_t smi = s->smi, prev = s->prev, now;

	do {
		now = tp_counter();
		c->samples++;
		if (now - prev >= p->thresh_ticks) {
			enum tp_hwlat_smi w = TP_HWLAT_SMI_UNKNOWN;

			if (r->smi_readable && now - prev >= p->smi_ticks) {
				uint64_t v = tp_smi_count();

				w = v != smi ? TP_HWLAT_SMI_YES : TP_HWLAT_SMI_NO;
				smi = v;
				now = tp_counter();	/* the MSR read is not the next gap */
			}
			tp_hwlat_note(c, p, prev, now - prev, w);
		}
		prev = now;
	} while (now < until);
	s->prev = prev;
	s->smi = smi;
}

/* The last read and the SMI count after. */
static inline __attribute__((always_inline)) void tp_hwlat_end(struct hwlat_run *r,
							       struct tp_hwlat_cpu *c,
							       const struct hwlat_pos *s)
{
	c->last_tsc = s->prev;
	if (r->smi_readable)
		c->smi_after = tp_smi_count();
}

/* The window on this CPU: reads until end_tsc; gaps go to c. */
static inline __attribute__((always_inline)) void tp_hwlat_sample(struct hwlat_run *r,
								  struct tp_hwlat_cpu *c)
{
	struct hwlat_pos s;

	tp_hwlat_begin(r, c, &s);
	tp_hwlat_span(r, c, &s, r->end_tsc);
	tp_hwlat_end(r, c, &s);
}

/* Waits for go or stop, up to ready_ticks; 0 when go came. */
static inline __attribute__((always_inline)) int tp_hwlat_wait_go(struct hwlat_run *r)
{
	uint64_t t0 = tp_counter();

	while (!__atomic_load_n(&r->go_tsc, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE) || tp_counter() - t0 > r->ready_ticks)
			return -1;
		tp_relax();
	}
	return 0;
}

/* On each AP: a slot, interrupts off, the window, done. */
static inline __attribute__((always_inline)) void tp_hwlat_ap(struct hwlat_run *r)
{
	uint32_t k = __atomic_fetch_add(&r->next_slot, 1, __ATOMIC_ACQ_REL);
	struct tp_hwlat_slot *sl;
	uint64_t flags;

	if (k >= r->nslots)
		return;
	sl = &tp_hwlat_slots[k];
	sl->cpu.apic = tp_cpu_id();
	__atomic_store_n(&sl->state, SLOT_CLAIMED, __ATOMIC_RELEASE);
	if (k == r->stuck_slot)
		for (;;)
			tp_relax();	/* the injected hang: never returns */
	flags = tp_irq_off();
	if (!tp_hwlat_wait_go(r))
		tp_hwlat_sample(r, &sl->cpu);
	tp_irq_restore(flags);
	__atomic_store_n(&sl->state, SLOT_DONE, __ATOMIC_RELEASE);
}

/*
 * *rep begun for a scan of window_ms at tsc_hz (both architectures'
 * tp_hwlat_scan): 0, or -1 with rep->why when there is none to run (a
 * window of 0, or no calibration of the counter).
 */
int tp_hwlat_plan(struct tp_hwlat_report *rep, uint64_t tsc_hz, uint32_t window_ms,
		  uint32_t thresh_us, const struct tp_hwlat_ref *ref);

/*
 * Fresh slots from the pool and the plan, the BSP in slot 0,
 * rep->aps_expected APs to come (fewer when the pool is short: the others
 * move to aps_over_cap).
 */
void tp_hwlat_prepare(struct hwlat_run *r, struct tp_hwlat_report *rep, int stuck);
/* Spins until every AP expected claimed a slot, or the ready limit. */
void tp_hwlat_wait_ready(struct hwlat_run *r, const struct tp_hwlat_report *rep);
/*
 * The BSP's window, at TPL_HIGH_LEVEL (no firmware timer interrupt) with the
 * watchdog off; with a reference (rep->ref.read), read at the edges of its
 * TP_HIDDEN_CHUNK_MS chunks, each chunk compared with the TSC into rep->hidden.
 */
void tp_hwlat_bsp_window(struct hwlat_run *r, struct tp_hwlat_report *rep);
/* After the window: every claimed slot done, or HWLAT_GRACE_MS; then stop. */
void tp_hwlat_wait_done(struct hwlat_run *r, struct tp_hwlat_report *rep);

#endif
