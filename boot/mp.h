/* SPDX-License-Identifier: MIT */
/*
 * The TSC offsets before the OS: through the firmware's MP services
 * (boot/mpservices.h), the BSP against each AP with the cache-line round
 * trips of common/tscsync.h, and IA32_TSC_ADJUST on each CPU. Prints
 * `stub_tscsync` records and fills the value of timeprobe.tsc_preos=
 * (common/handoff.h). See docs/stub.md, "TSC offsets before the OS".
 */
#ifndef TP_BOOT_MP_H
#define TP_BOOT_MP_H

#include <efi.h>

#include "../common/handoff.h"
#include "console.h"

struct tp_mp_report {
	int measured;			/* the word below is worth handing over */
	struct tp_preos preos;
	size_t left_out;		/* pairs left out of the word for length */
	char word[TP_PREOS_WORD_MAX + 1];	/* timeprobe.tsc_preos's value, or "" */
};

/* tsc_hz: the calibration's figure (0: unknown), for the spin time-outs. */
void tp_mp_tscsync(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint64_t tsc_hz,
		   struct tp_mp_report *rep);

#endif
