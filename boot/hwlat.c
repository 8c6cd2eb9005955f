// SPDX-License-Identifier: MIT
/*
 * The pre-OS hardware-latency scan on every CPU at once, x86's start of
 * the APs through MP services (the run itself: hwlatrun.h); see hwlat.h
 * and docs/probes/hwlat.md. The AP runs ap_scan() and nothing else of ours: no
 * UEFI service, only loads, stores, CPUID, RDTSC, CLI/POPF and (when
 * tp_hwlat_smi_readable() said so) RDMSR; every wait on either side ends
 * at a time-out, and the BSP waits for no AP past its own: a stuck AP can
 * never hang the boot, it is named as not reported.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/x86clock.h"
#include "hwlatrun.h"
#include "mpservices.h"
#include "x86.h"

/* StartupAllAPs' own limit beyond the window, after which the firmware takes the APs back. */
#define HWLAT_FW_SLACK_MS 3000
/* The firmware's word that the APs returned (EDK II polls them every 100 ms). */
#define HWLAT_FINISH_MS 3000

/* On each AP, called by the firmware: the shared part (hwlatrun.h). */
static VOID EFIAPI ap_scan(VOID *arg)
{
	tp_hwlat_ap(arg);
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
	if (!EFI_ERROR(status))
		tp_hwlat_expect_init(rep, enabled ? enabled - 1 : 0);
	for (UINTN n = 0; !EFI_ERROR(status) && n < processors; n++) {
		if (n == bsp)
			continue;
		if (EFI_ERROR(uefi_call_wrapper(mp->get_processor_info, 3, mp, n, &info)) ||
		    (info.status_flag & usable) != usable)
			continue;
		tp_hwlat_expect(rep, (uint32_t)info.processor_id);
	}
	return status;
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

/* The APs through StartupAllAPs (none when there are none), the BSP, the end. */
static void scan(struct tp_mp_services *mp, struct tp_hwlat_report *rep, int stuck)
{
	struct hwlat_run *r = &tp_hwlat_run;
	uint64_t limit_ms = rep->window_ms + HWLAT_READY_MS + HWLAT_FW_SLACK_MS +
			    HWLAT_READY_MS_PER_AP * (uint64_t)rep->aps_expected;
	EFI_EVENT ev = NULL;
	uint64_t t0 = tp_rdtsc();

	tp_hwlat_prepare(r, rep, stuck);
	if (mp && rep->aps_expected) {
		/* UEFI 2.10, 7.1 CreateEvent: type 0, polled with CheckEvent */
		rep->status = uefi_call_wrapper(BS->CreateEvent, 5, 0, TPL_CALLBACK, NULL, NULL, &ev);
		if (!EFI_ERROR(rep->status))
			rep->status = uefi_call_wrapper(mp->startup_all_aps, 7, mp, ap_scan, FALSE, ev,
							(UINTN)(limit_ms * 1000), r, NULL);
		if (EFI_ERROR(rep->status))
			rep->why = "StartupAllAPs (non-blocking) failed: the BSP alone";
		else
			tp_hwlat_wait_ready(r, rep);
	}
	tp_hwlat_bsp_window(r, rep);
	tp_hwlat_wait_done(r, rep);
	if (!rep->why && ev)
		wait_finish(ev, rep->aps_started == rep->aps_expected && !stuck ?
			    HWLAT_FINISH_MS : limit_ms + HWLAT_FINISH_MS, rep);
	if (ev)
		uefi_call_wrapper(BS->CloseEvent, 1, ev);
	rep->scanned = 1;
	rep->duration_ms = (tp_rdtsc() - t0) / (rep->tsc_hz / 1000);
}

void tp_hwlat_scan(EFI_SYSTEM_TABLE *st, uint64_t tsc_hz, uint32_t window_ms,
		   uint32_t thresh_us, int stuck, const struct tp_hwlat_ref *ref,
		   struct tp_hwlat_report *rep)
{
	static EFI_GUID guid = TP_MP_SERVICES_PROTOCOL_GUID;
	struct tp_mp_services *mp = NULL;
	EFI_STATUS status;

	if (tp_hwlat_plan(rep, tsc_hz, window_ms, thresh_us, ref))
		return;
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
