// SPDX-License-Identifier: MIT
/* The verdict's words against an item's bounds; see verdict.h and docs/verdict.md. Freestanding. */
#include "verdict.h"

enum verdict_word verdict_word_of(const struct verdict_limit *l, double v)
{
	if (v != v)
		return VW_NOT_MEASURED;
	if (!l->unit)
		return v != 0 ? VW_GOOD : VW_POOR;
	if (v < 0)
		v = -v;
	if (v <= l->good_max)
		return VW_GOOD;
	return v <= l->fair_max ? VW_FAIR : VW_POOR;
}

const char *verdict_word_name(enum verdict_word w)
{
	static const char *const names[] = {
		[VW_NOT_MEASURED] = "not measured", [VW_UNKNOWN] = "unknown",
		[VW_POOR] = "poor", [VW_FAIR] = "fair", [VW_GOOD] = "good",
	};

	return (unsigned)w < sizeof(names) / sizeof(names[0]) ? names[w] : "unknown";
}
