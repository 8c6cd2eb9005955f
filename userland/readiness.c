// SPDX-License-Identifier: MIT
/* The `tsc_readiness` record from a run's own records; see readiness.h and docs/readiness.md. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "readiness.h"
#include "recread.h"
#include "sink.h"
#include "timeutil.h"

/* The three platform references; UEFI Stall() only where fewer answered. */
static const char *const hw_refs[] = { "hpet", "pmtimer", "pit" };
#define LAST_RESORT "stall"

static int is_hw(const char *ref)
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
	f->counter_bad = NAN;
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

static void from_tsc(struct readiness_facts *f, const struct rec_view *r)
{
	size_t n;
	const char *bc = recread_raw(r, "by_construction", &n);
	double x;

	if (recread_num(r, "stub_vs_kernel_ppm", &x)) {
		f->stub_vs_kernel_ppm = x;
		f->stub_kernel_one_origin = bc && memmem(bc, n, "stub_vs_kernel_ppm", 18);
	}
	if (recread_num(r, "stub_hz", &x))
		f->stub_hz = x;
	if (recread_num(r, "cpuid15_tsc_hz", &x))
		f->cpuid15_hz = x;
	if (recread_num(r, "pairs_with_warps", &x))
		f->warps = x;
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

static void from_tscsync(struct readiness_facts *f, const struct rec_view *r)
{
	double x;

	if (recread_num(r, "max_abs_offset_ns", &x))
		f->offset_ns = x;
	if (recread_num(r, "max_bound_ns", &x))
		f->bound_ns = x;
	if (recread_num(r, "preos_max_abs_offset_ns", &x))
		f->preos_offset_ns = x;
	if (recread_num(r, "tsc_adjust_changed", &x))
		f->adjust_changed = x;
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
	if (!is_hw(ref) && indep != 1)
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
	    !is_hw(name + 9) || !recread_str(r, "reason", why, sizeof(why)))
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
	if (!recread_str(r, "probe", probe, sizeof(probe)))
		return;
	if (!strcmp(type, "skip") && !strcmp(probe, "drift"))
		drift_skip(f, r);
	if (!strcmp(type, "calib") && !strcmp(probe, "tsc"))
		from_calib(f, r);
	if (strcmp(type, "result"))
		return;
	if (!strcmp(probe, "tsc"))
		from_tsc(f, r);
	else if (!strcmp(probe, "tscsync"))
		from_tscsync(f, r);
	else if (!strcmp(probe, "drift"))
		from_drift(f, r);
	else if (!strcmp(probe, "counter"))
		from_counter(f, r);
}

/* ---- the votes ---- */

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
		hw += is_hw(f->pre[i].name);
	for (size_t i = 0; i < f->npre; i++)
		if (is_hw(f->pre[i].name) || (hw < 3 && !strcmp(f->pre[i].name, LAST_RESORT)))
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
		if (is_hw(rd->f.pre[i].name))
			unc = fmax(unc, rd->f.pre[i].unc_ppm);
	const struct readiness_clock *who[RD_VOTE_MAX] = { 0 };

	in[n++] = (struct rd_vote_in){ "tsc", 0, unc };
	for (size_t i = 0; i < rd->f.npost && n < RD_VOTE_MAX; i++)
		/* the platform counters: the clocksource's clock is no clock of its own */
		if (is_hw(rd->f.post[i].name)) {
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

static void reasons_cpus(struct readiness *rd)
{
	const struct readiness_facts *f = &rd->f;
	const char *none = isfinite(f->offset_ns) ? 0 : "no tscsync summary (probe tscsync)";

	judge(reason(rd, "offset_ns", "tscsync: tscsync summary"), f->offset_ns + f->bound_ns,
	      "no tscsync summary (probe tscsync)");
	judge(reason(rd, "preos_offset_ns", "tscsync: tscsync summary"), f->preos_offset_ns,
	      none ? none : "no pre-OS pairs (not booted through the stub, or one CPU)");
	judge(reason(rd, "warps", "tsc: tsc sync"), f->warps, "no tsc sync record (probe tsc)");
	judge(reason(rd, "counter_errata", "counter: each CPU's scan"), f->counter_bad,
	      "no counter scan (probe counter)");
	judge(reason(rd, "tsc_adjust_changed", "tscsync: tscsync summary"), f->adjust_changed,
	      !TP_HAVE_TSC ? "x86 only" : none ? none : "no stub figures to compare with");
	judge(reason(rd, "hidden_gaps", "hwlat: pre-OS scan"), NAN,
	      "the pre-OS scan reads the TSC alone: no reference to see a gap it did not count");
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
	const char *pos = recs;
	struct rec_view r;
	double base;

	memset(rd, 0, sizeof(*rd));
	facts_init(&rd->f);
	rd->sockets = sockets;
	if (skew)
		rd->skew = *skew;
	while (recread_next(&pos, recs + len, &r))
		read_one(&rd->f, &rd->f.invariant, &r);
	base = consensus_hz(&rd->f);
	vote_pre(rd, base);
	vote_post(rd, base);
	reasons_clock(rd);
	reasons_cpus(rd);
	reasons_drift(rd, base);
	reason_vote(rd);
	decide(rd);
}

/* ---- the record and the block ---- */

static void record_reason(struct tp_rec *r, const struct readiness_reason *it)
{
	tp_rec_obj_begin(r, 0);
	tp_rec_str(r, "item", it->rule->id);
	emit_rec_double(r, "value", it->value);
	if (it->rule->unit) {
		tp_rec_str(r, "unit", it->rule->unit);
		emit_rec_double(r, "bound", it->rule->bound);
	}
	tp_rec_str(r, "from", it->from);
	if (it->pass == RD_NOT_MEASURED)
		tp_rec_null(r, "passed");
	else
		tp_rec_bool(r, "passed", it->pass == RD_PASSED);
	if (it->why[0])
		tp_rec_str(r, "why", it->why);
	tp_rec_obj_end(r);
}

static void record_vote(struct tp_rec *r, const char *key, const struct rd_vote_out *v,
			const char *named)
{
	tp_rec_obj_begin(r, key);
	tp_rec_str(r, "result", rd_vote_res_name(v->res));
	if (named)
		tp_rec_str(r, "named", named);
	emit_rec_double(r, "floor_ppm", RD_VOTE_FLOOR_PPM);
	tp_rec_obj_end(r);
}

void readiness_record(struct tp_rec *r, const struct readiness *rd)
{
	emit_begin(r, "tsc_readiness");
	tp_rec_str(r, "counter", TP_HAVE_TSC ? "tsc" : "cntvct");
	tp_rec_str(r, "tsc_reliable", rd_answer_name(rd->answer));
	tp_rec_arr_begin(r, "kernel_args");
	if (rd->kernel_args[0])
		tp_rec_str(r, 0, rd->kernel_args);
	tp_rec_arr_end(r);
	if (rd->wrong) {
		tp_rec_obj_begin(r, "wrong_reference");
		tp_rec_str(r, "name", rd->wrong);
		emit_rec_double(r, "ppm", rd->wrong_ppm);
		tp_rec_str(r, "when", rd->wrong_when);
		tp_rec_obj_end(r);
	} else {
		tp_rec_null(r, "wrong_reference");
	}
	record_vote(r, "vote_preos", &rd->vote_pre, rd->pre_named);
	record_vote(r, "vote_postboot", &rd->vote_post, rd->post_named);
	if (rd->skew.ref[0]) {
		tp_rec_obj_begin(r, "injected");
		tp_rec_str(r, "ref", rd->skew.ref);
		tp_rec_int(r, "ppm", rd->skew.ppm);
		tp_rec_obj_end(r);
	}
	tp_rec_arr_begin(r, "reasons");
	for (size_t i = 0; i < rd->n; i++)
		record_reason(r, &rd->reason[i]);
	tp_rec_arr_end(r);
}

static const char *pass_word(enum rd_pass p)
{
	return p == RD_PASSED ? "pass" : p == RD_FAILED ? "FAIL" : "-";
}

static void print_block(const struct readiness *rd)
{
	sink_human("\n== tsc=reliable? ==\n");
	sink_human("%s: %s; kernel line: %s\n", TP_HAVE_TSC ? "tsc=reliable" : "CNTVCT_EL0",
		   rd_answer_name(rd->answer), rd->kernel_args[0] ? rd->kernel_args :
		   TP_HAVE_TSC ? "(nothing)" : "(no such word on arm64)");
	if (rd->wrong)
		sink_human("wrong reference: %s, %+.0f ppm off the others (%s vote)\n", rd->wrong,
			   rd->wrong_ppm, rd->wrong_when);
	if (rd->skew.ref[0])
		sink_human("injected: %s read %+d ppm fast (timeprobe.inject=skew:...)\n",
			   rd->skew.ref, (int)rd->skew.ppm);
	for (size_t i = 0; i < rd->n; i++) {
		const struct readiness_reason *it = &rd->reason[i];
		char val[32] = "-";

		if (isfinite(it->value) && !it->rule->unit)
			snprintf(val, sizeof(val), "%s", it->value == 1 ? "yes" : "no");
		else if (isfinite(it->value))
			snprintf(val, sizeof(val), "%.4g %s", it->value, it->rule->unit);
		sink_human("  %-4s %-52s %14s  %s\n", pass_word(it->pass), it->rule->what, val,
			   it->why[0] ? it->why : it->from);
	}
	sink_human("(bounds and their sources: docs/readiness.md)\n");
}

int readiness_sockets(void)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	long seen[64];
	int n = 0;
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[320];
		long id;
		FILE *fp;
		int dup = 0;

		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%.200s/topology/"
			 "physical_package_id", e->d_name);
		if (!(fp = fopen(path, "r")))
			continue;
		if (fscanf(fp, "%ld", &id) == 1) {
			for (int i = 0; i < n; i++)
				dup |= seen[i] == id;
			if (!dup && n < 64)
				seen[n++] = id;
		}
		fclose(fp);
	}
	closedir(d);
	return n ? n : -1;
}

void readiness_emit(const struct tp_skew *skew)
{
	static struct readiness rd;
	struct tp_rec r;
	size_t len;
	const char *recs = sink_saved(&len);

	readiness_gather(&rd, recs, len, readiness_sockets(), skew);
	print_block(&rd);
	readiness_record(&r, &rd);
	sink_emit(&r);
}
