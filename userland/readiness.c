// SPDX-License-Identifier: MIT
/* The reference votes and the reasons of the tsc_readiness record; see readiness.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "readiness.h"
#include "timeutil.h"

/* UEFI Stall(): it votes only where fewer than three platform references answered. */
#define LAST_RESORT "stall"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The pre-OS references that vote: the platform ones, Stall() where they are fewer than three. */
static size_t pre_voters(const struct readiness_facts *f, const struct readiness_clock **v)
{
	size_t n = 0, hw = 0;

	for (size_t i = 0; i < f->npre; i++)
		hw += readiness_is_platform(f->pre[i].name);
	for (size_t i = 0; i < f->npre; i++)
		if (readiness_is_platform(f->pre[i].name) ||
		    (hw < 3 && !strcmp(f->pre[i].name, LAST_RESORT)))
			v[n++] = &f->pre[i];
	return n;
}

/* The TSC's rate the references agree on before the OS: their median; else the stub's. */
static double consensus_hz(const struct readiness_facts *f)
{
	const struct readiness_clock *v[READINESS_CLOCKS];
	double hz[READINESS_CLOCKS];
	size_t n = pre_voters(f, v);

	for (size_t i = 0; i < n; i++)
		hz[i] = v[i]->tsc_hz;
	if (!n)
		return f->v[RF_STUB_HZ];
	qsort(hz, n, sizeof(hz[0]), cmp_double);
	return n % 2 ? hz[n / 2] : (hz[n / 2 - 1] + hz[n / 2]) / 2;
}

/* A clock's own rate error as seen from the TSC: the TSC looks slow against a fast clock. */
static struct rd_vote_in voter(const struct readiness_clock *c, double base_hz)
{
	return (struct rd_vote_in){ c->name, -(c->tsc_hz / base_hz - 1) * 1e6, c->unc_ppm };
}

static void vote_pre(struct readiness *rd, double base)
{
	const struct readiness_clock *v[READINESS_CLOCKS];
	struct rd_vote_in in[RD_VOTE_MAX];
	size_t n = pre_voters(&rd->f, v);

	for (size_t i = 0; i < n; i++)
		in[i] = voter(v[i], base);
	rd_vote(in, n, &rd->vote_pre);
	if (rd->vote_pre.named >= 0) {
		rd->pre_named = rd->wrong = v[rd->vote_pre.named]->name;
		rd->wrong_ppm = rd->vote_pre.ppm;
		rd->wrong_when = "pre-os";
	}
}

/* After boot the TSC votes too: its rate is the references' pre-OS one, within their spread. */
static void vote_post(struct readiness *rd, double base)
{
	struct rd_vote_in in[RD_VOTE_MAX];
	double unc = 0;
	size_t n = 0;

	for (size_t i = 0; i < rd->f.npre; i++)
		if (readiness_is_platform(rd->f.pre[i].name))
			unc = fmax(unc, rd->f.pre[i].unc_ppm);
	const struct readiness_clock *who[RD_VOTE_MAX] = { 0 };

	in[n++] = (struct rd_vote_in){ "tsc", 0, unc };
	for (size_t i = 0; i < rd->f.npost && n < RD_VOTE_MAX; i++)
		/* the platform counters: the clocksource's clock is no clock of its own */
		if (readiness_is_platform(rd->f.post[i].name)) {
			who[n] = &rd->f.post[i];
			in[n++] = voter(&rd->f.post[i], base);
		}
	rd_vote(in, n, &rd->vote_post);
	if (rd->vote_post.named >= 0)
		rd->post_named = rd->vote_post.named ? who[rd->vote_post.named]->name : "tsc";
	if (rd->post_named && !rd->wrong) {
		rd->wrong = rd->post_named;
		rd->wrong_ppm = rd->vote_post.ppm;
		rd->wrong_when = "post-boot";
	}
}

/* ---- the reasons ---- */

/* The record's own reasons, not a probe's: the machine's sockets and the vote on the TSC. */
enum { OWN_SOCKETS, OWN_VOTE };

static const struct probe_reason own[] = {
	[OWN_SOCKETS] = {
	  .rule = { "sockets", "sockets (physical packages)", "count", 2, RD_ADVICE,
		    "up to 2 the kernel drops its watchdog itself (check_system_tsc_reliable)", 0 },
	  .place = 10, .from = "sysfs: physical_package_id", .absent = "no CPU topology in sysfs" },
	[OWN_VOTE] = {
	  .rule = { "tsc_named_wrong", "the reference vote does not name the TSC", 0, 1, RD_CHECKED,
		    "a TSC that disagrees with every reference is the clock that is off", 0 },
	  .place = 12, .from = "the reference vote",
	  .absent = "too few references after boot to vote on the TSC" },
};

static int add_decl(struct readiness_decl *out, size_t *n, size_t max, struct readiness_decl d)
{
	size_t k = *n;

	if (*n == max)
		return -1;
	for (; k > 0 && out[k - 1].d->place > d.d->place; k--)
		out[k] = out[k - 1];
	out[k] = d;
	(*n)++;
	return 0;
}

int readiness_decls(const struct probe *const *probes, size_t nprobes,
		    struct readiness_decl *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (add_decl(out, &n, max, (struct readiness_decl){ NULL, &own[i] }))
			return -1;
	for (size_t p = 0; p < nprobes; p++)
		for (size_t i = 0; !probes[p]->inject && i < probes[p]->n_reasons; i++)
			if (add_decl(out, &n, max,
				     (struct readiness_decl){ probes[p], &probes[p]->reasons[i] }))
				return -1;
	return (int)n;
}

static struct readiness_reason *reason(struct readiness *rd, const struct rd_rule *rule,
				       const char *from)
{
	struct readiness_reason *it;

	if (rd->n >= READINESS_REASONS)
		return &rd->reason[READINESS_REASONS - 1];
	it = &rd->reason[rd->n++];
	*it = (struct readiness_reason){ .rule = rule, .pass = RD_NOT_MEASURED, .value = NAN };
	snprintf(it->from, sizeof(it->from), "%s", from);
	return it;
}

/* A figure judged by its rule; NAN leaves it not measured, saying why. */
static void judge(struct readiness_reason *it, double v, const char *why_not)
{
	it->value = v;
	if (isfinite(v))
		it->pass = rd_rule_passes(it->rule, v) ? RD_PASSED : RD_FAILED;
	else
		snprintf(it->why, sizeof(it->why), "%s", why_not ? why_not : "");
}

static double fact(const struct readiness *rd, enum readiness_fact k)
{
	return k == RF_NONE ? NAN : rd->f.v[k];
}

/* The figure a declaration judges: its fact (plus another's), or its ppm against vs; *why
 * when there is none. */
static double figure(const struct readiness *rd, const struct probe_reason *d, const char **why)
{
	double v = fact(rd, d->fact), vs = fact(rd, d->vs);

	if (d->vs) {
		*why = vs > 0 ? d->absent : d->absent_vs;
		return v > 0 && vs > 0 ? (v / vs - 1) * 1e6 : NAN;
	}
	if (!TP_HAVE_TSC && d->no_tsc)
		*why = d->no_tsc;
	else if (d->needs && !isfinite(fact(rd, d->needs)))
		*why = d->needs_absent;
	else
		*why = d->absent;
	return d->plus ? v + fact(rd, d->plus) : v;
}

/* One reason of a probe's declaration. */
static void reason_declared(struct readiness *rd, const struct probe_reason *d)
{
	const char *why;
	double v = figure(rd, d, &why);
	struct readiness_reason *it;

	if (!TP_HAVE_TSC && d->no_tsc && d->no_tsc_passes) {
		judge(reason(rd, &d->rule, d->no_tsc), 1, "");
	} else if (d->one_cpu && rd->f.v[RF_CPUS] == 1 && !isfinite(fact(rd, d->fact))) {
		judge(reason(rd, &d->rule, d->one_cpu), 0, "");	/* the kernel checks no pair */
	} else if (d->fact && rd->f.one_origin[d->fact]) {
		it = reason(rd, &d->rule, d->from);
		judge(it, NAN, d->one_origin);
		it->value = v;
	} else {
		judge(reason(rd, &d->rule, d->from), v, why);
	}
}

/*
 * The TSC's rate against each reference after boot, from the pre-OS
 * consensus: judged where its record says the reference is independent
 * of the TSC, else shown with the record's reason.
 */
static void reasons_per_clock(struct readiness *rd, const struct probe_reason *d, double base)
{
	int independent = 0;

	for (size_t i = 0; i < rd->f.npost; i++) {
		const struct readiness_clock *c = &rd->f.post[i];
		struct readiness_reason *it = reason(rd, &d->rule, rd->f.post_from[i]);

		judge(it, (c->tsc_hz / base - 1) * 1e6, "");
		snprintf(it->reference, sizeof(it->reference), "%s", c->name);
		it->independent = c->independent;
		independent |= c->independent == 1;
		if (c->independent != 1) {
			it->pass = RD_NOT_MEASURED;
			snprintf(it->why, sizeof(it->why), "%s", c->why[0] ? c->why :
				 "its record does not say whether it is independent of the TSC");
		}
		if (rd->wrong && !strcmp(rd->wrong, c->name)) {
			it->pass = RD_NOT_MEASURED;
			snprintf(it->why, sizeof(it->why),
				 "the vote names %s off: not held against the TSC", c->name);
		}
	}
	/* none independent: why the platform counters gave none, when they said */
	if (!rd->f.npost || (!independent && rd->f.post_why[0]))
		judge(reason(rd, &d->rule, d->from), NAN,
		      rd->f.post_why[0] ? rd->f.post_why : d->absent);
}

/* Every reason, in the record's order. */
/* One reason whose figure its declaration's read() takes from the kept records. */
static void reason_read(struct readiness *rd, const struct probe_reason *d, const char *recs,
			size_t len)
{
	struct readiness_reason *it = reason(rd, &d->rule, d->from);
	char why[READINESS_TEXT] = "";
	double v = d->read(recs, len, it->from, sizeof(it->from), why, sizeof(why));

	judge(it, v, why);
}

static void reasons(struct readiness *rd, const struct readiness_decl *d, size_t n, double base,
		    const char *recs, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const struct probe_reason *r = d[i].d;
		int ran = rd->vote_post.res != RD_VOTE_TOO_FEW;

		if (r == &own[OWN_SOCKETS])
			judge(reason(rd, &r->rule, r->from), rd->sockets > 0 ? rd->sockets : NAN,
			      r->absent);
		else if (r == &own[OWN_VOTE])
			judge(reason(rd, &r->rule, r->from),
			      ran ? !(rd->wrong && !strcmp(rd->wrong, "tsc")) : NAN, r->absent);
		else if (r->per_clock)
			reasons_per_clock(rd, r, base);
		else if (r->read)
			reason_read(rd, r, recs, len);
		else
			reason_declared(rd, r);
	}
}

/* The kernel's name of a platform clock the vote did not name: hpet, else acpi_pm. */
static const char *fallback_clock(const struct readiness *rd)
{
	static const struct { const char *ref, *cs; } map[] = {
		{ "hpet", "hpet" }, { "pmtimer", "acpi_pm" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		int seen = 0;

		for (size_t k = 0; k < rd->f.npre; k++)
			seen |= !strcmp(rd->f.pre[k].name, map[i].ref);
		for (size_t k = 0; k < rd->f.npost; k++)
			seen |= !strcmp(rd->f.post[k].name, map[i].ref);
		if (seen && !(rd->wrong && !strcmp(rd->wrong, map[i].ref)))
			return map[i].cs;
	}
	return NULL;
}

static void decide(struct readiness *rd, const struct readiness_decl *d, size_t nd)
{
	struct rd_reason_state s[READINESS_REASONS];
	const struct rd_rule *rules[READINESS_REASONS];
	int advice_failed = 0;
	struct tp_buf b;

	for (size_t i = 0; i < rd->n; i++) {
		s[i] = (struct rd_reason_state){ rd->reason[i].rule, rd->reason[i].pass };
		advice_failed |= rd->reason[i].rule->kind == RD_ADVICE &&
				 rd->reason[i].pass == RD_FAILED;
	}
	for (size_t i = 0; i < nd; i++)
		rules[i] = &d[i].d->rule;
	rd->answer = rd_decide(s, rd->n, rules, nd, TP_HAVE_TSC);
	tp_buf_init(&b, rd->kernel_args, sizeof(rd->kernel_args));
	if (TP_HAVE_TSC)
		rd_kernel_args(&b, rd->answer, advice_failed, fallback_clock(rd));
}

void readiness_gather(struct readiness *rd, const struct probe *const *probes, size_t nprobes,
		      const char *recs, size_t len, int sockets, const struct tp_skew *skew)
{
	struct readiness_decl d[READINESS_REASONS];
	int nd = readiness_decls(probes, nprobes, d, READINESS_REASONS);
	double base;

	memset(rd, 0, sizeof(*rd));
	readiness_read_facts(&rd->f, probes, nprobes, recs, len);
	rd->sockets = sockets;
	if (skew)
		rd->skew = *skew;
	base = consensus_hz(&rd->f);
	vote_pre(rd, base);
	vote_post(rd, base);
	reasons(rd, d, nd < 0 ? READINESS_REASONS : (size_t)nd, base, recs, len);
	decide(rd, d, nd < 0 ? READINESS_REASONS : (size_t)nd);
	readiness_conditions(rd, recs, len);
	readiness_next(rd, d, nd < 0 ? READINESS_REASONS : (size_t)nd);
}
