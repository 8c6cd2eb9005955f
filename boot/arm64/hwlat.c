// SPDX-License-Identifier: MIT
/*
 * The pre-OS latency scan on arm64 (hwlat.h's interface; x86's is
 * boot/hwlat.c): not built yet. It needs every CPU spinning at once with
 * interrupts masked, and AAVMF offers no MP services; PSCI CPU_ON is the
 * way (docs/arm64.md). The report says so, and the records say it.
 */
#include <efi.h>

#include "../hwlat.h"

void tp_hwlat_scan(EFI_SYSTEM_TABLE *st, uint64_t tsc_hz, uint32_t window_ms,
		   uint32_t thresh_us, int stuck, struct tp_hwlat_report *rep)
{
	(void)st;
	(void)stuck;
	*rep = (struct tp_hwlat_report){ .window_ms = window_ms, .thresh_us = thresh_us,
					 .tsc_hz = tsc_hz };
	rep->why = window_ms ? "the pre-OS latency scan is not built for arm64 yet "
			       "(no MP services on AAVMF; PSCI CPU_ON is the way)"
			     : "timeprobe.hwlat_ms=0: no pre-OS latency scan";
}

int tp_hwlat_reported(const struct tp_hwlat_report *rep, uint32_t i)
{
	(void)rep;
	(void)i;
	return 0;
}
