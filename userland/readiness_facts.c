// SPDX-License-Identifier: MIT
/* What a run's records say for the tsc_readiness record, as the probes declare it (readiness.h). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"
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
	for (size_t i = 0; i < RF_COUNT; i++)
		f->v[i] = NAN;
}

/* The new clock name, NULL when the list is full, it has no rate or is a repeat. */
static struct readiness_clock *add_clock(struct readiness_clock *c, size_t *n, const char *name,
					 double hz, double unc)
{
	if (*n >= READINESS_CLOCKS || !(hz > 0))
		return NULL;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(c[i].name, name))
			return NULL;	/* a repeat of the suite: the first iteration's */
	snprintf(c[*n].name, sizeof(c[*n].name), "%s", name);
	c[*n].tsc_hz = hz;
	c[*n].unc_ppm = isfinite(unc) ? fabs(unc) : 0;
	c[*n].independent = -1;
	return &c[(*n)++];
}

/* A number, or true/false as 1/0. */
static int number(const struct rec_view *r, const char *key, double *v)
{
	int yes;

	if (recread_num(r, key, v))
		return 1;
	if (!recread_bool(r, key, &yes))
		return 0;
	*v = yes;
	return 1;
}

/*
 * A reference's clock (RF_CLOCK_*): the TSC's rate against it. After
 * boot, every counter measured, with the record's word on whether it is
 * independent of the TSC (drift's, from tscref.c: not decided here); not
 * a comparison of two references.
 */
static void clock_fact(struct readiness_facts *f, const struct probe_fact *d,
		       const struct rec_view *r, const char *from)
{
	char name[24];
	double hz, unc = 0, lo = 0, hi = 0;
	struct readiness_clock *c;

	if (!recread_str(r, d->name_key, name, sizeof(name)) || !recread_num(r, d->key, &hz))
		return;
	if (d->unc_key)
		recread_num(r, d->unc_key, &unc);
	if (d->lo_key && d->hi_key) {
		recread_num(r, d->lo_key, &lo);
		recread_num(r, d->hi_key, &hi);
		unc = (hi - lo) / 2;
	}
	if (d->fact == RF_CLOCK_PREOS) {
		add_clock(f->pre, &f->npre, name, hz, unc);
		return;
	}
	if (f->npost < READINESS_CLOCKS)
		snprintf(f->post_from[f->npost], sizeof(f->post_from[0]), "%s", from);
	c = add_clock(f->post, &f->npost, name, hz, unc);
	if (c && d->independent_key)
		recread_bool(r, d->independent_key, &c->independent);
	if (c && d->why_key)
		recread_str(r, d->why_key, c->why, sizeof(c->why));
}

/* Why a platform reference has no clock after boot: "hpet: ...; pmtimer: ...". */
static void why_fact(struct readiness_facts *f, const struct probe_fact *d,
		     const struct rec_view *r)
{
	char name[48], why[96];
	size_t len = strlen(f->post_why), pre = d->name_prefix ? strlen(d->name_prefix) : 0;

	if (!recread_str(r, d->name_key, name, sizeof(name)) ||
	    strncmp(name, d->name_prefix ? d->name_prefix : "", pre) ||
	    !readiness_is_platform(name + pre) || !recread_str(r, d->key, why, sizeof(why)))
		return;
	snprintf(f->post_why + len, sizeof(f->post_why) - len, "%s%s: %s", len ? "; " : "",
		 name + pre, why);
}

/* Fact d from record r (from: "PROBE: NAME"), when its declaration selects r. */
static void take(struct readiness_facts *f, const struct probe_fact *d, const struct rec_view *r,
		 const char *from)
{
	double *v = &f->v[d->fact], x;
	size_t n;
	const char *list, *note;

	if (!recread_where(r, d->where, sizeof(d->where) / sizeof(d->where[0]), &note))
		return;
	if (d->fact == RF_CLOCK_PREOS || d->fact == RF_CLOCK_POSTBOOT) {
		clock_fact(f, d, r, from);
		return;
	}
	if (d->fact == RF_POSTBOOT_WHY) {
		why_fact(f, d, r);
		return;
	}
	if (d->one_origin_key && recread_raw(r, d->key, &n)) {
		list = recread_raw(r, d->one_origin_key, &n);
		f->one_origin[d->fact] = list && memmem(list, n, d->key, strlen(d->key));
	}
	if (!number(r, d->key, &x) || (d->pick == PP_FIRST && isfinite(*v)))
		return;
	*v = d->pick == PP_SUM && isfinite(*v) ? *v + x : x;
}

/* Record r to every fact that reads it: a run's own record, or the declaring probe's. */
static void read_one(struct readiness_facts *f, const struct probe *const *probes,
		     size_t nprobes, const struct rec_view *r)
{
	char type[32], probe[32], name[96] = "", from[160];
	int of_probe;

	if (!recread_str(r, "type", type, sizeof(type)))
		return;
	of_probe = recread_str(r, "probe", probe, sizeof(probe));
	recread_str(r, "name", name, sizeof(name));
	for (size_t p = 0; p < nprobes; p++) {
		if (of_probe && strcmp(probe, probes[p]->name))
			continue;
		snprintf(from, sizeof(from), "%s: %s", probes[p]->name, name);
		for (size_t i = 0; i < probes[p]->n_facts; i++) {
			const struct probe_fact *d = &probes[p]->facts[i];

			if (!strcmp(type, d->record ? d->record : "result"))
				take(f, d, r, from);
		}
	}
}

void readiness_read_facts(struct readiness_facts *f, const struct probe *const *probes,
			  size_t nprobes, const char *recs, size_t len)
{
	const char *pos = recs;
	struct rec_view r;

	facts_init(f);
	while (recread_next(&pos, recs + len, &r))
		read_one(f, probes, nprobes, &r);
}
