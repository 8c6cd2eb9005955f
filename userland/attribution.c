// SPDX-License-Identifier: MIT
/*
 * Attribution per probe; see attribution.h. The snapshots are taken in the
 * suite's own process, outside the probe's time, and cost a few reads of
 * /proc and one pread() per CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attribution.h"
#include "msr.h"
#include "emit.h"
#include "fingerprint.h"
#include "sink.h"
#include "sysinfo.h"
#include "timeutil.h"

#define STAT_TEXT_MAX (1 << 20)	/* /proc/stat: one line per CPU and the long intr line */
#define REC_BUDGET 6000		/* bytes of a record before sources are left out */
#define HUMAN_TOP 3		/* interrupt sources named on the human line */

/* ------------------------------------------------------------------ */
/* Pure parts                                                          */

int attr_parse_ctxt(const char *text, uint64_t *ctxt)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : 0) {
		char *end;

		if (strncmp(l, "ctxt ", 5))
			continue;
		*ctxt = strtoull(l + 5, &end, 10);
		return end > l + 5 && (*end == '\n' || *end == 0) ? 0 : -EINVAL;
	}
	return -EINVAL;
}

int attr_parse_cpulist(const char *text, int *cpus, int max)
{
	const char *p = text;
	int n = 0;

	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -EINVAL;
		}
		for (long c = a; c <= b && n < max; c++)
			cpus[n++] = (int)c;
		if (*end != ',' && *end && *end != '\n')
			return -EINVAL;
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

static int find_cpu(const int *cpu, int n, int want)
{
	for (int i = 0; i < n; i++)
		if (cpu[i] == want)
			return i;
	return -1;
}

uint64_t attr_smi_delta(const struct attr_smi *before, const struct attr_smi *after,
			int *cpus_changed)
{
	uint64_t sum = 0;

	*cpus_changed = before->n != after->n;
	for (int i = 0; i < after->n; i++) {
		int j = find_cpu(before->cpu, before->n, after->cpu[i]);

		if (j < 0) {
			*cpus_changed = 1;
			continue;
		}
		sum += (after->count[i] - before->count[j]) & 0xffffffffu;
	}
	return sum;
}

/* x86's arch_show_interrupts() (arch/x86/kernel/irq.c) prints ERR and MIS
 * as one figure; with one CPU online it looks like a column. */
static int machine_wide(const char *name)
{
	return !strcmp(name, "ERR") || !strcmp(name, "MIS");
}

int attr_irq_delta(const struct irq_table *b, const struct irq_table *a, uint64_t *out)
{
	int changed = b->ncol != a->ncol;

	for (size_t r = 0; r < a->nrows; r++) {
		size_t rb;
		uint64_t colsum = 0;

		out[r] = 0;
		for (rb = 0; rb < b->nrows && strcmp(b->row[rb].name, a->row[r].name); rb++)
			;
		if (rb == b->nrows)
			continue;	/* new since: its counts began before we looked */
		for (int c = 0; c < a->ncol; c++) {
			uint64_t x = a->count[r * (size_t)a->ncol + (size_t)c], y;
			int cb = find_cpu(b->cpu, b->ncol, a->cpu[c]);

			colsum += x;
			if (cb < 0) {
				changed = 1;
				continue;
			}
			y = b->count[rb * (size_t)b->ncol + (size_t)cb];
			out[r] += x > y ? x - y : 0;
		}
		if (machine_wide(a->row[r].name) || (!colsum && a->row[r].total))
			out[r] = a->row[r].total > b->row[rb].total ? a->row[r].total - b->row[rb].total : 0;
	}
	return changed;
}

void attr_group(uint64_t v, char *buf, size_t len)
{
	char digits[24];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ' ';
		if (o + 1 < len)
			buf[o++] = digits[i];
	}
	buf[o] = 0;
}

/* ------------------------------------------------------------------ */
/* Snapshots                                                           */

static void smi_why(struct attr_smi *s, int cpu, int err)
{
	static char why[112];

	s->err = err;
	msr_why(cpu, MSR_SMI_COUNT, err, why, sizeof(why));
	s->why = why;
}

void attr_smi_take(struct attr_smi *s)
{
	char vendor[13], list[1024];
	int cpus[ATTR_CPUS], n;

	memset(s, 0, sizeof(*s));
	fp_cpu_vendor(vendor);
	if (strcmp(vendor, "GenuineIntel")) {
		/* AMD documents no SMI counter (APM vol. 2, 10.2): none to read */
		s->why = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")
				 ? "AMD CPU: no SMI counter MSR"
				 : "not an Intel CPU: no MSR_SMI_COUNT";
		return;
	}
	if (read_text("/sys/devices/system/cpu/online", list, sizeof(list)) <= 0 ||
	    (n = attr_parse_cpulist(list, cpus, ATTR_CPUS)) <= 0) {
		s->why = "no list of online CPUs (/sys/devices/system/cpu/online)";
		return;
	}
	for (int i = 0; i < n; i++) {
		uint64_t v;
		int rc = msr_read(cpus[i], MSR_SMI_COUNT, &v);

		if (rc)
			return smi_why(s, cpus[i], rc);
		s->count[s->n] = v & 0xffffffffu;	/* the count is bits 31:0 */
		s->cpu[s->n++] = cpus[i];
	}
}

static void snap_take(struct attr_snap *s)
{
	char *text = malloc(STAT_TEXT_MAX);
	int n;

	s->t_ns = mono_ns();
	s->irq_rc = irq_snap("/proc/interrupts", 1, &s->irq);
	s->soft_rc = irq_snap("/proc/softirqs", 0, &s->soft);
	s->ctxt_rc = -ENOMEM;
	if (text) {
		n = read_text("/proc/stat", text, STAT_TEXT_MAX);
		s->ctxt_rc = n < 0 ? n : attr_parse_ctxt(text, &s->ctxt);
	}
	free(text);
	attr_smi_take(&s->smi);
}

static void snap_free(struct attr_snap *s)
{
	irq_table_free(&s->irq);
	irq_table_free(&s->soft);
}

void attribution_begin(struct attribution *a)
{
	memset(a, 0, sizeof(*a));
	snap_take(&a->before);
}

/* ------------------------------------------------------------------ */
/* The record and the line                                             */

struct top {
	const char *name[HUMAN_TOP];
	uint64_t v[HUMAN_TOP];
};

static void top_add(struct top *t, const char *name, uint64_t v)
{
	for (int i = 0; i < HUMAN_TOP; i++) {
		if (t->name[i] && t->v[i] >= v)
			continue;
		memmove(&t->name[i + 1], &t->name[i], (HUMAN_TOP - 1 - i) * sizeof(t->name[0]));
		memmove(&t->v[i + 1], &t->v[i], (HUMAN_TOP - 1 - i) * sizeof(t->v[0]));
		t->name[i] = name;
		t->v[i] = v;
		return;
	}
}

/* Sources counted as "PREFIX:NAME":count while the record has room;
 * returns how many were left out. */
static size_t emit_sources(struct tp_rec *r, const char *prefix, const struct irq_table *t,
			   const uint64_t *d, struct top *top)
{
	char key[64];
	size_t left_out = 0;

	for (size_t i = 0; i < t->nrows; i++) {
		if (!d[i])
			continue;
		top_add(top, t->row[i].name, d[i]);
		if (r->len > REC_BUDGET) {
			left_out++;
			continue;
		}
		snprintf(key, sizeof(key), "%s:%s", prefix, t->row[i].name);
		tp_rec_uint(r, key, d[i]);
	}
	return left_out;
}

/* One table's deltas; 1 when its CPUs changed. NULL out: not read. */
static int table_delta(const struct irq_table *b, int brc, const struct irq_table *a, int arc,
		       uint64_t **out)
{
	*out = 0;
	if (brc || arc || !(*out = calloc(a->nrows ? a->nrows : 1, sizeof(**out))))
		return 0;
	return attr_irq_delta(b, a, *out);
}

static void human_line(const char *probe, const char *smis, const char *ctxt,
		       const struct top *irq, const struct top *soft)
{
	char line[512], num[32];
	size_t len = (size_t)snprintf(line, sizeof(line), "  %s: %s, %s context switches", probe,
				      smis, ctxt);

	for (int k = 0; k < 2; k++) {
		const struct top *t = k ? soft : irq;

		for (int i = 0; i < HUMAN_TOP && t->name[i] && len < sizeof(line); i++) {
			attr_group(t->v[i], num, sizeof(num));
			len += (size_t)snprintf(line + len, sizeof(line) - len, ", %s %s%s", num,
						t->name[i], k ? " softirqs" : "");
		}
	}
	sink_human("%s\n", line);
}

static void emit_counts(struct tp_rec *r, const struct attr_snap *b, const struct attr_snap *x,
			char *smis, size_t smis_len, char *ctxt, size_t len)
{
	int changed = 0;

	snprintf(ctxt, len, "?");
	if (!b->ctxt_rc && !x->ctxt_rc) {
		tp_rec_uint(r, "context_switches", x->ctxt - b->ctxt);
		attr_group(x->ctxt - b->ctxt, ctxt, len);
	} else
		tp_rec_null(r, "context_switches");
	if (!b->smi.why && !x->smi.why) {
		uint64_t n = attr_smi_delta(&b->smi, &x->smi, &changed);

		tp_rec_uint(r, "smis", n);
		tp_rec_int(r, "smi_cpus", x->smi.n);
		attr_group(n, smis, smis_len);
		strncat(smis, " SMIs", smis_len - strlen(smis) - 1);
	} else {
		tp_rec_null(r, "smis");
		snprintf(smis, smis_len, "SMIs unknown");
	}
	if (changed)
		tp_rec_bool(r, "smi_cpus_changed", 1);
}

static void emit_missing(struct tp_rec *r, const struct attr_snap *b, const struct attr_snap *x)
{
	const char *smi_why = x->smi.why ? x->smi.why : b->smi.why;
	int irq = b->irq_rc ? b->irq_rc : x->irq_rc, soft = b->soft_rc ? b->soft_rc : x->soft_rc;
	int ctxt = b->ctxt_rc ? b->ctxt_rc : x->ctxt_rc;

	tp_rec_obj_begin(r, "missing");
	if (smi_why)
		tp_rec_str(r, "smis", smi_why);
	if (ctxt)
		tp_rec_str(r, "context_switches", ctxt == -EINVAL ? "no ctxt line in /proc/stat" : strerror(-ctxt));
	if (irq)
		tp_rec_str(r, "irq", irq == -ENOENT ? "no /proc/interrupts" : strerror(-irq));
	if (soft)
		tp_rec_str(r, "softirq", soft == -ENOENT ? "no /proc/softirqs" : strerror(-soft));
	tp_rec_obj_end(r);
}

void attribution_end(struct attribution *a, const char *probe)
{
	struct attr_snap *b = &a->before, *x = &a->after;
	struct top ti = { 0 }, ts = { 0 };
	char smis[48], ctxt[32];
	uint64_t *di, *ds;
	size_t left_out = 0;
	int changed;
	struct tp_rec r;

	snap_take(x);
	emit_begin(&r, "attribution");
	/* not "probe": every reader that picks a probe's records by it would
	 * take these for the probe's own */
	tp_rec_str(&r, "for_probe", probe);
	tp_rec_int(&r, "ran_ms", (x->t_ns - b->t_ns) / NS_PER_MS);
	emit_counts(&r, b, x, smis, sizeof(smis), ctxt, sizeof(ctxt));
	changed = table_delta(&b->irq, b->irq_rc, &x->irq, x->irq_rc, &di);
	changed |= table_delta(&b->soft, b->soft_rc, &x->soft, x->soft_rc, &ds);
	if (changed)
		tp_rec_bool(&r, "cpus_changed", 1);
	if (di)
		left_out += emit_sources(&r, "irq", &x->irq, di, &ti);
	if (ds)
		left_out += emit_sources(&r, "softirq", &x->soft, ds, &ts);
	if (left_out)
		tp_rec_uint(&r, "sources_left_out", left_out);
	emit_missing(&r, b, x);
	sink_emit(&r);
	human_line(probe, smis, ctxt, &ti, &ts);
	free(di);
	free(ds);
	snap_free(b);
	snap_free(x);
}
