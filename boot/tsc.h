/* SPDX-License-Identifier: MIT */
/*
 * TSC calibration in the stub: finds the references (ACPI tables, PIT, UEFI
 * Stall, CPUID), runs the rounds (measure.c), reduces them (calib.c) and
 * prints one "calib" record per reference and a "calib_summary".
 */
#ifndef TP_BOOT_TSC_H
#define TP_BOOT_TSC_H

#include <efi.h>

#include "../common/acpi.h"
#include "../common/skew.h"
#include "../common/x86clock.h"
#include "calib.h"
#include "console.h"
#include "efiacpi.h"
#include "hwlat.h"

enum tp_ref_id { TP_REF_HPET, TP_REF_PMTIMER, TP_REF_PIT, TP_REF_STALL, TP_REF_COUNT };

struct tp_ref_result {
	const char *name;
	int present;
	const char *reason;		/* why absent */
	struct tp_calib_result res;
	uint64_t duration_us;		/* all rounds, retries included */
	uint32_t retried;		/* rounds measured again (TP_MEASURE_NOISY) */
};

struct tp_tsc_report {
	struct tp_ref_result ref[TP_REF_COUNT];
	const char *chosen;		/* NULL when nothing worked */
	uint64_t tsc_hz;
	uint32_t max_disagreement_ppm;	/* among HPET, PM timer, PIT */
	int invariant_tsc;
	char calib_list[256];		/* "hpet:hz:ppm,pmtimer:hz:ppm,..." */
	struct tp_skew skew;		/* set by the caller: timeprobe.inject=skew:REF:PPM */
};

void tp_tsc_calibrate(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint32_t rounds,
		      uint32_t ms, struct tp_tsc_report *rep);

/*
 * The pre-OS scan's reference for hidden time (hwlat.h): the HPET when the
 * calibration measured it (started again if the firmware had it stopped),
 * else the ACPI PM timer, with the calibration's uncertainty of the TSC's
 * rate against it and an injected skew of it; else "none" and why (arm64:
 * nothing independent of CNTVCT_EL0). tp_tsc_scan_ref_end() after the scan
 * puts the HPET back as the firmware left it.
 */
void tp_tsc_scan_ref(const struct tp_tsc_report *rep, struct tp_hwlat_ref *ref);
void tp_tsc_scan_ref_end(void);

#endif
