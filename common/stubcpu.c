// SPDX-License-Identifier: MIT
/* The stub's per-CPU records' keys; see stubcpu.h. */
#include "stubcpu.h"
#include "tscsync.h"

void tp_sc_pair_keys(struct tp_rec *r, const struct tp_sc_pair *e)
{
	struct tscsync_interval iv = { .lo_ticks = e->lo_ticks, .hi_ticks = e->hi_ticks };

	tp_rec_int(r, TP_SC_LO, e->lo_ticks);
	tp_rec_int(r, TP_SC_HI, e->hi_ticks);
	tp_rec_int(r, TP_SC_OFFSET, tscsync_mid_ticks(&iv));
	tp_rec_uint(r, TP_SC_BOUND, tscsync_half_ticks(&iv));
	tp_rec_int(r, TP_SC_RTT, (int64_t)e->rtt_ticks);
	tp_rec_uint(r, TP_SC_SAMPLES, e->samples);
	tp_rec_bool(r, TP_SC_CONSISTENT, e->consistent);
	tp_rec_bool(r, TP_SC_EXCLUDES_ZERO, e->lo_ticks > 0 || e->hi_ticks < 0);
}

void tp_sc_adjust_keys(struct tp_rec *r, const struct tp_sc_adjust *a)
{
	if (a->present) {
		tp_rec_int(r, TP_SC_ADJUST, a->value);
		return;
	}
	tp_rec_null(r, TP_SC_ADJUST);
	tp_rec_str(r, TP_SC_ADJUST_REASON, "CPUID.(EAX=07H,ECX=0):EBX[1] clear: no IA32_TSC_ADJUST");
}

void tp_sc_scan_keys(struct tp_rec *r, const char *id_key, const struct tp_sc_cpu *c)
{
	tp_rec_uint(r, id_key, c->apic);
	tp_rec_bool(r, TP_SC_REPORTED, c->reported);
	if (!c->reported)
		return;
	tp_rec_fixed(r, TP_SC_COVERAGE, c->coverage_ppm, 4);
	tp_rec_uint(r, TP_SC_GAPS, c->count);
	tp_rec_uint(r, TP_SC_MAX_NS, c->max_ns);
	tp_rec_uint(r, TP_SC_TOTAL_NS, c->total_ns);
	if (c->smi_read)
		tp_rec_uint(r, TP_SC_SMI, c->smi);
	else
		tp_rec_null(r, TP_SC_SMI);
}
