// SPDX-License-Identifier: MIT
/* What the firmware's references count (refsource.h). */
#include "refsource.h"

#include <stddef.h>

#include "buf.h"

static const struct tp_refsource refsources[] = {
	{ "arm64", "stall", "cntvct", "UEFI Stall on arm64 counts the generic timer itself "
				      "(edk2 ArmArchTimerLib)" },
	{ "arm64", "rtc", NULL, "not known: the RTC is a device of its own on most boards, but "
				"some firmware (the Raspberry Pi's UEFI) answers GetTime() from "
				"this counter, and under QEMU both follow the host's clocks" },
	{ "arm64", "gtdt", "cntvct", "every GTDT timer is driven by the system counter itself: "
				     "no independent reference" },
	{ "x86", "stall", NULL, "UEFI Stall(), the firmware's timer: not known which counter" },
};

/* 1 when the NUL-terminated a and b are equal. */
static int same(const char *a, const char *b)
{
	return tp_streqn(a, tp_strlen(a), b);
}

const struct tp_refsource *tp_refsource_on(const char *arch, const char *ref)
{
	for (size_t i = 0; arch && ref && i < sizeof(refsources) / sizeof(refsources[0]); i++)
		if (same(arch, refsources[i].arch) && same(ref, refsources[i].ref))
			return &refsources[i];
	return NULL;
}

const struct tp_refsource *tp_refsource(const char *ref)
{
	return tp_refsource_on(TP_REFSOURCE_ARCH, ref);
}

int tp_counts_independent(const char *counts)
{
	if (!counts || same(counts, "host"))
		return -1;
	return !same(counts, "tsc") && !same(counts, "cntvct");
}
