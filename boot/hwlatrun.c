// SPDX-License-Identifier: MIT
/* The BSP's part of the pre-OS scan on both architectures; see hwlatrun.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/x86clock.h"
#include "hwlatrun.h"
#include "mpshare.h"

/* UEFI 2.10, 3.1.2: the boot manager arms a 5-minute watchdog before it starts an image. */
#define HWLAT_WATCHDOG_S 300

struct tp_hwlat_slot *tp_hwlat_slots;
struct hwlat_run tp_hwlat_run;

/* The BSP's slot when the pool has none to give. */
static struct tp_hwlat_slot bsp_only;

/* The wait for the APs to start: 1 s and HWLAT_READY_MS_PER_AP for each. */
static uint64_t hwlat_ready_ms(uint64_t aps)
{
	return HWLAT_READY_MS + HWLAT_READY_MS_PER_AP * aps;
}

uint64_t tp_hwlat_limit_s(uint32_t window_ms, uint64_t cpus)
{
	uint64_t extra_s = (HWLAT_READY_MS_PER_AP * (cpus ? cpus - 1 : 0) + 999) / 1000;

	/* the window, the APs' start, their return and the firmware's word; the start twice
	 * (the wait for it, and the firmware's own limit, which holds it) */
	return window_ms / 1000 * 2 + 12 + 2 * extra_s;
}

void tp_hwlat_expect_init(struct tp_hwlat_report *rep, uint64_t max_aps)
{
	uint64_t n = max_aps < TP_HWLAT_SLOTS - 1 ? max_aps : TP_HWLAT_SLOTS - 1;

	rep->expected_apic = tp_pool_upto(&n, sizeof(uint32_t), 1);
	rep->expected_cap = (uint32_t)n;
}

void tp_hwlat_expect(struct tp_hwlat_report *rep, uint32_t id)
{
	if (rep->aps_expected >= rep->expected_cap) {
		rep->aps_over_cap++;
		return;
	}
	rep->expected_apic[rep->aps_expected++] = id;
}

/*
 * Slots for the BSP and every AP expected, 64-byte aligned, from the pool;
 * the APs beyond what it gives move to aps_over_cap. Never freed: an AP
 * that did not return in time may still write its slot.
 */
static struct tp_hwlat_slot *alloc_slots(struct tp_hwlat_report *rep)
{
	uint64_t n = 1 + (uint64_t)rep->aps_expected;
	struct tp_hwlat_slot *p = tp_pool_upto(&n, sizeof(*p), 64);

	if (!p)
		n = 1;
	rep->aps_over_cap += rep->aps_expected - (uint32_t)(n - 1);
	rep->aps_expected = (uint32_t)(n - 1);
	return p ? p : &bsp_only;
}

int tp_hwlat_reported(const struct tp_hwlat_report *rep, uint32_t i)
{
	return i < rep->nslots && __atomic_load_n(&rep->slot[i].state, __ATOMIC_ACQUIRE) == SLOT_DONE;
}

int tp_hwlat_plan(struct tp_hwlat_report *rep, uint64_t tsc_hz, uint32_t window_ms,
		  uint32_t thresh_us, const struct tp_hwlat_ref *ref)
{
	*rep = (struct tp_hwlat_report){ .window_ms = window_ms, .thresh_us = thresh_us,
					 .tsc_hz = tsc_hz, .ref = *ref };
	if (!window_ms) {
		rep->why = "timeprobe.hwlat_ms=0: no pre-OS latency scan";
		return -1;
	}
	if (tsc_hz < 1000000) {
		rep->why = "no " TP_ARCH_CALIBRATED " calibration: no pre-OS latency scan";
		return -1;
	}
	rep->window_ticks = tp_muldiv64(window_ms, tsc_hz, 1000, 0);
	return 0;
}

void tp_hwlat_prepare(struct hwlat_run *r, struct tp_hwlat_report *rep, int stuck)
{
	tp_hwlat_slots = alloc_slots(rep);
	for (uint32_t i = 0; i <= rep->aps_expected; i++)
		tp_hwlat_slots[i] = (struct tp_hwlat_slot){ 0 };
	*r = (struct hwlat_run){ .stuck_slot = UINT32_MAX };
	tp_hwlat_plan_init(&r->plan, rep->tsc_hz, rep->thresh_us);
	r->ready_ticks = rep->tsc_hz / 1000 * (hwlat_ready_ms(rep->aps_expected) + 10);
	r->smi_readable = (uint32_t)rep->smi_readable;
	r->nslots = 1 + rep->aps_expected;
	r->next_slot = 1;
	if (stuck && rep->aps_expected)
		r->stuck_slot = rep->aps_expected;
	tp_hwlat_slots[0].bsp = 1;
	tp_hwlat_slots[0].cpu.apic = tp_cpu_id();
	tp_hwlat_slots[0].state = SLOT_CLAIMED;
	rep->slot = tp_hwlat_slots;
	rep->nslots = 1;
	rep->plan = r->plan;
	rep->ref.scale.tsc_hz = rep->tsc_hz;
	rep->hidden = (struct tp_hidden_sum){ 0 };
}

void tp_hwlat_wait_ready(struct hwlat_run *r, const struct tp_hwlat_report *rep)
{
	uint64_t t0 = tp_counter(),
		 limit = r->plan.tsc_hz / 1000 * hwlat_ready_ms(rep->aps_expected);

	while (__atomic_load_n(&r->next_slot, __ATOMIC_ACQUIRE) < 1 + rep->aps_expected &&
	       tp_counter() - t0 < limit)
		tp_relax();
}

void tp_hwlat_wait_done(struct hwlat_run *r, struct tp_hwlat_report *rep)
{
	uint64_t t0 = tp_counter(), limit = r->plan.tsc_hz / 1000 * HWLAT_GRACE_MS;
	uint32_t claimed = __atomic_load_n(&r->next_slot, __ATOMIC_ACQUIRE);

	rep->nslots = claimed < r->nslots ? claimed : r->nslots;
	for (uint32_t i = 1; i < rep->nslots; i++)
		while (!tp_hwlat_reported(rep, i) && tp_counter() - t0 < limit)
			tp_relax();
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	rep->aps_started = rep->nslots - 1;
}

/* One edge of a chunk: the reference read between two counter reads. */
static void ref_edge(const struct tp_hwlat_ref *ref, struct tp_hidden_edge *e)
{
	e->tsc_a = tp_counter();
	e->ref = ref->read(ref->ctx);
	e->tsc_b = tp_counter();
}

/*
 * The BSP's reads with the reference at the chunks' edges: the time an
 * edge and a chunk's arithmetic take is no gap of the scan (the next read
 * starts after them), and the chunks, edge to edge, leave no time out.
 */
static void bsp_sample(struct hwlat_run *r, struct tp_hwlat_report *rep, struct tp_hwlat_cpu *c)
{
	uint64_t chunk_ticks = r->plan.tsc_hz / 1000 * TP_HIDDEN_CHUNK_MS;
	struct tp_hidden_edge e0, e1;
	struct tp_hidden_chunk ch;
	struct hwlat_pos s;

	tp_hwlat_begin(r, c, &s);
	ref_edge(&rep->ref, &e0);
	s.prev = e0.tsc_b;
	while (s.prev < r->end_tsc) {
		uint64_t until = e0.tsc_b + chunk_ticks;

		tp_hwlat_span(r, c, &s, until < r->end_tsc ? until : r->end_tsc);
		ref_edge(&rep->ref, &e1);
		tp_hidden_chunk(&rep->ref.scale, &e0, &e1, &ch);
		tp_hidden_add(&rep->hidden, &ch);
		e0 = e1;
		s.prev = tp_counter();
	}
	tp_hwlat_end(r, c, &s);
}

void tp_hwlat_bsp_window(struct hwlat_run *r, struct tp_hwlat_report *rep)
{
	EFI_TPL old;

	/* UEFI 2.10, 7.5 SetWatchdogTimer: a timeout of 0 disables it */
	rep->watchdog_off = !EFI_ERROR(uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL));
	old = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_HIGH_LEVEL);
	rep->go_tsc = tp_counter() + r->plan.tsc_hz / 1000000 * HWLAT_LEAD_US;
	r->end_tsc = rep->go_tsc + rep->window_ticks;
	__atomic_store_n(&r->go_tsc, rep->go_tsc, __ATOMIC_RELEASE);
	if (rep->ref.read)
		bsp_sample(r, rep, &tp_hwlat_slots[0].cpu);
	else
		tp_hwlat_sample(r, &tp_hwlat_slots[0].cpu);
	__atomic_store_n(&tp_hwlat_slots[0].state, SLOT_DONE, __ATOMIC_RELEASE);
	uefi_call_wrapper(BS->RestoreTPL, 1, old);
	if (rep->watchdog_off)
		uefi_call_wrapper(BS->SetWatchdogTimer, 4, HWLAT_WATCHDOG_S, 0, 0, NULL);
}
