// SPDX-License-Identifier: MIT
/*
 * Probe `tscsync`, before the OS and IA32_TSC_ADJUST (tscsync_impl.h): the
 * offsets the UEFI stub measured (x86: through the firmware's MP services;
 * arm64: CPUs started with PSCI CPU_ON), every pair of its file's
 * `stub_tscsync` records (userland/stubcpus.c; docs/stub.md, "TSC offsets
 * before the OS"), as
 * `pre-os` records on Linux CPU numbers, and on x86 each CPU's
 * IA32_TSC_ADJUST as the stub found it and as it is now
 * (docs/probes/tscsync.md, "Before the OS").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../emit.h"
#include "../msr.h"
#include "../probe.h"
#include "../stubcpus.h"
#include "tscsync_impl.h"

/* The stub's pairs mapped: 0, or -1 with why (a skip's reason). */
static int preos_load(const struct stub_handoff *st, const struct cpu_names *names,
		      struct preos *p, char *why, size_t len)
{
	if (!st->cpus) {
		snprintf(why, len, "no pre-OS figures: no stub file (stub.tp1), not booted by the "
			 "timeprobe stub");
		return -1;
	}
	if (!st->cpus->preos.have_bsp) {
		snprintf(why, len, "no pre-OS figures: the stub's file holds no stub_tscsync bsp "
			 "record (its per-CPU step did not run: see its stub_tscsync summary)");
		return -1;
	}
	p->w = st->cpus->preos;
	p->bsp_cpu = hwid_cpu_of(names, p->w.bsp_apic);
	for (size_t i = 0; i < p->w.n; i++) {
		const struct tp_sc_pair *e = &p->w.pair[i];
		struct cell *c = &p->c[i];

		p->cpu[i] = hwid_cpu_of(names, e->apic);
		*c = (struct cell){ .done = 1 };
		c->s.min_rtt_ticks = (int64_t)e->rtt_ticks;
		c->s.samples = e->samples;
		c->e.offset_ticks = ((double)e->lo_ticks + (double)e->hi_ticks) / 2;
		c->e.bound_ticks = ((double)e->hi_ticks - (double)e->lo_ticks) / 2;
		c->e.consistent = e->consistent;
		c->e.excludes_zero = e->lo_ticks > 0 || e->hi_ticks < 0;
	}
	return 0;
}

/* "tsc_adjust cpuN", or "tsc_adjust apicN" when no Linux CPU has that APIC ID. */
static void adjust_name(char *name, size_t len, int cpu, int64_t apic)
{
	if (cpu >= 0)
		snprintf(name, len, "tsc_adjust cpu%d", cpu);
	else
		snprintf(name, len, "tsc_adjust apic%lld", (long long)apic);
}

static void emit_adjust(const char *when, int cpu, int64_t apic, const struct adj *a,
			const char *why)
{
	struct tp_rec r;
	char name[48];

	adjust_name(name, sizeof(name), cpu, apic);
	if (a->state != ADJ_VALUE) {
		tscsync_emit_skip(name, when, why);
		return;
	}
	emit_result_begin(&r, TSCSYNC_PROBE, name);
	tp_rec_str(&r, "when", when);
	tp_rec_int(&r, "cpu", cpu);
	if (apic >= 0)
		tp_rec_int(&r, "apic", apic);
	tp_rec_int(&r, "tsc_adjust", a->v);
	emit_end(&r);
}

static struct adj preos_adj(const struct tp_sc_adjust *a)
{
	return (struct adj){ a->present ? ADJ_VALUE : ADJ_NONE, a->value };
}

#define STUB_NO_ADJUST "the stub found no IA32_TSC_ADJUST on this CPU: " \
	"CPUID.(EAX=07H,ECX=0):EBX[1] clear"

/* The stub's pairs and TSC_ADJUST values as this probe's records. */
static void preos_emit(const struct preos *p, double hz)
{
	struct adj a = preos_adj(&p->w.bsp_adjust);

	for (size_t i = 0; i < p->w.n; i++) {
		struct pair_id id = { TSCSYNC_PREOS, p->bsp_cpu, p->cpu[i], p->w.bsp_apic, p->w.pair[i].apic };

		tscsync_emit_pair(&id, &p->c[i], hz, -1);
	}
	if (!TP_HAVE_TSC) {
		tscsync_emit_skip("tsc_adjust", TSCSYNC_PREOS, TSCSYNC_NO_ADJUST);
		return;
	}
	emit_adjust(TSCSYNC_PREOS, p->bsp_cpu, p->w.bsp_apic, &a, STUB_NO_ADJUST);
	for (size_t i = 0; i < p->w.n; i++) {
		a = preos_adj(&p->w.pair[i].adjust);
		emit_adjust(TSCSYNC_PREOS, p->cpu[i], p->w.pair[i].apic, &a, STUB_NO_ADJUST);
	}
}

const struct preos *tscsync_preos_records(const struct stub_handoff *st,
					  const struct cpu_names *names, struct preos *p, double hz)
{
	char why[256];

	if (preos_load(st, names, p, why, sizeof(why))) {
		tscsync_emit_skip("pre-os", TSCSYNC_PREOS, why);
		return NULL;
	}
	preos_emit(p, hz);
	return p;
}

/* IA32_TSC_ADJUST of each measured CPU now, through /dev/cpu/N/msr (msr.h). */
void tscsync_adjust_now(const int *cpus, int n, const struct cpu_map *map, struct adj *out)
{
	for (int i = 0; i < n; i++)
		out[i] = (struct adj){ ADJ_UNKNOWN, 0 };
	if (!TP_HAVE_TSC) {
		tscsync_emit_skip("tsc_adjust", TSCSYNC_POSTBOOT, TSCSYNC_NO_ADJUST);
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct cpu_entry *c = sysinfo_cpu_map_find(map, cpus[i]);
		char why[160] = "";
		uint64_t v;
		int rc;

		if (c && c->tsc_adjust == 0) {
			out[i].state = ADJ_NONE;
			snprintf(why, sizeof(why), "the CPU has no IA32_TSC_ADJUST: no tsc_adjust flag "
				 "in /proc/cpuinfo (CPUID.(EAX=07H,ECX=0):EBX[1] clear)");
		} else if ((rc = msr_read(cpus[i], MSR_IA32_TSC_ADJUST, &v)) != 0) {
			msr_why(cpus[i], MSR_IA32_TSC_ADJUST, rc, why, sizeof(why));
		} else {
			out[i] = (struct adj){ ADJ_VALUE, (int64_t)v };
		}
		emit_adjust(TSCSYNC_POSTBOOT, cpus[i], c ? c->apic : -1, &out[i], why);
	}
}

static int index_of(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return i;
	return -1;
}

/* "cpuN", or the stub's name for it (HWID_KEY) when no Linux CPU has its ID. */
static void cpu_text(char *s, size_t len, int cpu, int64_t hw)
{
	if (cpu >= 0)
		snprintf(s, len, "cpu%d", cpu);
	else
		snprintf(s, len, "%s%lld", HWID_KEY, (long long)hw);
}

static void cell_text(char *s, size_t len, const struct cell *c, double hz)
{
	if (c && c->done)
		snprintf(s, len, "%.1f +- %.1f", tscsync_ns(c->e.offset_ticks, hz),
			 tscsync_ns(c->e.bound_ticks, hz));
	else
		snprintf(s, len, "-");
}

static void adj_text(char *s, size_t len, const struct adj *a)
{
	if (a->state == ADJ_VALUE)
		snprintf(s, len, "%lld", (long long)a->v);
	else
		snprintf(s, len, "%s", a->state == ADJ_NONE ? "none" : "-");
}

/* The stub's IA32_TSC_ADJUST of Linux CPU cpu (ADJ_UNKNOWN: not among its pairs). */
static struct adj preos_adj_of(const struct preos *p, int cpu)
{
	if (p && cpu == p->bsp_cpu)
		return preos_adj(&p->w.bsp_adjust);
	for (size_t k = 0; p && k < p->w.n; k++)
		if (p->cpu[k] == cpu)
			return preos_adj(&p->w.pair[k].adjust);
	return (struct adj){ ADJ_UNKNOWN, 0 };
}

/*
 * Pre-OS next to post-boot: the stub's pairs (BSP against each AP) beside
 * this probe's same pairs, then IA32_TSC_ADJUST per CPU. Returns how many
 * CPUs' TSC_ADJUST differ between the two reads (the kernel, or the
 * firmware after the stub, moved a TSC).
 */
int tscsync_human_preos(const struct preos *p, const int *cpus, int n, const struct cell *m,
			const struct adj *now, double hz)
{
	char a[24], b[24], ab[56], pre[48], post[48];
	int changed = 0;

	if (p && p->w.n) {
		emit_human("\n  before the OS (stub: BSP against each AP) and after boot "
		      "(ns; %s_B - %s_A)\n  %-16s %24s %24s\n", TSCSYNC_COUNTER, TSCSYNC_COUNTER,
		      "A -> B", "pre-OS", "post-boot");
	} else if (p) {
		emit_human("\n  before the OS: no pair (the stub measured no AP; its stub_tscsync records say why)\n");
	} else {
		emit_human("\n  before the OS: no figures (the skip record says why)\n");
	}
	for (size_t k = 0; p && k < p->w.n; k++) {
		int i = index_of(cpus, n, p->bsp_cpu), j = index_of(cpus, n, p->cpu[k]);

		cpu_text(a, sizeof(a), p->bsp_cpu, p->w.bsp_apic);
		cpu_text(b, sizeof(b), p->cpu[k], p->w.pair[k].apic);
		snprintf(ab, sizeof(ab), "%s -> %s", a, b);
		cell_text(pre, sizeof(pre), &p->c[k], hz);
		cell_text(post, sizeof(post), m && i >= 0 && j >= 0 ? &m[i * n + j] : NULL, hz);
		emit_human("  %-16s %24s %24s\n", ab, pre, post);
	}
	if (!TP_HAVE_TSC) {
		emit_human("\n  IA32_TSC_ADJUST: x86 only\n");
		return 0;
	}
	emit_human("\n  IA32_TSC_ADJUST %15s %15s\n", "pre-OS", "post-boot");
	for (int i = 0; i < n; i++) {
		struct adj a = preos_adj_of(p, cpus[i]);

		adj_text(pre, sizeof(pre), &a);
		adj_text(post, sizeof(post), &now[i]);
		changed += a.state == ADJ_VALUE && now[i].state == ADJ_VALUE && a.v != now[i].v;
		emit_human("  cpu%-13d %15s %15s\n", cpus[i], pre, post);
	}
	return changed;
}

/* The stub's pairs in the summary: how many, the largest |offset|, proven ones. */
void tscsync_summary_preos(struct tp_rec *r, const struct preos *p, int changed, double hz)
{
	double worst = 0;
	int proven = 0;

	if (!p)
		return;
	for (size_t k = 0; k < p->w.n; k++) {
		if (fabs(p->c[k].e.offset_ticks) > worst)
			worst = fabs(p->c[k].e.offset_ticks);
		proven += p->c[k].e.excludes_zero;
	}
	tp_rec_int(r, "preos_pairs", (int64_t)p->w.n);
	emit_rec_double(r, "preos_max_abs_offset_ns", tscsync_ns(worst, hz));
	tp_rec_int(r, "preos_pairs_excluding_zero", proven);
	if (TP_HAVE_TSC)
		tp_rec_int(r, "tsc_adjust_changed", changed);
}
