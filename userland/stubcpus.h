/* SPDX-License-Identifier: MIT */
/*
 * The stub's per-CPU records read back from its file (common/stubcpu.h):
 * every AP's pre-OS pair (`stub_tscsync`) and every CPU's pre-OS scan
 * (`stub_hwlat`), for the probes tscsync and hwlat. stubread.c hands each
 * whole record (its CRC checked) here; what a record says is checked again
 * (hardware IDs in 32 bits, lo <= hi within the round trip, at least one
 * sample, coverage within 100 %, no CPU twice, no more than
 * TP_STUB_CPUS_MAX) and a record that fails is refused with a reason.
 */
#ifndef TP_STUBCPUS_H
#define TP_STUBCPUS_H

#include "../common/stubcpu.h"
#include "recread.h"

struct stubcpus {
	struct tp_sc_preos preos;
	struct tp_sc_scan scan;
	unsigned int taken, refused;	/* per-CPU records */
};

void stubcpus_init(struct stubcpus *s);
/*
 * r into s when it is one of the stub's per-CPU records: NULL (taken, or
 * not one of them, or a pair the stub did not measure), or why it was refused.
 */
const char *stubcpus_take(struct stubcpus *s, const struct rec_view *r);

#endif
