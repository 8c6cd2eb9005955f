/* SPDX-License-Identifier: MIT */
/*
 * Made-up record lines for the unit tests that read a run's kept records
 * back (test_verdict, test_readiness): recs holds nrecs bytes of lines
 * framed as the suite's emitter frames them (common/record.h's CRC).
 * Set nrecs to 0 to start again.
 */
#ifndef TP_TEST_MADEUP_H
#define TP_TEST_MADEUP_H

#include <stdio.h>
#include <string.h>

#include "../../common/record.h"

static char recs[1 << 16];
static size_t nrecs;

/* One record line of json, appended to recs; dropped whole when it does not fit. */
static void rec(const char *json)
{
	int n = snprintf(recs + nrecs, sizeof(recs) - nrecs, "TP1 %s *%08x\n", json,
			 tp_crc32(0, json, strlen(json)));

	if (n > 0 && (size_t)n < sizeof(recs) - nrecs)
		nrecs += (size_t)n;
}

#endif
