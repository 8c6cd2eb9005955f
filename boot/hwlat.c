// SPDX-License-Identifier: MIT
/*
 * The pre-OS hardware-latency scan on every CPU at once; see hwlat.h and
 * docs/probes/hwlat.md. The AP runs ap_scan() and nothing else of ours: no
 * UEFI service, only loads, stores, CPUID, RDTSC, CLI/POPF and (when
 * tp_hwlat_smi_readable() said so) RDMSR; every wait on either side ends
 * at a time-out, and the BSP waits for no AP past its own: a stuck AP can
 * never hang the boot, it is named as not reported.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/x86clock.h"
#include "hwlat.h"
#include "mpservices.h"
#include "x86.h"

/* IA32_SMI_COUNT (Intel SDM vol. 4, table 2-20 onwards): SMIs since reset, bits 31:0. */
#define MSR_SMI_COUNT 0x34
/* The APs' start: StartupAllAPs to every AP in its slot. */
#define HWLAT_READY_MS 1000
/* From the BSP's go to the window's start: the APs see go before it. */
#define HWLAT_LEAD_US 1000
/* After the window: the APs' last reads and their return. */
#define HWLAT_GRACE_MS 1000
/* StartupAllAPs' own limit beyond the window, after which the firmware takes the APs back. */
#define HWLAT_FW_SLACK_MS 3000
/* The firmware's word that the APs returned (EDK II polls them every 100 ms). */
#define HWLAT_FINISH_MS 3000
/* UEFI 2.10, 3.1.2: the boot manager arms a 5-minute watchdog before it starts an image. */
#define HWLAT_WATCHDOG_S 300

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

static struct tp_hwlat_slot slots[TP_HWLAT_SLOTS];
static struct hwlat_run run_;

/* The running CPU's APIC ID: x2APIC (CPUID 0xB) where enumerated, else xAPIC. */
static inline __attribute__((always_inline)) uint32_t apic_id(void)
{
	if (tp_cpuid(0, 0).eax >= 0xb) {
		struct tp_cpuid r = tp_cpuid(0xb, 0);

		if (r.ebx)
			return r.edx;
	}
	return tp_cpuid(1, 0).ebx >> 24;
}

/* The window on this CPU: reads until end_tsc; gaps go to c. */
static inline __attribute__((always_inline)) void sample(struct hwlat_run *r,
							 struct tp_hwlat_cpu *c)
{
	const struct tp_hwlat_plan *p = &r->plan;
	uint64_t end = r->end_tsc, smi = 0, prev, now;

	if (r->smi_readable)
		c->smi_before = smi = tp_rdmsr(MSR_SMI_COUNT) & 0xffffffffu;
	c->has_smi = r->smi_readable;
	while ((prev = tp_rdtsc()) < r->go_tsc)
		__builtin_ia32_pause();
	c->first_tsc = prev;
	c->samples = 1;
	do {
		now = tp_rdtsc();
		c->samples++;
		if (now - prev >= p->thresh_ticks) {
			enum tp_hwlat_smi s = TP_HWLAT_SMI_UNKNOWN;

			if (r->smi_readable && now - prev >= p->smi_ticks) {
				uint64_t v = tp_rdmsr(MSR_SMI_COUNT) & 0xffffffffu;

				s = v != smi ? TP_HWLAT_SMI_YES : TP_HWLAT_SMI_NO;
				smi = v;
				now = tp_rdtsc();	/* the MSR read is not the next gap */
			}
			tp_hwlat_note(c, p, prev, now - prev, s);
		}
		prev = now;
	} while (now < end);
	c->last_tsc = prev;
	if (r->smi_readable)
		c->smi_after = tp_rdmsr(MSR_SMI_COUNT) & 0xffffffffu;
}

/* Waits for go or stop, up to ready_ticks; 0 when go came. */
static inline __attribute__((always_inline)) int wait_go(struct hwlat_run *r)
{
	uint64_t t0 = tp_rdtsc();

	while (!__atomic_load_n(&r->go_tsc, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE) || tp_rdtsc() - t0 > r->ready_ticks)
			return -1;
		__builtin_ia32_pause();
	}
	return 0;
}

/* On each AP: a slot, interrupts off, the window, done. */
static VOID EFIAPI ap_scan(VOID *arg)
{
	struct hwlat_run *r = arg;
	uint32_t k = __atomic_fetch_add(&r->next_slot, 1, __ATOMIC_ACQ_REL);
	struct tp_hwlat_slot *sl;
	uint64_t flags;

	if (k >= r->nslots)
		return;
	sl = &slots[k];
	sl->cpu.apic = apic_id();
	__atomic_store_n(&sl->state, SLOT_CLAIMED, __ATOMIC_RELEASE);
	if (k == r->stuck_slot)
		for (;;)
			__builtin_ia32_pause();	/* the injected hang: never returns */
	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	if (!wait_go(r))
		sample(r, &sl->cpu);
	__asm__ __volatile__("pushq %0; popfq" : : "r"(flags) : "memory", "cc");
	__atomic_store_n(&sl->state, SLOT_DONE, __ATOMIC_RELEASE);
}

int tp_hwlat_reported(const struct tp_hwlat_report *rep, uint32_t i)
{
	return i < rep->nslots && __atomic_load_n(&rep->slot[i].state, __ATOMIC_ACQUIRE) == SLOT_DONE;
}

/* The vendor, CPUID 1 and the hypervisor's signature: may IA32_SMI_COUNT be read? */
static int smi_readable(void)
{
	struct tp_cpuid v = tp_cpuid(0, 0), f = tp_cpuid(1, 0);
	char vendor[13], hv[13] = "";

	tp_cpuid_text(v.ebx, v.edx, v.ecx, vendor);
	if (f.ecx & (1u << 31)) {
		struct tp_cpuid h = tp_cpuid(TP_HV_LEAF_BASE, 0);

		tp_cpuid_text(h.ebx, h.ecx, h.edx, hv);
		if (!hv[0])
			hv[0] = '?';	/* a hypervisor without a name: not read */
	}
	return tp_hwlat_smi_readable(vendor, f.eax, hv);
}

/* The enabled, healthy APs and their APIC IDs; 0 or the failed call's status. */
static EFI_STATUS count_aps(struct tp_mp_services *mp, struct tp_hwlat_report *rep)
{
	const UINT32 usable = TP_PROCESSOR_ENABLED_BIT | TP_PROCESSOR_HEALTH_STATUS_BIT;
	UINTN processors, enabled, bsp;
	struct tp_processor_info info;
	EFI_STATUS status;

	status = uefi_call_wrapper(mp->get_number_of_processors, 3, mp, &processors, &enabled);
	if (!EFI_ERROR(status))
		status = uefi_call_wrapper(mp->who_am_i, 2, mp, &bsp);
	for (UINTN n = 0; !EFI_ERROR(status) && n < processors; n++) {
		if (n == bsp)
			continue;
		if (EFI_ERROR(uefi_call_wrapper(mp->get_processor_info, 3, mp, n, &info)) ||
		    (info.status_flag & usable) != usable)
			continue;
		if (rep->aps_expected + 1 >= TP_HWLAT_SLOTS) {
			rep->aps_over_cap++;
			continue;
		}
		rep->expected_apic[rep->aps_expected++] = (uint32_t)info.processor_id;
	}
	return status;
}

/* Spins until every AP expected claimed a slot, or HWLAT_READY_MS. */
static void wait_ready(struct hwlat_run *r, const struct tp_hwlat_report *rep)
{
	uint64_t t0 = tp_rdtsc(), limit = r->plan.tsc_hz / 1000 * HWLAT_READY_MS;

	while (__atomic_load_n(&r->next_slot, __ATOMIC_ACQUIRE) < 1 + rep->aps_expected &&
	       tp_rdtsc() - t0 < limit)
		__builtin_ia32_pause();
}

/* After the window: every claimed slot done, or HWLAT_GRACE_MS; then stop. */
static void wait_done(struct hwlat_run *r, struct tp_hwlat_report *rep)
{
	uint64_t t0 = tp_rdtsc(), limit = r->plan.tsc_hz / 1000 * HWLAT_GRACE_MS;
	uint32_t claimed = __atomic_load_n(&r->next_slot, __ATOMIC_ACQUIRE);

	rep->nslots = claimed < r->nslots ? claimed : r->nslots;
	for (uint32_t i = 1; i < rep->nslots; i++)
		while (!tp_hwlat_reported(rep, i) && tp_rdtsc() - t0 < limit)
			__builtin_ia32_pause();
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	rep->aps_started = rep->nslots - 1;
}

/* Polls StartupAllAPs' event up to ms: the firmware's word that every AP returned or was reset. */
static void wait_finish(EFI_EVENT ev, uint64_t ms, struct tp_hwlat_report *rep)
{
	for (uint64_t i = 0; ev && i < ms; i++) {
		EFI_STATUS s = uefi_call_wrapper(BS->CheckEvent, 1, ev);

		if (s == EFI_SUCCESS) {
			rep->finish_seen = 1;
			return;
		}
		uefi_call_wrapper(BS->Stall, 1, 1000);
	}
}

/* The BSP's window, at TPL_HIGH_LEVEL (no firmware timer interrupt) with the watchdog off. */
static void bsp_window(struct hwlat_run *r, struct tp_hwlat_report *rep)
{
	EFI_TPL old;

	/* UEFI 2.10, 7.5 SetWatchdogTimer: a timeout of 0 disables it */
	rep->watchdog_off = !EFI_ERROR(uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL));
	old = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_HIGH_LEVEL);
	rep->go_tsc = tp_rdtsc() + r->plan.tsc_hz / 1000000 * HWLAT_LEAD_US;
	r->end_tsc = rep->go_tsc + rep->window_ticks;
	__atomic_store_n(&r->go_tsc, rep->go_tsc, __ATOMIC_RELEASE);
	sample(r, &slots[0].cpu);
	__atomic_store_n(&slots[0].state, SLOT_DONE, __ATOMIC_RELEASE);
	uefi_call_wrapper(BS->RestoreTPL, 1, old);
	if (rep->watchdog_off)
		uefi_call_wrapper(BS->SetWatchdogTimer, 4, HWLAT_WATCHDOG_S, 0, 0, NULL);
}

/* Fresh slots and plan; the BSP in slot 0. */
static void prepare(struct hwlat_run *r, struct tp_hwlat_report *rep, int stuck)
{
	for (uint32_t i = 0; i < TP_HWLAT_SLOTS; i++)
		slots[i] = (struct tp_hwlat_slot){ 0 };
	*r = (struct hwlat_run){ .stuck_slot = UINT32_MAX };
	tp_hwlat_plan_init(&r->plan, rep->tsc_hz, rep->thresh_us);
	r->ready_ticks = rep->tsc_hz / 1000 * (HWLAT_READY_MS + 10);
	r->smi_readable = (uint32_t)rep->smi_readable;
	r->nslots = 1 + rep->aps_expected;
	r->next_slot = 1;
	if (stuck && rep->aps_expected)
		r->stuck_slot = rep->aps_expected;
	slots[0].bsp = 1;
	slots[0].cpu.apic = apic_id();
	slots[0].state = SLOT_CLAIMED;
	rep->slot = slots;
	rep->nslots = 1;
	rep->plan = r->plan;
}

/* The APs through StartupAllAPs (none when there are none), the BSP, the end. */
static void scan(struct tp_mp_services *mp, struct tp_hwlat_report *rep, int stuck)
{
	struct hwlat_run *r = &run_;
	uint64_t limit_ms = rep->window_ms + HWLAT_READY_MS + HWLAT_FW_SLACK_MS;
	EFI_EVENT ev = NULL;
	uint64_t t0 = tp_rdtsc();

	prepare(r, rep, stuck);
	if (mp && rep->aps_expected) {
		/* UEFI 2.10, 7.1 CreateEvent: type 0, polled with CheckEvent */
		rep->status = uefi_call_wrapper(BS->CreateEvent, 5, 0, TPL_CALLBACK, NULL, NULL, &ev);
		if (!EFI_ERROR(rep->status))
			rep->status = uefi_call_wrapper(mp->startup_all_aps, 7, mp, ap_scan, FALSE, ev,
							(UINTN)(limit_ms * 1000), r, NULL);
		if (EFI_ERROR(rep->status))
			rep->why = "StartupAllAPs (non-blocking) failed: the BSP alone";
		else
			wait_ready(r, rep);
	}
	bsp_window(r, rep);
	wait_done(r, rep);
	if (!rep->why && ev)
		wait_finish(ev, rep->aps_started == rep->aps_expected && !stuck ?
			    HWLAT_FINISH_MS : limit_ms + HWLAT_FINISH_MS, rep);
	if (ev)
		uefi_call_wrapper(BS->CloseEvent, 1, ev);
	rep->scanned = 1;
	rep->duration_ms = (tp_rdtsc() - t0) / (rep->tsc_hz / 1000);
}

void tp_hwlat_scan(EFI_SYSTEM_TABLE *st, uint64_t tsc_hz, uint32_t window_ms,
		   uint32_t thresh_us, int stuck, struct tp_hwlat_report *rep)
{
	static EFI_GUID guid = TP_MP_SERVICES_PROTOCOL_GUID;
	struct tp_mp_services *mp = NULL;
	EFI_STATUS status;

	*rep = (struct tp_hwlat_report){ .window_ms = window_ms, .thresh_us = thresh_us,
					 .tsc_hz = tsc_hz };
	if (!window_ms) {
		rep->why = "timeprobe.hwlat_ms=0: no pre-OS latency scan";
		return;
	}
	if (tsc_hz < 1000000) {
		rep->why = "no TSC calibration: no pre-OS latency scan";
		return;
	}
	rep->window_ticks = tp_muldiv64(window_ms, tsc_hz, 1000, 0);
	rep->smi_readable = smi_readable();
	/* UEFI 2.10, 7.3 LocateProtocol */
	status = uefi_call_wrapper(st->BootServices->LocateProtocol, 3, &guid, NULL, (void **)&mp);
	if (EFI_ERROR(status) || !mp) {
		mp = NULL;
		rep->status = status;
	} else {
		rep->status = count_aps(mp, rep);
		if (EFI_ERROR(rep->status))
			mp = NULL;
	}
	scan(mp, rep, stuck);
	if (!mp && !rep->why)
		rep->why = "no EFI_MP_SERVICES_PROTOCOL: the BSP alone";
}
