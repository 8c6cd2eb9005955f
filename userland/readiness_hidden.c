// SPDX-License-Identifier: MIT
/*
 * The figure of `hidden_gaps`: the stub's `stub_hwlat` summary, its BSP's
 * chunks against a reference independent of the TSC (common/hidden.h,
 * keys in common/stubcpu.h); see readiness.h.
 */
#include <math.h>
#include <stdio.h>

#include "../common/stubcpu.h"
#include "readiness.h"
#include "recread.h"

/* The last stub_hwlat summary of the records; 1 found. */
static int find_summary(const char *recs, size_t len, struct rec_view *out)
{
	const char *pos = recs;
	struct rec_view r;
	int found = 0;

	while (recread_next(&pos, recs + len, &r))
		if (recread_is(&r, "type", TP_SC_HWLAT) && recread_is(&r, TP_SC_WHAT, TP_SC_SUMMARY)) {
			*out = r;
			found = 1;
		}
	return found;
}

double readiness_hidden(const char *recs, size_t len, char *from, size_t nfrom, char *why,
			size_t nwhy)
{
	char ref[24], text[READINESS_TEXT] = "";
	struct rec_view r;
	double chunks, gaps;
	int scanned = 0;

	if (!find_summary(recs, len, &r)) {
		snprintf(why, nwhy, "no stub_hwlat summary (not booted through the stub)");
		return NAN;
	}
	recread_bool(&r, TP_SC_SCANNED, &scanned);
	recread_str(&r, scanned ? TP_SC_HIDDEN_REASON : "reason", text, sizeof(text));
	if (!scanned) {
		snprintf(why, nwhy, "no pre-OS scan: %s", text);
		return NAN;
	}
	if (!recread_str(&r, TP_SC_HIDDEN_REF, ref, sizeof(ref))) {
		snprintf(why, nwhy, "the stub's scan read the TSC alone (no %s)", TP_SC_HIDDEN_REF);
		return NAN;
	}
	if (text[0]) {
		snprintf(why, nwhy, "no reference in the pre-OS scan: %s", text);
		return NAN;
	}
	if (!recread_num(&r, TP_SC_HIDDEN_CHUNKS, &chunks) ||
	    !recread_num(&r, TP_SC_HIDDEN_GAPS, &gaps) || !(chunks > 0)) {
		snprintf(why, nwhy, "the pre-OS scan compared no chunk with %s", ref);
		return NAN;
	}
	snprintf(from, nfrom, "stub_hwlat: pre-OS scan against %s, %.0f chunks", ref, chunks);
	return gaps;
}
