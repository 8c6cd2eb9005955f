// SPDX-License-Identifier: MIT
/*
 * The pre-OS scan's `stub_hwlat` records (one per CPU, then a summary), a
 * line for people per CPU; see hwlat.h and docs/probes/hwlat.md.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/stubcpu.h"
#include "../common/x86clock.h"
#include "arch.h"
#include "efitext.h"
#include "hwlat.h"

/* Gaps of different CPUs closer than this are one event: counter offsets and read time. */
#define HWLAT_MERGE_SLACK_US 5
/* Largest gaps per CPU in its record (of TP_HWLAT_TOP kept). */
#define HWLAT_REC_GAPS 8

static const char *const smi_word[] = { "unknown", "no", "yes" };

static void rec_hist(struct tp_rec *r, const struct tp_hwlat_cpu *c)
{
	tp_rec_arr_begin(r, "hist_lo_us");
	for (unsigned int i = 0; i < TP_HWLAT_BINS; i++)
		if (c->hist[i])
			tp_rec_uint(r, NULL, tp_hwlat_bin_lo_us(i));
	tp_rec_arr_end(r);
	tp_rec_arr_begin(r, "hist_n");
	for (unsigned int i = 0; i < TP_HWLAT_BINS; i++)
		if (c->hist[i])
			tp_rec_uint(r, NULL, c->hist[i]);
	tp_rec_arr_end(r);
}

/* The largest gaps: when (ns after the window's start, by this CPU's TSC), how long, SMI, CPUs. */
static void rec_gaps(struct tp_rec *r, const struct tp_hwlat_report *rep,
		     const struct tp_hwlat_cpu *c)
{
	tp_rec_arr_begin(r, "gaps");
	for (uint32_t k = 0; k < c->ntop && k < HWLAT_REC_GAPS; k++) {
		const struct tp_hwlat_gap *g = &c->top[k];

		tp_rec_obj_begin(r, NULL);
		tp_rec_uint(r, "at_ns", tp_hwlat_ns(g->start_tsc - rep->go_tsc, rep->tsc_hz));
		tp_rec_uint(r, "tsc", g->start_tsc);
		tp_rec_uint(r, "ns", tp_hwlat_ns(g->ticks, rep->tsc_hz));
		tp_rec_str(r, "smi", smi_word[g->smi < 3 ? g->smi : 0]);
		tp_rec_uint(r, "cpus", g->shared);
		tp_rec_obj_end(r);
	}
	tp_rec_arr_end(r);
}

/* A CPU's figures as its record carries them; c NULL: it did not report. */
static void cpu_entry(struct tp_sc_cpu *e, const struct tp_hwlat_report *rep,
		       uint32_t apic, const struct tp_hwlat_cpu *c)
{
	*e = (struct tp_sc_cpu){ .apic = apic };
	if (!c)
		return;
	e->reported = 1;
	e->coverage_ppm = tp_hwlat_coverage_ppm(c, rep->window_ticks);
	e->count = c->count;
	e->max_ns = tp_hwlat_ns(c->max_ticks, rep->tsc_hz);
	e->total_ns = tp_hwlat_ns(c->total_ticks, rep->tsc_hz);
	e->smi_read = (int)c->has_smi;
	e->smi = c->smi_after - c->smi_before;
}

static void say_line(struct tp_console *con, const struct tp_hwlat_report *rep,
		     const struct tp_hwlat_cpu *c, uint32_t cov)
{
	char m[200];
	struct tp_buf b;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "pre-OS latency, " TP_ARCH_CPU_ID_NAME " ");
	tp_buf_putu(&b, c->apic);
	tp_buf_puts(&b, ": ");
	tp_buf_putu(&b, c->count);
	tp_buf_puts(&b, " gaps, max ");
	tp_buf_putu(&b, tp_hwlat_ns(c->max_ticks, rep->tsc_hz));
	tp_buf_puts(&b, " ns, total ");
	tp_buf_putu(&b, tp_hwlat_ns(c->total_ticks, rep->tsc_hz));
	tp_buf_puts(&b, " ns, coverage ");
	tp_buf_putu(&b, cov / 10000);
	tp_buf_putc(&b, '.');
	tp_buf_putu(&b, cov / 1000 % 10);
	tp_buf_puts(&b, " %");
	tp_con_msg(con, m);
}

static void say_cpu(struct tp_console *con, const struct tp_hwlat_report *rep, uint32_t i)
{
	const struct tp_hwlat_cpu *c = &rep->slot[i].cpu;
	struct tp_rec *r = tp_con_rec(con, TP_SC_HWLAT);
	uint32_t cov = tp_hwlat_coverage_ppm(c, rep->window_ticks);
	struct tp_sc_cpu e;

	cpu_entry(&e, rep, c->apic, c);
	tp_rec_str(r, TP_SC_WHAT, TP_SC_CPU);
	tp_sc_scan_keys(r, TP_ARCH_CPU_ID_KEY, &e);
	tp_rec_bool(r, "bsp", (int)rep->slot[i].bsp);
	tp_rec_uint(r, "samples", c->samples);
	rec_hist(r, c);
	rec_gaps(r, rep, c);
	tp_con_emit(con);
	say_line(con, rep, c, cov);
}

/* A CPU without figures: its procedure did not return in time, or never ran. */
static void say_missing(struct tp_console *con, uint32_t apic, const char *why)
{
	struct tp_rec *r = tp_con_rec(con, TP_SC_HWLAT);
	struct tp_sc_cpu e = { .apic = apic };
	char m[160];
	struct tp_buf b;

	tp_rec_str(r, TP_SC_WHAT, TP_SC_CPU);
	tp_sc_scan_keys(r, TP_ARCH_CPU_ID_KEY, &e);
	tp_rec_bool(r, "bsp", 0);
	tp_rec_str(r, "reason", why);
	tp_con_emit(con);
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "WARNING: pre-OS latency scan: " TP_ARCH_CPU_ID_NAME " ");
	tp_buf_putu(&b, apic);
	tp_buf_puts(&b, " ");
	tp_buf_puts(&b, why);
	tp_con_msg(con, m);
}

/* 1 when an AP's APIC ID the firmware named has a slot. */
static int has_slot(const struct tp_hwlat_report *rep, uint32_t apic)
{
	for (uint32_t i = 1; i < rep->nslots; i++)
		if (rep->slot[i].cpu.apic == apic)
			return 1;
	return 0;
}

/* The BSP's chunks against the reference: the summary's hidden-time keys (stubcpu.h). */
static void rec_hidden(struct tp_rec *r, const struct tp_hwlat_report *rep)
{
	const struct tp_hidden_sum *h = &rep->hidden;

	tp_rec_str(r, TP_SC_HIDDEN_REF, rep->ref.name);
	if (!rep->ref.read) {
		tp_rec_str(r, TP_SC_HIDDEN_REASON, rep->ref.why);
		return;
	}
	tp_rec_uint(r, TP_SC_HIDDEN_CHUNK_MS, TP_HIDDEN_CHUNK_MS);
	tp_rec_uint(r, TP_SC_HIDDEN_PPM, rep->ref.scale.ppm);
	tp_rec_uint(r, TP_SC_HIDDEN_CHUNKS, h->chunks);
	tp_rec_uint(r, TP_SC_HIDDEN_GAPS, h->gaps);
	tp_rec_int(r, TP_SC_HIDDEN_MAX, h->max_deficit_ns);
	tp_rec_uint(r, TP_SC_HIDDEN_MAX_UNC, h->max_unc_ns);
}

/* The same for people: "pre-OS time hidden from the TSC, against hpet: ..." */
static void say_hidden(struct tp_console *con, const struct tp_hwlat_report *rep)
{
	char m[200];
	struct tp_buf b;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "pre-OS time hidden from the " TP_ARCH_COUNTER);
	if (!rep->ref.read) {
		tp_buf_puts(&b, ": not measured, ");
		tp_buf_puts(&b, rep->ref.why);
	} else {
		tp_buf_puts(&b, ", against ");
		tp_buf_puts(&b, rep->ref.name);
		tp_buf_puts(&b, ": ");
		tp_buf_putu(&b, rep->hidden.gaps);
		tp_buf_puts(&b, " of ");
		tp_buf_putu(&b, rep->hidden.chunks);
		tp_buf_puts(&b, " chunks, largest deficit ");
		tp_buf_puti(&b, rep->hidden.max_deficit_ns);
		tp_buf_puts(&b, " ns (uncertainty ");
		tp_buf_putu(&b, rep->hidden.max_unc_ns);
		tp_buf_puts(&b, " ns)");
	}
	tp_con_msg(con, m);
}

static void say_summary(struct tp_console *con, const struct tp_hwlat_report *rep,
			uint32_t reported, uint64_t max_ticks, uint32_t min_cov)
{
	struct tp_rec *r = tp_con_rec(con, TP_SC_HWLAT);

	tp_rec_str(r, TP_SC_WHAT, TP_SC_SUMMARY);
	tp_rec_bool(r, TP_SC_SCANNED, rep->scanned);
	tp_rec_uint(r, TP_SC_WINDOW, rep->window_ms);
	tp_rec_uint(r, TP_SC_THRESH, rep->thresh_us);
	if (rep->why) {
		char m[160];
		struct tp_buf b;

		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, rep->why);
		if (EFI_ERROR(rep->status)) {
			tp_buf_puts(&b, ": ");
			tp_buf_puts(&b, tp_efi_status_str(rep->status));
		}
		tp_rec_str(r, "reason", m);
	}
	if (rep->scanned) {
		tp_rec_uint(r, "cpus_expected", 1 + rep->aps_expected);
		tp_rec_uint(r, "cpus_reported", reported);
		tp_rec_uint(r, "aps_over_cap", rep->aps_over_cap);
		tp_rec_uint(r, TP_SC_SYSTEM_WIDE, rep->merge.system_wide);
		tp_rec_uint(r, TP_SC_SYSTEM_WIDE_MAX, tp_hwlat_ns(rep->merge.system_wide_max_ticks,
								 rep->tsc_hz));
		tp_rec_uint(r, "per_cpu_n", rep->merge.per_cpu);
		tp_rec_uint(r, "max_ns", tp_hwlat_ns(max_ticks, rep->tsc_hz));
		tp_rec_fixed(r, "min_coverage_pct", min_cov, 4);
		tp_rec_bool(r, "smi_read", rep->smi_readable);
		tp_rec_bool(r, "watchdog_off", rep->watchdog_off);
		tp_rec_bool(r, "finish_signalled", rep->finish_seen);
		tp_rec_uint(r, "duration_ms", rep->duration_ms);
		tp_rec_uint(r, "tsc_hz", rep->tsc_hz);
		rec_hidden(r, rep);
	}
	tp_con_emit(con);
	if (rep->scanned)
		say_hidden(con, rep);
}

/*
 * The merge over the CPUs that reported: a copy of their slots (the BSP's
 * alone when no memory), merged; their `shared` counts go back to the slots
 * in say_cpus(). Returns the copy, &rep->slot[0].cpu in the fallback.
 */
static struct tp_hwlat_cpu *merge_cpus(struct tp_console *con, struct tp_hwlat_report *rep)
{
	struct tp_hwlat_cpu *cpus = AllocatePool(rep->nslots * sizeof(*cpus));
	uint32_t n = 0;

	if (!cpus) {
		tp_con_msg(con, "WARNING: pre-OS latency scan: no memory to merge the CPUs' gaps: "
				"the BSP's alone");
		rep->nslots = 1;
		cpus = &rep->slot[0].cpu;
	}
	for (uint32_t i = 0; i < rep->nslots; i++)
		if (tp_hwlat_reported(rep, i))
			cpus[n++] = rep->slot[i].cpu;
	tp_hwlat_merge(cpus, n, tp_muldiv64(HWLAT_MERGE_SLACK_US, rep->tsc_hz, 1000000, 0),
		       &rep->merge);
	return cpus;
}

/* What say_cpus() found over the CPUs that reported, for the summary. */
struct say_tally {
	uint32_t reported, min_cov;
	uint64_t max_ticks;
};

/* Each slot's CPU, the merged copy put back first, or that it did not report. */
static void say_cpus(struct tp_console *con, struct tp_hwlat_report *rep,
		     const struct tp_hwlat_cpu *cpus, struct say_tally *t)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < rep->nslots; i++) {
		const struct tp_hwlat_cpu *c = &rep->slot[i].cpu;

		if (!tp_hwlat_reported(rep, i)) {
			say_missing(con, c->apic, "did not report: its scan procedure did not "
						  "return within the time-out");
			continue;
		}
		rep->slot[i].cpu = cpus[n++];
		say_cpu(con, rep, i);
		t->reported++;
		t->max_ticks = c->max_ticks > t->max_ticks ? c->max_ticks : t->max_ticks;
		if (tp_hwlat_coverage_ppm(c, rep->window_ticks) < t->min_cov)
			t->min_cov = tp_hwlat_coverage_ppm(c, rep->window_ticks);
	}
}

void tp_hwlat_say(struct tp_console *con, struct tp_hwlat_report *rep)
{
	struct tp_hwlat_cpu *cpus;
	struct say_tally t = { 0, 1000000, 0 };

	if (!rep->scanned) {
		tp_con_msg(con, rep->why);
		say_summary(con, rep, 0, 0, 0);
		return;
	}
	cpus = merge_cpus(con, rep);
	say_cpus(con, rep, cpus, &t);
	for (uint32_t k = 0; k < rep->aps_expected; k++)
		if (!has_slot(rep, rep->expected_apic[k])) {
			say_missing(con, rep->expected_apic[k], "did not report: it never started "
								"the scan procedure");
		}
	if (rep->why)
		tp_con_msg(con, rep->why);
	say_summary(con, rep, t.reported, t.max_ticks, t.reported ? t.min_cov : 0);
	if (cpus != &rep->slot[0].cpu)
		FreePool(cpus);
}
