// SPDX-License-Identifier: MIT
/* Probe `noise`'s records and table rows; see noise_out.h. */
#include <math.h>
#include <string.h>

#include "../emit.h"
#include "noise_out.h"

#define P "noise"
#define REC_BUDGET 6000	/* bytes of a record before we stop adding (max 8 KiB) */

static void stats_fields(struct tp_rec *r, const struct noise_stats *s)
{
	emit_rec_double(r, "duration_ms", s->duration_ns / 1e6);
	tp_rec_uint(r, "interruptions", s->interruptions);
	emit_rec_double(r, "per_s", s->per_s);
	emit_rec_double(r, "stolen_pct", s->stolen_pct);
	emit_rec_double(r, "max_gap_ns", s->interruptions ? s->max_gap_ns : NAN);
	emit_rec_double(r, "p50_gap_ns", s->p50_gap_ns);
	emit_rec_double(r, "p99_gap_ns", s->p99_gap_ns);
	emit_rec_double(r, "p999_gap_ns", s->p999_gap_ns);
	tp_rec_uint(r, "n", s->kept);	/* gaps behind the percentiles (stats.h) */
	if (s->dropped) {
		tp_rec_uint(r, "gaps_kept", s->kept);
		tp_rec_uint(r, "gaps_dropped", s->dropped); /* percentiles cover the kept ones */
	}
	if (s->backwards)
		tp_rec_uint(r, "tsc_backwards", s->backwards);
}

/* A percentile in us, "-" when fewer than PCT_MIN_BEYOND gaps lie beyond it
 * (stats.h) or there is none. */
static void pct_us(char *buf, size_t len, double ns, double p, size_t n)
{
	if (isfinite(ns) && stats_percentile_shown(p, n))
		snprintf(buf, len, "%.1f", ns / 1e3);
	else
		snprintf(buf, len, "-");
}

/* The stub's pre-OS scan of one CPU beside it (docs/probes/hwlat.md): max and share lost. */
static void preos_cols(char *buf, size_t len, const struct tp_sc_cpu *pre,
		       uint32_t window_ms)
{
	if (pre && pre->reported && window_ms)
		snprintf(buf, len, "%9.1f %9.4f", pre->max_ns / 1e3,
			 pre->total_ns / (window_ms * 1e4));
	else
		snprintf(buf, len, "%9s %9s", "-", "-");
}

void noise_human_row(const char *name, const struct noise_stats *s,
		      const struct tp_sc_cpu *pre, uint32_t window_ms)
{
	char p50[24], p99[24], p999[24], po[32];

	pct_us(p50, sizeof(p50), s->p50_gap_ns, 50, s->kept);
	pct_us(p99, sizeof(p99), s->p99_gap_ns, 99, s->kept);
	pct_us(p999, sizeof(p999), s->p999_gap_ns, 99.9, s->kept);
	preos_cols(po, sizeof(po), pre, window_ms);
	emit_human("  %-6s %8.0f %9llu %9.1f %9.4f %9.1f %8s %8s %8s %8zu | %s\n", name,
	      s->duration_ns / 1e6, (unsigned long long)s->interruptions, s->per_s, s->stolen_pct,
	      s->interruptions ? s->max_gap_ns / 1e3 : 0.0, p50, p99, p999, s->kept, po);
}

static int has_row(const struct irqstat_table *t, const char *name)
{
	for (size_t i = 0; t && i < t->nrows; i++)
		if (!strcmp(t->row[i].name, name))
			return 1;
	return 0;
}

/*
 * Non-zero rows of D (column COL, or the totals for -1) as "name":delta in
 * the object being written, while the record has room; a name that OTHER
 * also has gets a "softirq:" prefix (none do in Linux 6.1, but a key must
 * not appear twice). Returns 1 when it ran out of room.
 */
static int irq_fields(struct tp_rec *r, const struct irqstat_table *d, int col,
		      const struct irqstat_table *other)
{
	char key[64];

	for (size_t i = 0; d && i < d->nrows; i++) {
		uint64_t v =
		    col < 0 ? d->row[i].total : d->count[i * (size_t)d->ncol + (size_t)col];

		if (!v)
			continue;
		if (r->len > REC_BUDGET)
			return 1;
		snprintf(key, sizeof(key), "%s%s", has_row(other, d->row[i].name) ? "softirq:" : "",
			 d->row[i].name);
		tp_rec_uint(r, key, v);
	}
	return 0;
}

static void human_top(const char *what, const struct irqstat_table *d)
{
	size_t shown = 0;
	uint64_t used[5] = {0};
	size_t idx[5];

	/* the five largest, without sorting the table */
	for (size_t k = 0; k < 5; k++) {
		size_t best = (size_t)-1;

		for (size_t i = 0; i < d->nrows; i++) {
			int taken = 0;

			for (size_t j = 0; j < k; j++)
				taken |= idx[j] == i;
			if (!taken && d->row[i].total &&
			    (best == (size_t)-1 || d->row[i].total > d->row[best].total))
				best = i;
		}
		if (best == (size_t)-1)
			break;
		idx[k] = best;
		used[k] = d->row[best].total;
		shown++;
	}
	emit_human("  %s during the run:", what);
	for (size_t k = 0; k < shown; k++)
		emit_human(" %s %llu", d->row[idx[k]].name, (unsigned long long)used[k]);
	emit_human("%s\n", shown ? "" : " none");
}

void noise_emit_interrupts(const struct irqstat_table *irq, const struct irqstat_table *soft,
			    int64_t duration_ms)
{
	const struct irqstat_table *cols = irq && irq->ncol ? irq : soft;
	struct tp_rec r;
	int full = 0;

	/* Flat "SOURCE":count at the top, so that `report` compares each
	 * source across runs; per CPU nested, as long as it fits. */
	emit_result_begin(&r, P, "interrupts");
	tp_rec_int(&r, "duration_ms", duration_ms);
	full |= irq_fields(&r, irq, -1, 0);
	full |= irq_fields(&r, soft, -1, irq);
	if (!full && cols && cols->ncol) {
		tp_rec_obj_begin(&r, "per_cpu");
		for (int c = 0; c < cols->ncol && !full; c++) {
			char num[16];

			snprintf(num, sizeof(num), "%d", cols->cpu[c]);
			tp_rec_obj_begin(&r, num);
			if (irq && irq->ncol && cols == irq)
				full |= irq_fields(&r, irq, c, 0);
			for (int k = 0; soft && k < soft->ncol && !full; k++)
				if (soft->cpu[k] == cols->cpu[c])
					full |= irq_fields(&r, soft, k, irq);
			tp_rec_obj_end(&r);
		}
		tp_rec_obj_end(&r);
	}
	if (full)
		tp_rec_bool(&r, "truncated", 1);
	emit_end(&r);
	if (irq)
		human_top("interrupts", irq);
	if (soft)
		human_top("softirqs", soft);
}

void noise_emit_smi_record(uint64_t n, int cpus, int changed, int64_t duration_ms)
{
	struct tp_rec r;

	emit_result_begin(&r, P, "smis");
	tp_rec_uint(&r, "smis", n);
	tp_rec_int(&r, "smi_cpus", cpus);
	tp_rec_int(&r, "duration_ms", duration_ms);
	if (changed)
		tp_rec_bool(&r, "smi_cpus_changed", 1);
	emit_end(&r);
	emit_human("  SMIs during the run: %llu on %d CPUs\n", (unsigned long long)n, cpus);
}

void noise_emit_stats(const char *name, int cpu, const struct noise_stats *s,
		       const struct loghist *h, const struct probe_ctx *ctx, uint64_t reads,
		       long nivcsw, int threshold_ns, const struct tp_sc_cpu *pre,
		       uint32_t window_ms)
{
	struct tp_rec r;

	emit_result_begin(&r, P, name);
	if (cpu >= 0)
		tp_rec_int(&r, "cpu", cpu);
	tp_rec_int(&r, "threshold_ns", threshold_ns);
	stats_fields(&r, s);
	/* the loop's own period, gaps left out: near the threshold, every
	 * read would be a "gap" */
	emit_rec_double(&r, "loop_ns",
		   reads ? s->duration_ns * (1 - s->stolen_pct / 100) / (double)reads : NAN);
	tp_rec_int(&r, "preemptions", nivcsw);
	if (pre && pre->reported && window_ms) {
		tp_rec_uint(&r, "preos_max_gap_ns", pre->max_ns);
		emit_rec_double(&r, "preos_stolen_pct", pre->total_ns / (window_ms * 1e4));
	}
	stats_loghist_record(&r, "gaps", h);
	emit_end(&r);
}
