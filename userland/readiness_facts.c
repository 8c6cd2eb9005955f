// SPDX-License-Identifier: MIT
/* What a run's records say for the tsc_readiness record; see readiness.h. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "readiness.h"
#include "recread.h"

/* The three platform references (the last resort, UEFI Stall(), is not one). */
static const char *const hw_refs[] = { "hpet", "pmtimer", "pit" };

int readiness_is_platform(const char *ref)
{
	for (size_t i = 0; i < sizeof(hw_refs) / sizeof(hw_refs[0]); i++)
		if (!strcmp(ref, hw_refs[i]))
			return 1;
	return 0;
}

static void facts_init(struct readiness_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->invariant = -1;
	f->stub_vs_kernel_ppm = f->cpuid15_hz = f->stub_hz = f->warps = NAN;
	f->offset_ns = f->bound_ns = f->preos_offset_ns = f->adjust_changed = NAN;
	f->counter_bad = f->cpus = NAN;
}

static void add_clock(struct readiness_clock *c, size_t *n, const char *name, double hz,
		      double unc)
{
	if (*n >= READINESS_CLOCKS || !(hz > 0))
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(c[i].name, name))
			return;	/* a repeat of the suite: the first iteration's */
	snprintf(c[*n].name, sizeof(c[*n].name), "%s", name);
	c[*n].tsc_hz = hz;
	c[*n].unc_ppm = isfinite(unc) ? fabs(unc) : 0;
	(*n)++;
}

/* The stub's calibration as the tsc probe hands it on: one calib record per reference. */
static void from_calib(struct readiness_facts *f, const struct rec_view *r)
{
	char ref[24];
	double hz, spread = 0;

	if (!recread_is(r, "source", "stub") || !recread_str(r, "ref", ref, sizeof(ref)) ||
	    !recread_num(r, "tsc_hz", &hz))
		return;
	recread_num(r, "spread_ppm", &spread);
	add_clock(f->pre, &f->npre, ref, hz, spread);
}

/* The figures taken as they are: the last result of its probe that has the key wins. */
static const struct {
	const char *probe, *key;
	size_t at;	/* the double in struct readiness_facts */
} plain[] = {
	{ "tsc", "stub_vs_kernel_ppm", offsetof(struct readiness_facts, stub_vs_kernel_ppm) },
	{ "tsc", "stub_hz", offsetof(struct readiness_facts, stub_hz) },
	{ "tsc", "cpuid15_tsc_hz", offsetof(struct readiness_facts, cpuid15_hz) },
	{ "tsc", "pairs_with_warps", offsetof(struct readiness_facts, warps) },
	{ "tscsync", "max_abs_offset_ns", offsetof(struct readiness_facts, offset_ns) },
	{ "tscsync", "max_bound_ns", offsetof(struct readiness_facts, bound_ns) },
	{ "tscsync", "preos_max_abs_offset_ns", offsetof(struct readiness_facts, preos_offset_ns) },
	{ "tscsync", "tsc_adjust_changed", offsetof(struct readiness_facts, adjust_changed) },
};

static void from_plain(struct readiness_facts *f, const struct rec_view *r, const char *probe)
{
	double x;

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(plain[i].probe, probe) && recread_num(r, plain[i].key, &x))
			*(double *)((char *)f + plain[i].at) = x;
}

/* The stub's and the kernel's figures are one when the kernel took the stub's. */
static void from_tsc(struct readiness_facts *f, const struct rec_view *r)
{
	size_t n, m;
	const char *bc = recread_raw(r, "by_construction", &n);

	if (recread_raw(r, "stub_vs_kernel_ppm", &m))
		f->stub_kernel_one_origin = bc && memmem(bc, n, "stub_vs_kernel_ppm", 18);
}

/* Probe counter's scan of each CPU: steps that went back or bore an erratum's signature. */
static void from_counter(struct readiness_facts *f, const struct rec_view *r)
{
	double sig = 0, back = 0;
	int any = recread_num(r, "signatures", &sig);

	any |= recread_num(r, "backwards", &back);
	if (any)
		f->counter_bad = (isfinite(f->counter_bad) ? f->counter_bad : 0) + sig + back;
}

/*
 * The TSC's rate against each platform counter (whatever the stub chose:
 * the vote compares each with the others, not with the stub's figure) and
 * against any other counter drift finds independent of the TSC; not A vs B.
 */
static void from_drift(struct readiness_facts *f, const struct rec_view *r)
{
	char ref[24];
	double hz, lo = 0, hi = 0, stub;
	int indep = 0;
	size_t n;

	if (!recread_str(r, "ref", ref, sizeof(ref)) || !recread_num(r, "tsc_hz", &hz) ||
	    !recread_raw(r, "freq_ppm", &n))
		return;
	recread_bool(r, "independent", &indep);
	if (!readiness_is_platform(ref) && indep != 1)
		return;
	recread_num(r, "window_ppm_min", &lo);
	recread_num(r, "window_ppm_max", &hi);
	if (recread_num(r, "stub_hz", &stub) && !isfinite(f->stub_hz))
		f->stub_hz = stub;
	add_clock(f->post, &f->npost, ref, hz, (hi - lo) / 2);
}

/* Why drift has no platform counter: its skips' reasons, "hpet: ...; pmtimer: ...". */
static void drift_skip(struct readiness_facts *f, const struct rec_view *r)
{
	char name[48], why[96];
	size_t len = strlen(f->drift_why);

	if (!recread_str(r, "name", name, sizeof(name)) || strncmp(name, "drift vs ", 9) ||
	    !readiness_is_platform(name + 9) || !recread_str(r, "reason", why, sizeof(why)))
		return;
	snprintf(f->drift_why + len, sizeof(f->drift_why) - len, "%s%s: %s", len ? "; " : "",
		 name + 9, why);
}

static void read_one(struct readiness_facts *f, int *inv, const struct rec_view *r)
{
	char type[32], probe[32];

	if (!recread_str(r, "type", type, sizeof(type)))
		return;
	if (!strcmp(type, "fingerprint") && recread_bool(r, "invariant_tsc", inv))
		return;
	if (!strcmp(type, "run") && recread_num(r, "cpus", &f->cpus))
		return;
	if (!recread_str(r, "probe", probe, sizeof(probe)))
		return;
	if (!strcmp(type, "skip") && !strcmp(probe, "drift"))
		drift_skip(f, r);
	if (!strcmp(type, "calib") && !strcmp(probe, "tsc"))
		from_calib(f, r);
	if (strcmp(type, "result"))
		return;
	from_plain(f, r, probe);
	if (!strcmp(probe, "tsc"))
		from_tsc(f, r);
	else if (!strcmp(probe, "drift"))
		from_drift(f, r);
	else if (!strcmp(probe, "counter"))
		from_counter(f, r);
}

void readiness_read_facts(struct readiness_facts *f, const char *recs, size_t len)
{
	const char *pos = recs;
	struct rec_view r;

	facts_init(f);
	while (recread_next(&pos, recs + len, &r))
		read_one(f, &f->invariant, &r);
}
