// SPDX-License-Identifier: MIT
/* The BSP's part of the pre-OS scan on both architectures; see hwlatrun.h. */
#include <efi.h>
#include <efilib.h>

#include "hwlatrun.h"

/* UEFI 2.10, 3.1.2: the boot manager arms a 5-minute watchdog before it starts an image. */
#define HWLAT_WATCHDOG_S 300

struct tp_hwlat_slot tp_hwlat_slots[TP_HWLAT_SLOTS];
struct hwlat_run tp_hwlat_run;

int tp_hwlat_reported(const struct tp_hwlat_report *rep, uint32_t i)
{
	return i < rep->nslots && __atomic_load_n(&rep->slot[i].state, __ATOMIC_ACQUIRE) == SLOT_DONE;
}

void tp_hwlat_prepare(struct hwlat_run *r, struct tp_hwlat_report *rep, int stuck)
{
	for (uint32_t i = 0; i < TP_HWLAT_SLOTS; i++)
		tp_hwlat_slots[i] = (struct tp_hwlat_slot){ 0 };
	*r = (struct hwlat_run){ .stuck_slot = UINT32_MAX };
	tp_hwlat_plan_init(&r->plan, rep->tsc_hz, rep->thresh_us);
	r->ready_ticks = rep->tsc_hz / 1000 * (HWLAT_READY_MS + 10);
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
}

void tp_hwlat_wait_ready(struct hwlat_run *r, const struct tp_hwlat_report *rep)
{
	uint64_t t0 = tp_counter(), limit = r->plan.tsc_hz / 1000 * HWLAT_READY_MS;

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

void tp_hwlat_bsp_window(struct hwlat_run *r, struct tp_hwlat_report *rep)
{
	EFI_TPL old;

	/* UEFI 2.10, 7.5 SetWatchdogTimer: a timeout of 0 disables it */
	rep->watchdog_off = !EFI_ERROR(uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL));
	old = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_HIGH_LEVEL);
	rep->go_tsc = tp_counter() + r->plan.tsc_hz / 1000000 * HWLAT_LEAD_US;
	r->end_tsc = rep->go_tsc + rep->window_ticks;
	__atomic_store_n(&r->go_tsc, rep->go_tsc, __ATOMIC_RELEASE);
	tp_hwlat_sample(r, &tp_hwlat_slots[0].cpu);
	__atomic_store_n(&tp_hwlat_slots[0].state, SLOT_DONE, __ATOMIC_RELEASE);
	uefi_call_wrapper(BS->RestoreTPL, 1, old);
	if (rep->watchdog_off)
		uefi_call_wrapper(BS->SetWatchdogTimer, 4, HWLAT_WATCHDOG_S, 0, 0, NULL);
}
