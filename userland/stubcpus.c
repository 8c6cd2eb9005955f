// SPDX-License-Identifier: MIT
/* The stub's per-CPU records, read and checked; see stubcpus.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubcpus.h"

void stubcpus_init(struct stubcpus *s)
{
	s->preos.have_bsp = 0;
	s->preos.n = 0;
	s->scan.have_summary = 0;
	s->scan.n = 0;
	s->taken = s->refused = 0;
}

/* key as a decimal integer, the whole value; 0, or -1 when absent or not one. */
static int get_i64(const struct rec_view *r, const char *key, int64_t *v)
{
	char buf[24], *end;
	size_t n;
	const char *p = recread_raw(r, key, &n);

	if (!p || !n || n >= sizeof(buf))
		return -1;
	memcpy(buf, p, n);
	buf[n] = 0;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

static int get_u64(const struct rec_view *r, const char *key, uint64_t *v)
{
	char buf[24], *end;
	size_t n;
	const char *p = recread_raw(r, key, &n);

	if (!p || !n || n >= sizeof(buf) || p[0] == '-')
		return -1;
	memcpy(buf, p, n);
	buf[n] = 0;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

/* A hardware ID: key under either architecture's name (stubcpu.h), suffix "" "_a" "_b". */
static int get_id(const struct rec_view *r, const char *suffix, uint32_t *id)
{
	char k[16];
	uint64_t v;

	snprintf(k, sizeof(k), "%s%s", TP_SC_APIC, suffix);
	if (get_u64(r, k, &v)) {
		snprintf(k, sizeof(k), "%s%s", TP_SC_MPIDR, suffix);
		if (get_u64(r, k, &v))
			return -1;
	}
	if (v > UINT32_MAX)
		return -1;
	*id = (uint32_t)v;
	return 0;
}

/* tsc_adjust: an integer (present), null or absent (not present); -1: something else. */
static int get_adjust(const struct rec_view *r, struct tp_sc_adjust *a)
{
	size_t n;
	const char *p = recread_raw(r, TP_SC_ADJUST, &n);

	*a = (struct tp_sc_adjust){ 0 };
	if (!p || (n == 4 && !memcmp(p, "null", 4)))
		return 0;
	a->present = 1;
	return get_i64(r, TP_SC_ADJUST, &a->value);
}

static const char *take_bsp(struct tp_sc_preos *p, const struct rec_view *r)
{
	if (p->have_bsp)
		return "a second bsp record";
	if (get_id(r, "", &p->bsp_apic) || get_adjust(r, &p->bsp_adjust))
		return "bsp: no hardware ID, or a bad tsc_adjust";
	p->have_bsp = 1;
	return NULL;
}

/* The pair's figures, as common/handoff.c's parser checks the summary's. */
static const char *pair_figures(const struct rec_view *r, struct tp_sc_pair *e)
{
	int c;

	if (get_id(r, "_b", &e->apic) || get_i64(r, TP_SC_LO, &e->lo_ticks) ||
	    get_i64(r, TP_SC_HI, &e->hi_ticks) || get_u64(r, TP_SC_RTT, &e->rtt_ticks) ||
	    get_u64(r, TP_SC_SAMPLES, &e->samples) || !recread_bool(r, TP_SC_CONSISTENT, &c) ||
	    get_adjust(r, &e->adjust))
		return "pair: a key missing or not a number";
	e->consistent = c;
	if (e->lo_ticks > e->hi_ticks)
		return "pair: lo_ticks above hi_ticks";
	if ((uint64_t)e->hi_ticks - (uint64_t)e->lo_ticks > e->rtt_ticks)
		return "pair: an interval wider than its round trip";
	if (!e->samples)
		return "pair: no samples";
	return NULL;
}

static const char *take_pair(struct tp_sc_preos *p, const struct rec_view *r)
{
	struct tp_sc_pair e = { 0 };
	uint32_t a;
	int absent = 0;
	const char *why;

	if (recread_bool(r, TP_SC_ABSENT, &absent) && absent)
		return NULL;	/* not measured: its reason is in the record, kept */
	if ((why = pair_figures(r, &e)) != NULL)
		return why;
	if (!p->have_bsp || get_id(r, "_a", &a) || a != p->bsp_apic)
		return "pair: not against the BSP of the bsp record";
	if (e.apic == p->bsp_apic)
		return "pair: the BSP as its own AP";
	for (size_t i = 0; i < p->n; i++)
		if (p->pair[i].apic == e.apic)
			return "pair: an AP given twice";
	if (p->n >= sizeof(p->pair) / sizeof(p->pair[0]))
		return "pair: more than TP_STUB_CPUS_MAX CPUs";
	p->pair[p->n++] = e;
	return NULL;
}

/* A scanned CPU's figures; coverage_pct is a percentage with 4 decimals. */
static const char *cpu_figures(const struct rec_view *r, struct tp_sc_cpu *c)
{
	double cov;
	size_t n;
	const char *smi;

	if (get_u64(r, TP_SC_GAPS, &c->count) || get_u64(r, TP_SC_MAX_NS, &c->max_ns) ||
	    get_u64(r, TP_SC_TOTAL_NS, &c->total_ns) || !recread_num(r, TP_SC_COVERAGE, &cov))
		return "cpu: a key missing or not a number";
	if (!(cov >= 0 && cov <= 100))
		return "cpu: coverage_pct outside 0..100";
	c->coverage_ppm = (uint32_t)llround(cov * 10000);
	smi = recread_raw(r, TP_SC_SMI, &n);
	c->smi_read = smi && !(n == 4 && !memcmp(smi, "null", 4));
	if (c->smi_read && get_u64(r, TP_SC_SMI, &c->smi))
		return "cpu: smi_n not a number";
	return NULL;
}

static const char *take_cpu(struct tp_sc_scan *s, const struct rec_view *r)
{
	struct tp_sc_cpu c = { 0 };
	const char *why;

	if (get_id(r, "", &c.apic) || !recread_bool(r, TP_SC_REPORTED, &c.reported))
		return "cpu: no hardware ID or no reported";
	if (c.reported && (why = cpu_figures(r, &c)) != NULL)
		return why;
	for (size_t i = 0; i < s->n; i++)
		if (s->cpu[i].apic == c.apic)
			return "cpu: a CPU given twice";
	if (s->n >= sizeof(s->cpu) / sizeof(s->cpu[0]))
		return "cpu: more than TP_STUB_CPUS_MAX CPUs";
	s->cpu[s->n++] = c;
	return NULL;
}

static const char *take_summary(struct tp_sc_scan *s, const struct rec_view *r)
{
	int scanned = 0;
	uint64_t w, t, sw;

	if (!recread_bool(r, TP_SC_SCANNED, &scanned) || !scanned)
		return NULL;	/* no scan: its reason is in the record, kept */
	if (s->have_summary)
		return "summary: a second one";
	if (get_u64(r, TP_SC_WINDOW, &w) || get_u64(r, TP_SC_THRESH, &t) ||
	    get_u64(r, TP_SC_SYSTEM_WIDE, &sw) || get_u64(r, TP_SC_SYSTEM_WIDE_MAX,
							   &s->system_wide_max_ns) ||
	    w > UINT32_MAX || t > UINT32_MAX || sw > UINT32_MAX)
		return "summary: a key missing or out of range";
	s->window_ms = (uint32_t)w;
	s->thresh_us = (uint32_t)t;
	s->system_wide = (uint32_t)sw;
	s->have_summary = 1;
	return NULL;
}

const char *stubcpus_take(struct stubcpus *s, const struct rec_view *r)
{
	const char *why = NULL;

	if (recread_is(r, "type", TP_SC_TSCSYNC)) {
		if (recread_is(r, TP_SC_WHAT, TP_SC_BSP))
			why = take_bsp(&s->preos, r);
		else if (recread_is(r, TP_SC_WHAT, TP_SC_PAIR))
			why = take_pair(&s->preos, r);
		else
			return NULL;
	} else if (recread_is(r, "type", TP_SC_HWLAT)) {
		if (recread_is(r, TP_SC_WHAT, TP_SC_CPU))
			why = take_cpu(&s->scan, r);
		else if (recread_is(r, TP_SC_WHAT, TP_SC_SUMMARY))
			why = take_summary(&s->scan, r);
		else
			return NULL;
	} else {
		return NULL;
	}
	if (why)
		s->refused++;
	else
		s->taken++;
	return why;
}
