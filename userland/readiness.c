// SPDX-License-Identifier: MIT
/* The reference votes and the reasons of the tsc_readiness record; see readiness.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		return f->stub_hz;
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

static struct readiness_reason *reason(struct readiness *rd, const char *id, const char *from)
{
	struct readiness_reason *it;

	if (rd->n >= READINESS_REASONS)
		return &rd->reason[READINESS_REASONS - 1];
	it = &rd->reason[rd->n++];
	*it = (struct readiness_reason){ .rule = rd_rule_find(id), .pass = RD_NOT_MEASURED,
					 .value = NAN };
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
		snprintf(it->why, sizeof(it->why), "%s", why_not);
}

static void reasons_clock(struct readiness *rd)
{
	const struct readiness_facts *f = &rd->f;
	struct readiness_reason *it;

	if (TP_HAVE_TSC)
		judge(reason(rd, "invariant_tsc", "fingerprint: invariant_tsc"),
		      f->invariant < 0 ? NAN : f->invariant, "the fingerprint did not say");
	else
		judge(reason(rd, "invariant_tsc", "the architecture"), 1, "");
	it = reason(rd, "stub_vs_kernel_ppm", "tsc: tsc agreement");
	judge(it, f->stub_kernel_one_origin ? NAN : f->stub_vs_kernel_ppm,
	      f->stub_kernel_one_origin ? "one origin: the kernel took the stub's figure"
					: "no stub and kernel figures (probe tsc)");
	if (f->stub_kernel_one_origin)
		it->value = f->stub_vs_kernel_ppm;
	judge(reason(rd, "stub_vs_cpuid15_ppm", "tsc: tsc flags"),
	      f->cpuid15_hz > 0 && f->stub_hz > 0 ? (f->stub_hz / f->cpuid15_hz - 1) * 1e6 : NAN,
	      f->cpuid15_hz > 0 ? "no stub figure" : "CPUID 0x15 gives no frequency here");
}

static void reasons_cpus(struct readiness *rd, const char *recs, size_t len)
{
	const struct readiness_facts *f = &rd->f;
	const char *none = isfinite(f->offset_ns) ? 0 : "no tscsync summary (probe tscsync)";
	struct readiness_reason *it;
	char why[READINESS_TEXT];

	if (f->cpus == 1 && !isfinite(f->offset_ns))	/* the kernel checks no pair either */
		judge(reason(rd, "offset_ns", "run: one CPU, no pair"), 0, "");
	else
		judge(reason(rd, "offset_ns", "tscsync: tscsync summary"),
		      f->offset_ns + f->bound_ns, "no tscsync summary (probe tscsync)");
	judge(reason(rd, "preos_offset_ns", "tscsync: tscsync summary"), f->preos_offset_ns,
	      none ? none : "no pre-OS pairs (not booted through the stub, or one CPU)");
	judge(reason(rd, "warps", "tsc: tsc sync"), f->warps, "no tsc sync record (probe tsc)");
	judge(reason(rd, "counter_errata", "counter: each CPU's scan"), f->counter_bad,
	      "no counter scan (probe counter)");
	judge(reason(rd, "tsc_adjust_changed", "tscsync: tscsync summary"), f->adjust_changed,
	      !TP_HAVE_TSC ? "x86 only" : none ? none : "no stub figures to compare with");
	it = reason(rd, "hidden_gaps", "stub_hwlat: pre-OS scan");
	judge(it, readiness_hidden(recs, len, it->from, sizeof(it->from), why, sizeof(why)), why);
	judge(reason(rd, "sockets", "sysfs: physical_package_id"),
	      rd->sockets > 0 ? rd->sockets : NAN, "no CPU topology in sysfs");
}

/* The TSC's rate against each independent reference, from the pre-OS consensus. */
static void reasons_drift(struct readiness *rd, double base)
{
	for (size_t i = 0; i < rd->f.npost; i++) {
		const struct readiness_clock *c = &rd->f.post[i];
		char from[READINESS_TEXT];
		struct readiness_reason *it;

		snprintf(from, sizeof(from), "drift: drift vs %s", c->name);
		it = reason(rd, "drift_ppm", from);
		judge(it, (c->tsc_hz / base - 1) * 1e6, "");
		if (rd->wrong && !strcmp(rd->wrong, c->name)) {
			it->pass = RD_NOT_MEASURED;
			snprintf(it->why, sizeof(it->why),
				 "the vote names %s off: not held against the TSC", c->name);
		}
	}
	if (!rd->f.npost)
		judge(reason(rd, "drift_ppm", "drift"), NAN, rd->f.drift_why[0] ? rd->f.drift_why :
		      "no counter independent of the TSC (probe drift not run, or none open)");
}

static void reason_vote(struct readiness *rd)
{
	struct readiness_reason *it = reason(rd, "tsc_named_wrong", "the reference vote");
	int ran = rd->vote_post.res != RD_VOTE_TOO_FEW;

	judge(it, ran ? !(rd->wrong && !strcmp(rd->wrong, "tsc")) : NAN,
	      "too few references after boot to vote on the TSC");
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

static void decide(struct readiness *rd)
{
	struct rd_reason_state s[READINESS_REASONS];
	int advice_failed = 0;
	struct tp_buf b;

	for (size_t i = 0; i < rd->n; i++) {
		s[i] = (struct rd_reason_state){ rd->reason[i].rule, rd->reason[i].pass };
		advice_failed |= rd->reason[i].rule->kind == RD_ADVICE &&
				 rd->reason[i].pass == RD_FAILED;
	}
	rd->answer = rd_decide(s, rd->n, TP_HAVE_TSC);
	tp_buf_init(&b, rd->kernel_args, sizeof(rd->kernel_args));
	if (TP_HAVE_TSC)
		rd_kernel_args(&b, rd->answer, advice_failed, fallback_clock(rd));
}

void readiness_gather(struct readiness *rd, const char *recs, size_t len, int sockets,
		      const struct tp_skew *skew)
{
	double base;

	memset(rd, 0, sizeof(*rd));
	readiness_read_facts(&rd->f, recs, len);
	rd->sockets = sockets;
	if (skew)
		rd->skew = *skew;
	base = consensus_hz(&rd->f);
	vote_pre(rd, base);
	vote_post(rd, base);
	reasons_clock(rd);
	reasons_cpus(rd, recs, len);
	reasons_drift(rd, base);
	reason_vote(rd);
	decide(rd);
}

