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
#include "emit.h"
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

static void snap_take(struct attr_snap *s)
{
	char *text = malloc(STAT_TEXT_MAX);
	int n;

	s->t_ns = mono_ns();
	s->irq_rc = irqstat_snap("/proc/interrupts", 1, &s->irq);
	s->soft_rc = irqstat_snap("/proc/softirqs", 0, &s->soft);
	s->ctxt_rc = -ENOMEM;
	if (text) {
		n = read_text("/proc/stat", text, STAT_TEXT_MAX);
		s->ctxt_rc = n < 0 ? n : attr_parse_ctxt(text, &s->ctxt);
	}
	free(text);
	irqstat_smi_take(&s->smi);
}

static void snap_free(struct attr_snap *s)
{
	irqstat_table_free(&s->irq);
	irqstat_table_free(&s->soft);
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
static size_t emit_sources(struct tp_rec *r, const char *prefix, const struct irqstat_table *t,
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
static int table_delta(const struct irqstat_table *b, int brc, const struct irqstat_table *a, int arc,
		       uint64_t **out)
{
	*out = 0;
	if (brc || arc || !(*out = calloc(a->nrows ? a->nrows : 1, sizeof(**out))))
		return 0;
	return irqstat_row_delta(b, a, *out);
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
		uint64_t n = irqstat_smi_delta(&b->smi, &x->smi, &changed);

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
