// SPDX-License-Identifier: MIT
/*
 * Probe `noise`: how much of each CPU the machine takes away from a program
 * that only wants to run. One thread per CPU, pinned, reads the TSC in a
 * tight loop for a set time; every gap between two consecutive reads of at
 * least a threshold is an interruption (an interrupt, a softirq, another
 * task, an SMI, the hypervisor). The references are sysjitter (Solarflare,
 * one spinning thread per core, the same threshold idea) and the kernel's
 * osnoise tracer (Documentation/trace/osnoise-tracer.rst), which does it in
 * the kernel and can name each source; here /proc/interrupts and
 * /proc/softirqs before and after the run name the likely culprits.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../affinity.h"
#include "../emit.h"
#include "../irqstat.h"
#include "../probe.h"
#include "../stats.h"
#include "../stubcpus.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "noise.h"
#include "noise_out.h"

#define P "noise"
#define GAPS_PER_CPU 65536   /* 512 KiB per CPU; past it gaps are only counted */
#define GAPS_TOTAL (1 << 21) /* 16 MiB on the biggest machines */

/* ------------------------------------------------------------------ */
/* Pure parts (noise.h)                                                */

void noise_gaps_init(struct noise_gaps *g, uint64_t *buf, size_t cap, uint64_t threshold_ticks)
{
	memset(g, 0, sizeof(*g));
	g->gap = buf;
	g->cap = buf ? cap : 0;
	g->threshold_ticks = threshold_ticks ? threshold_ticks : 1;
}

void noise_gap(struct noise_gaps *g, uint64_t prev, uint64_t now)
{
	uint64_t d;

	if (now < prev) {
		g->backwards++;
		return;
	}
	d = now - prev;
	g->count++;
	g->sum_ticks += d;
	if (d > g->max_ticks)
		g->max_ticks = d;
	if (g->n < g->cap)
		g->gap[g->n++] = d;
	else
		g->overflow++;
}

void noise_scan(struct noise_gaps *g, const uint64_t *ticks, size_t n)
{
	for (size_t i = 1; i < n; i++)
		noise_step(g, ticks[i - 1], ticks[i]);
}

void noise_gaps_add(struct noise_gaps *dst, const struct noise_gaps *src)
{
	dst->count += src->count;
	dst->sum_ticks += src->sum_ticks;
	dst->overflow += src->overflow;
	dst->backwards += src->backwards;
	if (src->max_ticks > dst->max_ticks)
		dst->max_ticks = src->max_ticks;
}

void noise_summarize(const struct noise_gaps *g, uint64_t duration_ticks, int ncpu, double hz,
		     double *scratch, struct noise_stats *s, struct loghist *h)
{
	double ns_per_tick = hz > 0 ? 1e9 / hz : NAN;

	memset(s, 0, sizeof(*s));
	s->duration_ns = (double)duration_ticks * ns_per_tick;
	s->interruptions = g->count;
	s->per_s = s->duration_ns > 0 ? (double)g->count * 1e9 / s->duration_ns : NAN;
	s->stolen_pct = duration_ticks && ncpu > 0
			    ? 100.0 * (double)g->sum_ticks / ((double)duration_ticks * ncpu)
			    : NAN;
	s->max_gap_ns = (double)g->max_ticks * ns_per_tick;
	s->kept = g->n;
	s->dropped = g->overflow;
	s->backwards = g->backwards;
	s->p50_gap_ns = s->p99_gap_ns = s->p999_gap_ns = NAN;
	for (size_t i = 0; i < g->n; i++) {
		double ns = (double)g->gap[i] * ns_per_tick;

		if (scratch)
			scratch[i] = ns;
		if (h)
			stats_loghist_add(h, llround(ns));
	}
	if (scratch && g->n) {
		stats_sort_doubles(scratch, g->n);
		s->p50_gap_ns = stats_percentile_sorted(scratch, g->n, 50);
		s->p99_gap_ns = stats_percentile_sorted(scratch, g->n, 99);
		s->p999_gap_ns = stats_percentile_sorted(scratch, g->n, 99.9);
	}
}

/* ------------------------------------------------------------------ */
/* The measurement                                                     */

struct start_line {
	int ready;
	int go; /* 1 run, -1 give up */
};

struct spinner {
	pthread_t tid;
	int cpu;
	int pin_error;
	uint64_t duration_ticks;
	struct start_line *start;
	struct noise_gaps g;
	uint64_t t_first, t_last, reads;
	long nivcsw; /* involuntary context switches during the spin: another task took the CPU */
};

/* The tight loop: one rdtsc, one subtraction and compare, one compare with
 * the end, one increment. Nothing else until the time is up. */
static void spin(struct spinner *s)
{
	uint64_t prev = tp_counter(), now, end = prev + s->duration_ticks, reads = 0;

	s->t_first = prev;
	do {
		now = tp_counter();
		noise_step(&s->g, prev, now);
		prev = now;
		reads++;
	} while (now < end);
	s->t_last = now;
	s->reads = reads;
}

static void *spinner_main(void *arg)
{
	struct spinner *s = arg;
	int rc = affinity_pin_self(s->cpu, 0);

	if (rc < 0)
		s->pin_error = -rc;
	/* touch the gap buffer now: a page fault inside the loop is a gap
	 * of our own making */
	memset(s->g.gap, 0, s->g.cap * sizeof(*s->g.gap));
	__atomic_add_fetch(&s->start->ready, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&s->start->go, __ATOMIC_ACQUIRE))
		cpu_relax();
	if (__atomic_load_n(&s->start->go, __ATOMIC_ACQUIRE) > 0 && !s->pin_error) {
		struct rusage r0, r1;

		getrusage(RUSAGE_THREAD, &r0);
		spin(s);
		getrusage(RUSAGE_THREAD, &r1);
		s->nivcsw = r1.ru_nivcsw - r0.ru_nivcsw;
	}
	return 0;
}

/*
 * Rounds (docs/probes/noise.md, "Rounds"): what each CPU's spinner keeps
 * from round to round in the suite's shared memory, its kept gaps in its
 * share of the pool's buffer (g.gap points there: the mapping is at one
 * address in every round's child).
 */
struct noise_cpu_acc {
	int cpu, pin_error;
	struct noise_gaps g;	/* every round's gaps: counts, sums, the kept ones */
	uint64_t dur_ticks, reads;
	long nivcsw;
};

struct noise_pool {
	int calibrated;
	struct tsc_rate tsc;		/* round 1's: every round's ticks are the same ns */
	int cap;			/* CPUs it holds */
	size_t per_cpu;			/* gaps kept per CPU */
	struct noise_irqsum irq, soft;
	int smi_rounds;
	uint64_t smis;
	int smi_cpus, smi_changed;
	char smi_why[112];
	/* then cap struct noise_cpu_acc, then cap * per_cpu gaps */
};

static size_t gaps_per_cpu(int ncpu)
{
	return GAPS_TOTAL / (size_t)ncpu < GAPS_PER_CPU ? GAPS_TOTAL / (size_t)ncpu : GAPS_PER_CPU;
}

static struct noise_cpu_acc *pool_acc(struct noise_pool *p)
{
	return (struct noise_cpu_acc *)(p + 1);
}

static uint64_t *pool_gaps(struct noise_pool *p, int i)
{
	return (uint64_t *)(pool_acc(p) + p->cap) + (size_t)i * p->per_cpu;
}

static size_t state_bytes(const struct probe_ctx *ctx)
{
	int cap = ctx->ncpu > 0 ? ctx->ncpu : 1;

	return sizeof(struct noise_pool) + (size_t)cap * (sizeof(struct noise_cpu_acc) +
							  gaps_per_cpu(cap) * sizeof(uint64_t));
}

/* The pool of this round's child, or NULL when the probe runs whole. */
static struct noise_pool *pool_of(const struct probe_ctx *ctx)
{
	struct noise_pool *p = ctx->rounds > 1 && ctx->state_len >= state_bytes(ctx) ? ctx->state : 0;

	if (p && !p->cap) {
		p->cap = ctx->ncpu > 0 ? ctx->ncpu : 1;
		p->per_cpu = gaps_per_cpu(p->cap);
	}
	return p;
}

/* One run of the probe: its spinners, and what /proc said before and after. */
struct noise_run {
	struct noise_pool *pool;	/* rounds: what they share; NULL: whole */
	struct probe_ctx *ctx;
	double hz;
	int threshold_ns, ncpu, nrun, have_irq, have_soft;
	struct start_line start;
	struct spinner *sp;
	uint64_t *gapbuf;
	struct loghist *h;	/* one per CPU, then the machine's */
	struct irqstat_table irq0, irq1, soft0, soft1;
	struct irqstat_smi *smi;	/* [0] before the spin, [1] after */
	const struct tp_sc_scan *pre;	/* the stub's pre-OS scan; n = 0: none */
	struct cpu_map *map;		/* Linux CPUs to APIC IDs, the scan's names */
};

/* The stub's pre-OS scan of Linux CPU cpu, or NULL (no stub, no scan, no such APIC). */
static const struct tp_sc_cpu *preos_of(const struct noise_run *nr, int cpu)
{
	const struct cpu_entry *e = sysinfo_cpu_map_find(nr->map, cpu);

	for (size_t i = 0; e && i < nr->pre->n; i++)
		if ((int64_t)nr->pre->cpu[i].apic == e->apic)
			return &nr->pre->cpu[i];
	return NULL;
}

/* A spinner per CPU of the affinity mask, each with its share of the gap buffer. */
static int noise_setup(struct noise_run *nr, const cpu_set_t *set, int64_t duration_ms)
{
	size_t per_cpu;

	nr->ncpu = CPU_COUNT(set);
	if (nr->pool && nr->ncpu > nr->pool->cap)
		return -2;
	per_cpu = nr->pool ? nr->pool->per_cpu : gaps_per_cpu(nr->ncpu);
	nr->sp = calloc((size_t)nr->ncpu, sizeof(*nr->sp));
	nr->gapbuf = nr->pool ? 0 : malloc((size_t)nr->ncpu * per_cpu * sizeof(*nr->gapbuf));
	nr->h = calloc((size_t)nr->ncpu + 1, sizeof(*nr->h));
	if (!nr->sp || (!nr->pool && !nr->gapbuf) || !nr->h)
		return -1;
	for (int c = 0, i = 0; c < CPU_SETSIZE && i < nr->ncpu; c++) {
		struct spinner *s = &nr->sp[i];
		/* in rounds: the free part of the CPU's share of the pool */
		size_t kept = nr->pool ? pool_acc(nr->pool)[i].g.n : 0;
		uint64_t *buf = nr->pool ? pool_gaps(nr->pool, i) + kept : nr->gapbuf + (size_t)i * per_cpu;

		if (!CPU_ISSET(c, set))
			continue;
		s->cpu = c;
		s->start = &nr->start;
		/* ceil: a counted gap is never shorter than the threshold in ns */
		noise_gaps_init(&s->g, buf, per_cpu - kept,
				(uint64_t)ceil((double)nr->threshold_ns * nr->hz / 1e9));
		s->duration_ticks = (uint64_t)((double)duration_ms * nr->hz / 1e3);
		i++;
	}
	return 0;
}

/* Every spinner pinned and waiting, then the /proc snapshots, then go. */
static void noise_spin(struct noise_run *nr)
{
	int64_t wait_end;

	for (nr->nrun = 0; nr->nrun < nr->ncpu; nr->nrun++)
		if (pthread_create(&nr->sp[nr->nrun].tid, 0, spinner_main, &nr->sp[nr->nrun]))
			break;
	wait_end = mono_ns() + 5 * NS_PER_S;
	while (__atomic_load_n(&nr->start.ready, __ATOMIC_ACQUIRE) < nr->nrun && mono_ns() < wait_end)
		sched_yield();
	nr->have_irq = !irqstat_snap("/proc/interrupts", 1, &nr->irq0);
	nr->have_soft = !irqstat_snap("/proc/softirqs", 0, &nr->soft0);
	irqstat_smi_take(&nr->smi[0]);
	__atomic_store_n(&nr->start.go, nr->nrun == nr->ncpu ? 1 : -1, __ATOMIC_RELEASE);
	for (int i = 0; i < nr->nrun; i++)
		pthread_join(nr->sp[i].tid, 0);
	nr->have_irq = nr->have_irq && !irqstat_snap("/proc/interrupts", 1, &nr->irq1);
	nr->have_soft = nr->have_soft && !irqstat_snap("/proc/softirqs", 0, &nr->soft1);
	irqstat_smi_take(&nr->smi[1]);
}

/*
 * Which calibration turned ticks into ns, in a record of its own: a string
 * in the per-CPU records would make `report` treat host (user) and
 * appliance (stub) figures as different things. Then the table's head.
 */
static void noise_head(const struct noise_run *nr)
{
	const struct probe_ctx *ctx = nr->ctx;
	struct tp_rec r;

	emit_result_begin(&r, P, "tsc calibration");
	tp_rec_str(&r, "calibration", ctx->tsc.source ? ctx->tsc.source : "none");
	tp_rec_str(&r, "ref", ctx->tsc.ref ? ctx->tsc.ref : "none");
	tp_rec_int(&r, "tsc_hz", llround(nr->hz));
	if (ctx->tsc.source && !strcmp(ctx->tsc.source, "user"))
		tsccal_fields(&r, &ctx->tsc.user);
	tp_rec_int(&r, "threshold_ns", nr->threshold_ns);
	emit_end(&r);
	emit_human("  threshold %d ns, TSC %.0f Hz (%s calibration, %s)\n", nr->threshold_ns, nr->hz,
	      ctx->tsc.source, ctx->tsc.ref);
	emit_human("  %-6s %8s %9s %9s %9s %9s %8s %8s %8s %8s | %9s %9s\n", "cpu", "ms", "interrupt",
	      "per_s", "stolen_%", "max_us", "p50_us", "p99_us", "p99.9_us", "n", "preOS_max",
	      "preOS_%");
}

/*
 * A record and a row per CPU, then the machine's: every kept gap of every
 * CPU, over ncpu x the longest run. Returns the machine's duration in ns.
 */
static double noise_report(struct noise_run *nr)
{
	struct noise_gaps total;
	struct noise_stats st;
	struct loghist *htotal = &nr->h[nr->ncpu];
	uint64_t *all, max_ticks = 0, reads_total = 0;
	double *scratch;
	size_t kept = 0;
	long nivcsw = 0;
	int nok = 0;

	noise_gaps_init(&total, 0, 0, nr->sp[0].g.threshold_ticks);
	for (int i = 0; i < nr->ncpu; i++)
		kept += nr->sp[i].g.n;
	scratch = malloc((kept ? kept : 1) * sizeof(*scratch)); /* NULL: no percentiles */
	for (int i = 0; i < nr->ncpu; i++) {
		struct spinner *s = &nr->sp[i];
		uint64_t dur = s->t_last - s->t_first;
		char name[16];

		snprintf(name, sizeof(name), "cpu %d", s->cpu);
		if (s->pin_error) {
			emit_skip(P, name, "cannot pin a thread to this CPU");
			continue;
		}
		stats_loghist_init(&nr->h[i], nr->threshold_ns);
		noise_summarize(&s->g, dur, 1, nr->hz, scratch, &st, &nr->h[i]);
		noise_emit_stats(name, s->cpu, &st, &nr->h[i], nr->ctx, s->reads, s->nivcsw, nr->threshold_ns,
			   preos_of(nr, s->cpu), nr->pre->window_ms);
		nivcsw += s->nivcsw;
		noise_human_row(name + 4, &st, preos_of(nr, s->cpu), nr->pre->window_ms);
		noise_gaps_add(&total, &s->g);
		if (dur > max_ticks)
			max_ticks = dur;
		reads_total += s->reads;
		nok++;
	}
	all = malloc((kept ? kept : 1) * sizeof(*all));
	if (all) {
		for (int i = 0; i < nr->ncpu; i++)
			for (size_t k = 0; k < nr->sp[i].g.n; k++)
				all[total.n++] = nr->sp[i].g.gap[k];
		total.gap = all;
		total.cap = total.n;
	} else {
		total.overflow = total.count;
	}
	stats_loghist_init(htotal, nr->threshold_ns);
	noise_summarize(&total, max_ticks, nok, nr->hz, scratch, &st, htotal);
	noise_emit_stats("total", -1, &st, htotal, nr->ctx, nok ? reads_total / (uint64_t)nok : 0, nivcsw,
		   nr->threshold_ns, NULL, 0);
	noise_human_row("total", &st, NULL, 0);
	free(all);
	free(scratch);
	return st.duration_ns;
}

/* SMIs in the window (irqstat.h reads them): a result, or a skip saying why; in rounds, added up. */
static void noise_smis(struct noise_run *nr, int64_t duration_ms)
{
	const struct irqstat_smi *b = &nr->smi[0], *a = &nr->smi[1];
	struct noise_pool *p = nr->pool;
	uint64_t n;
	int changed;

	if (b->why || a->why) {
		emit_skip(P, "smis", b->why ? b->why : a->why);
		if (p)
			snprintf(p->smi_why, sizeof(p->smi_why), "%s", b->why ? b->why : a->why);
		return;
	}
	n = irqstat_smi_delta(b, a, &changed);
	noise_emit_smi_record(n, a->n, changed, duration_ms);
	if (p) {
		p->smi_rounds++;
		p->smis += n;
		p->smi_cpus = a->n;
		p->smi_changed |= changed;
	}
}

/* The interrupts, softirqs and SMIs counted during the spin. */
static void noise_interrupts(struct noise_run *nr, double duration_ns)
{
	struct irqstat_table dirq, dsoft;
	int ok_irq, ok_soft;

	if (!nr->have_irq && !nr->have_soft) {
		emit_skip(P, "interrupts", "no /proc/interrupts or /proc/softirqs");
	} else {
		ok_irq = nr->have_irq && !irqstat_delta(&nr->irq0, &nr->irq1, &dirq);
		ok_soft = nr->have_soft && !irqstat_delta(&nr->soft0, &nr->soft1, &dsoft);
		noise_emit_interrupts(ok_irq ? &dirq : 0, ok_soft ? &dsoft : 0, (int64_t)(duration_ns / 1e6));
		if (ok_irq && nr->pool)
			noise_irqsum_add(&nr->pool->irq, &dirq);
		if (ok_soft && nr->pool)
			noise_irqsum_add(&nr->pool->soft, &dsoft);
		if (ok_irq)
			irqstat_table_free(&dirq);
		if (ok_soft)
			irqstat_table_free(&dsoft);
	}
	noise_smis(nr, (int64_t)(duration_ns / 1e6));
}

/* This round's spinners added to the pool. */
static void pool_add(struct noise_run *nr)
{
	struct noise_cpu_acc *acc = pool_acc(nr->pool);

	for (int i = 0; i < nr->ncpu; i++) {
		const struct spinner *s = &nr->sp[i];
		size_t kept = acc[i].g.n + s->g.n;

		acc[i].cpu = s->cpu;
		acc[i].pin_error |= s->pin_error;
		noise_gaps_add(&acc[i].g, &s->g);
		acc[i].g.threshold_ticks = s->g.threshold_ticks;
		acc[i].g.gap = pool_gaps(nr->pool, i);
		acc[i].g.n = acc[i].g.cap = kept;
		acc[i].dur_ticks += s->t_last - s->t_first;
		acc[i].reads += s->reads;
		acc[i].nivcsw += s->nivcsw;
	}
}

/* The run's interrupt and SMI records: every round's counts added up. */
static void pool_interrupts(struct noise_pool *p, double duration_ns)
{
	struct irqstat_table irq, soft;
	int64_t ms = (int64_t)(duration_ns / 1e6);

	noise_irqsum_view(&p->irq, &irq);
	noise_irqsum_view(&p->soft, &soft);
	if (!p->irq.rounds && !p->soft.rounds)
		emit_skip(P, "interrupts", "no /proc/interrupts or /proc/softirqs");
	else
		noise_emit_interrupts(p->irq.rounds ? &irq : 0, p->soft.rounds ? &soft : 0, ms);
	if (p->smi_why[0])
		emit_skip(P, "smis", p->smi_why);
	else if (p->smi_rounds)
		noise_emit_smi_record(p->smis, p->smi_cpus, p->smi_changed, ms);
}

/*
 * The last round: the run's records, each CPU's over every round's spin
 * (its gaps, its time, its reads), as a whole run of that spin gives them.
 */
static void pool_report(struct noise_run *nr)
{
	const struct noise_cpu_acc *acc = pool_acc(nr->pool);
	struct spinner *round = nr->sp, *run = calloc((size_t)nr->ncpu, sizeof(*run));

	if (!run) {
		emit_error(P, 0, "out of memory for the run's figures");
		return;
	}
	for (int i = 0; i < nr->ncpu; i++) {
		run[i].cpu = acc[i].cpu;
		run[i].pin_error = acc[i].pin_error;
		run[i].g = acc[i].g;
		run[i].t_last = acc[i].dur_ticks;
		run[i].reads = acc[i].reads;
		run[i].nivcsw = acc[i].nivcsw;
	}
	nr->sp = run;
	emit_set_round(0);
	noise_head(nr);
	pool_interrupts(nr->pool, noise_report(nr));
	nr->sp = round;
	free(run);
}

static void noise_free(struct noise_run *nr)
{
	irqstat_table_free(&nr->irq0);
	irqstat_table_free(&nr->irq1);
	irqstat_table_free(&nr->soft0);
	irqstat_table_free(&nr->soft1);
	free(nr->gapbuf);
	free(nr->sp);
	free(nr->h);
}

/* In rounds, round 1's calibration for every round (their gaps are in its ticks). */
static double calibrate(struct probe_ctx *ctx, struct noise_pool *p)
{
	if (p && p->calibrated)
		ctx->tsc = p->tsc;
	else if (tsccal_probe(ctx) >= 0 && p) {
		p->tsc = ctx->tsc;
		p->calibrated = 1;
	}
	return ctx->tsc.hz;
}

static int threshold_ns;	/* --noise-threshold-ns= */
static int spin_ms;		/* --noise-ms=; 0: the profile's */

enum probe_status noise_probe_run(struct probe_ctx *ctx)
{
	static struct irqstat_smi smi[2];	/* 6 KiB */
	static const struct tp_sc_scan none;
	static struct cpu_map map;
	struct noise_run nr = {
		.ctx = ctx, .smi = smi, .pre = &none, .map = &map,
		.threshold_ns = threshold_ns > 0 ? threshold_ns : 1000,
	};
	/* in rounds, each spins its share */
	int64_t duration_ms = probe_round_ns(ctx, spin_ms > 0 ? spin_ms : (ctx->quick ? 1000 : 10000));
	enum probe_status rc = PROBE_FAILED;
	int set_rc;
	cpu_set_t set;

	if (tsccal_no_counter()) {
		emit_skip(P, 0, tsccal_no_counter());
		return PROBE_SKIPPED;
	}
	nr.pool = pool_of(ctx);
	nr.hz = calibrate(ctx, nr.pool);
	if (!(nr.hz > 0)) {
		emit_skip(P, 0,
			  "no TSC calibration (stub hand-over absent, user calibration failed)");
		return PROBE_SKIPPED;
	}
	/* the pre-OS columns: the stub's per-CPU scan records (ctx->stub), when there are some */
	if (ctx->stub->cpus && ctx->stub->cpus->scan.have_summary && !sysinfo_cpu_map_read(&map))
		nr.pre = &ctx->stub->cpus->scan;
	if (sched_getaffinity(0, sizeof(set), &set)) {
		emit_error(P, 0, "sched_getaffinity failed");
		return PROBE_FAILED;
	}
	if (duration_ms < 1)
		duration_ms = 1;
	if ((set_rc = noise_setup(&nr, &set, duration_ms))) {
		emit_error(P, 0, set_rc == -2 ? "more CPUs than its rounds' shared memory holds (run --rounds=1)"
					      : "out of memory for the gap buffers");
	} else {
		noise_spin(&nr);
		if (nr.nrun < nr.ncpu) {
			emit_error(P, 0, "could not start one thread per CPU");
		} else {
			noise_head(&nr);
			noise_interrupts(&nr, noise_report(&nr));
			if (nr.pool)
				pool_add(&nr);
			if (nr.pool && probe_round_last(ctx))
				pool_report(&nr);
			rc = PROBE_OK;
		}
	}
	noise_free(&nr);
	return rc;
}

/* ---- the registry's row (probes/registry.c) ---- */

/* The run's estimate (probe.h): its spin and the set-up around it (measured). */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	int64_t setup_ms = ctx->quick ? probe_expect(ctx, 300, 3000) : probe_expect(ctx, 1100, 500);

	return (spin_ms > 0 ? spin_ms : ctx->quick ? 1000 : 10000) + setup_ms;
}

static const struct probe_opt noise_opts[] = {
	{ .w = {
		.name = "noise-threshold-ns", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.lo = 10, .hi = 1000000000, .def = 1000, .dflt = "1000", .bounds = "10..10⁹",
		.help = "`noise`: smallest gap counted as an interruption",
	  }, .store = &threshold_ns },
	{ .w = {
		.name = "noise-ms", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .hi = 3600000,
		.dflt = "1000 quick, 10000 full", .help = "`noise`: spin time per CPU",
	  }, .store = &spin_ms },
};

/*
 * Every key of a noise record (struct probe_key). A percentile of fewer
 * gaps than it needs is the longest gap (nearest rank, stats.h).
 */
static const struct probe_key noise_keys[] = {
	PKEY_ID("cpu", 0, "the CPU measured (one result per CPU)"),
	PKEY_ID("threshold_ns", "ns", "a gap at least this long is an interruption"),
	PKEY_BUDGET("duration_ms", "ms", "time measured"),
	PKEY_FIG("interruptions", "count", PK_LOWER, "gaps over the threshold", .kind = PK_KIND_COUNT),
	PKEY_FIG("per_s", "1/s", PK_LOWER, "interruptions per second"),
	PKEY_FIG("stolen_pct", "%", PK_LOWER, "share of the time lost to gaps"),
	PKEY_FIG("max_gap_ns", "ns", PK_LOWER, "longest gap", .kind = PK_KIND_MAX),
	PKEY_FIG("p50_gap_ns", "ns", PK_LOWER, "median gap"),
	PKEY_FIG("p99_gap_ns", "ns", PK_LOWER, "p99 of the gaps", .same_as = "max_gap_ns",
		 .same_below_n = 100, .kind = PK_KIND_MAX),
	PKEY_FIG("p999_gap_ns", "ns", PK_LOWER, "p99.9 of the gaps", .same_as = "max_gap_ns",
		 .same_below_n = 1000, .kind = PK_KIND_MAX),
	PKEY_FIG("*_gap_ns", "ns", PK_LOWER, "other percentile gaps"),
	PKEY_FIG("loop_ns", "ns", PK_LOWER, "one turn of the reading loop"),
	PKEY_FIG("preemptions", "count", PK_LOWER, "involuntary context switches", .kind = PK_KIND_COUNT),
	PKEY_FIG("preos_max_gap_ns", "ns", PK_LOWER, "the stub's pre-OS scan of this CPU: longest gap",
		 .kind = PK_KIND_MAX),
	PKEY_FIG("preos_stolen_pct", "%", PK_LOWER, "the stub's pre-OS scan: share of its window lost"),
	PKEY_FIG("gaps_kept", "count", PK_NEITHER, "gaps kept for the percentiles", .kind = PK_KIND_CONTEXT),
	PKEY_FIG("gaps_dropped", "count", PK_LOWER, "gaps beyond the buffer", .kind = PK_KIND_COUNT),
	PKEY_FIG("tsc_backwards", "count", PK_LOWER, "TSC reads that went back", .kind = PK_KIND_COUNT),
	PKEY_FIG("tsc_hz", "Hz", PK_NEITHER, "TSC frequency used"),
	PKEY_FIG("[0-9]*", "count", PK_LOWER, "an interrupt's count, named as in /proc/interrupts",
		 .kind = PK_KIND_COUNT),
	PKEY_FIG("[A-Z]*", "count", PK_LOWER, "an interrupt's or softirq's count", .kind = PK_KIND_COUNT),
	PKEY_FIG("softirq:*", "count", PK_LOWER, "a softirq's count whose name an interrupt has too",
		 .kind = PK_KIND_COUNT),
	PKEY_FIG("smis", "count", PK_LOWER, "SMIs on every online CPU in the window (MSR_SMI_COUNT)",
		 .kind = PK_KIND_COUNT),
	PKEY_CTX("smi_cpus*", 0, "CPUs whose SMI count was read, and whether that changed"),
	PKEY_CTX("calibration", 0, "where the TSC frequency came from"),
	PKEY_CTX("ref", 0, "the calibration's reference"),
	PKEY_CTX("calib_*", 0, "the user-space calibration's rounds and spread"),
	PKEY_CTX("n", "count", "gaps behind the percentiles"),
	PKEY_CTX("gaps", 0, "histogram of the gaps (nested)"),
	PKEY_CTX("per_cpu", 0, "interrupt counts per CPU (nested)"),
	PKEY_CTX("interrupts*", 0, "interrupt counts (nested)"),
	PKEY_CTX("softirqs*", 0, "softirq counts (nested)"),
	PKEY_CTX("truncated", 0, "counts left out to fit the record"),
};

/* The verdict's items (struct probe_verdict; docs/verdict.md): the worst CPU's. */
static const struct probe_verdict noise_verdict[] = {
	{ .lim = { "noise_stolen_pct", "OS noise: time stolen from a spinning CPU", "%", 0.1, 1,
		   "1 % is 10 ms a second lost to the application" },
	  .place = 7, .key = "stolen_pct", .pick = PP_LARGEST },
	{ .lim = { "noise_max_gap_ns", "OS noise: largest gap", "ns", 10000, 100000,
		   "a gap over 100 us misses an RT deadline by itself" },
	  .place = 8, .key = "max_gap_ns", .pick = PP_LARGEST },
};

const struct probe noise_probe = {
	.name = "noise", .summary = "OS noise: a spinning thread per CPU, gaps above a threshold (sysjitter)",
	.run = noise_probe_run, .limit_quick_s = 30, .limit_full_s = 120, .expect_ms = expect_ms,
	PROBE_OPTS(noise_opts), PROBE_FIGURES("stolen_pct"),
	PROBE_KEYS(noise_keys),
	PROBE_VERDICT(noise_verdict),
	.rounds = { .min_round_ms = 150, .state_bytes = state_bytes },
};
