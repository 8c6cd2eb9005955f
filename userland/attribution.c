// SPDX-License-Identifier: MIT
/*
 * Attribution per probe; see attribution.h. The snapshots are taken in the
 * suite's own process, outside the probe's time, and cost a few reads of
 * /proc, one pread() per CPU and one getrusage().
 *
 * The probe's own switches and CPU time are RUSAGE_CHILDREN's growth
 * across the probe: the supervisor (supervise.c) reaps the probe, and the
 * probe reaps its own children or the supervisor reaps them as leftovers,
 * so every process of its tree that ended, and every thread of each, is
 * counted once. The suite's own process (its poll loop, these snapshots)
 * is not. Migrations are the machine's (migrations.h: per-CPU counters the
 * suite holds, none on the probe's tasks): Linux keeps a task's own per
 * thread (/proc/PID/sched, only with CONFIG_SCHED_DEBUG) and drops them
 * when the thread ends, and an inherited perf counter on the probe's tree
 * would slow every one of its context switches.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "attribution.h"
#include "emit.h"
#include "migrations.h"
#include "sink.h"
#include "sysinfo.h"
#include "timeutil.h"

#define STAT_TEXT_MAX (1 << 20)	/* /proc/stat: one line per CPU and the long intr line */
#define REC_BUDGET 6000		/* bytes of a record before sources are left out */
#define HUMAN_TOP 3		/* interrupt sources named on the human line */

/* ------------------------------------------------------------------ */
/* Pure parts                                                          */

int attribution_parse_ctxt(const char *text, uint64_t *ctxt)
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

static uint64_t grew(long before, long after)
{
	return after > before ? (uint64_t)(after - before) : 0;
}

static int64_t tv_us(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

void attribution_own_delta(const struct rusage *before, const struct rusage *after, struct attribution_own *d)
{
	int64_t b = tv_us(&before->ru_utime) + tv_us(&before->ru_stime);
	int64_t a = tv_us(&after->ru_utime) + tv_us(&after->ru_stime);

	d->vol_ctxsw = grew(before->ru_nvcsw, after->ru_nvcsw);
	d->invol_ctxsw = grew(before->ru_nivcsw, after->ru_nivcsw);
	d->cpu_us = a > b ? a - b : 0;
}

static int listed(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

uint64_t attribution_cpus_delta(const struct irqstat_table *b, const struct irqstat_table *a,
			 const int *cpus, int n)
{
	uint64_t sum = 0;

	for (size_t r = 0; r < a->nrows; r++) {
		size_t rb;

		for (rb = 0; rb < b->nrows && strcmp(b->row[rb].name, a->row[r].name); rb++)
			;
		if (rb == b->nrows || irqstat_machine_wide(a->row[r].name))
			continue;
		for (int c = 0; c < a->ncol; c++) {
			int cb = irqstat_find_cpu(b->cpu, b->ncol, a->cpu[c]);
			uint64_t x = a->count[r * (size_t)a->ncol + (size_t)c], y;

			if (cb < 0 || !listed(cpus, n, a->cpu[c]))
				continue;
			y = b->count[rb * (size_t)b->ncol + (size_t)cb];
			sum += x > y ? x - y : 0;
		}
	}
	return sum;
}

void attribution_cpulist(const int *cpus, int n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < n && o < len; ) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		o += (size_t)(j > i ? snprintf(buf + o, len - o, "%s%d-%d", i ? "," : "", cpus[i], cpus[j])
				    : snprintf(buf + o, len - o, "%s%d", i ? "," : "", cpus[i]));
		i = j + 1;
	}
}

void attribution_group(uint64_t v, char *buf, size_t len)
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

static void snap_take(struct attribution_snap *s)
{
	char *text = malloc(STAT_TEXT_MAX);
	int n;

	s->t_ns = mono_ns();
	s->irq_rc = irqstat_snap("/proc/interrupts", 1, &s->irq);
	s->soft_rc = irqstat_snap("/proc/softirqs", 0, &s->soft);
	s->ctxt_rc = -ENOMEM;
	if (text) {
		n = sysinfo_read_text("/proc/stat", text, STAT_TEXT_MAX);
		s->ctxt_rc = n < 0 ? n : attribution_parse_ctxt(text, &s->ctxt);
	}
	free(text);
	irqstat_smi_take(&s->smi);
	s->own_rc = getrusage(RUSAGE_CHILDREN, &s->own) ? -errno : 0;
	s->migrations_rc = migrations_read(&s->migrations);
}

static void snap_free(struct attribution_snap *s)
{
	irqstat_table_free(&s->irq);
	irqstat_table_free(&s->soft);
}

void attribution_begin(struct attribution *a, const int *pinned, int npinned)
{
	memset(a, 0, sizeof(*a));
	migrations_open();	/* once, before the first probe's fork */
	if (pinned && npinned > 0 && npinned <= IRQSTAT_CPUS) {
		memcpy(a->pinned, pinned, (size_t)npinned * sizeof(*pinned));
		a->npinned = npinned;
	}
	snap_take(&a->before);
}

/* ------------------------------------------------------------------ */
/* The record and the line                                             */

struct top {
	const char *name[HUMAN_TOP];
	uint64_t v[HUMAN_TOP];
};

/* What the human line says, gathered while the record is written. */
struct shown {
	char smis[48], ctxt[32], cpus[64];
	int have_irq, have_soft, have_own, have_cpus, have_migrations;	/* migrations: the machine's */
	uint64_t irqs, softirqs, cpu_irqs, migrations;
	struct attribution_own own;
	struct top irq, soft;
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
			   const uint64_t *d)
{
	char key[64];
	size_t left_out = 0;

	for (size_t i = 0; i < t->nrows; i++) {
		if (!d[i])
			continue;
		if (r->len > REC_BUDGET) {
			left_out++;
			continue;
		}
		snprintf(key, sizeof(key), "%s:%s", prefix, t->row[i].name);
		tp_rec_uint(r, key, d[i]);
	}
	return left_out;
}

/* The sum of one table's deltas, its largest sources into top. */
static uint64_t sources_total(const struct irqstat_table *t, const uint64_t *d, struct top *top)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < t->nrows; i++) {
		sum += d[i];
		if (d[i])
			top_add(top, t->row[i].name, d[i]);
	}
	return sum;
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

/* ", 411 LOC, 57 RES" (SUFFIX after each name) at line + *len. */
static void line_top(char *line, size_t size, size_t *len, const struct top *t, const char *suffix)
{
	char num[32];

	for (int i = 0; i < HUMAN_TOP && t->name[i] && *len < size; i++) {
		attribution_group(t->v[i], num, sizeof(num));
		*len += (size_t)snprintf(line + *len, size - *len, "%s%s %s%s", i ? ", " : "", num,
					 t->name[i], suffix);
	}
}

/* "+ N WHAT (top...)" or nothing when the table was not read. */
static void line_table(char *line, size_t size, size_t *len, int have, uint64_t total,
		       const char *what, const struct top *t, const char *suffix)
{
	char num[32];

	if (!have || *len >= size)
		return;
	attribution_group(total, num, sizeof(num));
	*len += (size_t)snprintf(line + *len, size - *len, ", %s %s", num, what);
	if (t->name[0] && *len < size) {
		*len += (size_t)snprintf(line + *len, size - *len, " (");
		line_top(line, size, len, t, suffix);
		if (*len < size)
			*len += (size_t)snprintf(line + *len, size - *len, ")");
	}
}

/* "  drift: machine: ...; probe: ..." - whose each count is, said on the line. */
static void human_line(const char *probe, const struct shown *sh)
{
	char line[640], a[32], b[32], c[32];
	size_t len = (size_t)snprintf(line, sizeof(line), "  %s: machine: %s context switches", probe,
				      sh->ctxt);

	line_table(line, sizeof(line), &len, sh->have_irq, sh->irqs, "interrupts", &sh->irq, "");
	line_table(line, sizeof(line), &len, sh->have_soft, sh->softirqs, "softirqs", &sh->soft, "");
	if (sh->have_migrations && len < sizeof(line)) {
		attribution_group(sh->migrations, a, sizeof(a));
		len += (size_t)snprintf(line + len, sizeof(line) - len, ", %s migrations", a);
	}
	if (len < sizeof(line))
		len += (size_t)snprintf(line + len, sizeof(line) - len, ", %s; probe: ", sh->smis);
	if (sh->have_own && len < sizeof(line)) {
		attribution_group(sh->own.vol_ctxsw, a, sizeof(a));
		attribution_group(sh->own.invol_ctxsw, b, sizeof(b));
		attribution_group((uint64_t)(sh->own.cpu_us / 1000), c, sizeof(c));
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"%s voluntary, %s involuntary switches, %s ms CPU", a, b, c);
	} else if (len < sizeof(line)) {
		len += (size_t)snprintf(line + len, sizeof(line) - len, "switches and CPU time unknown");
	}
	if (sh->have_cpus && len < sizeof(line)) {
		attribution_group(sh->cpu_irqs, a, sizeof(a));
		snprintf(line + len, sizeof(line) - len, ", %s interrupts on its CPUs %s", a, sh->cpus);
	}
	sink_human("%s\n", line);
}

/* The machine's context switches and SMIs, and which keys are the machine's. */
static void emit_machine(struct tp_rec *r, const struct attribution_snap *b, const struct attribution_snap *x,
			 struct shown *sh)
{
	int changed = 0;

	tp_rec_obj_begin(r, "scope");
	tp_rec_str(r, "irq", "machine");
	tp_rec_str(r, "softirq", "machine");
	tp_rec_str(r, "smis", "machine");
	tp_rec_obj_end(r);
	snprintf(sh->ctxt, sizeof(sh->ctxt), "?");
	if (!b->ctxt_rc && !x->ctxt_rc) {
		tp_rec_uint(r, "machine_context_switches", x->ctxt - b->ctxt);
		attribution_group(x->ctxt - b->ctxt, sh->ctxt, sizeof(sh->ctxt));
	} else
		tp_rec_null(r, "machine_context_switches");
	if (sh->have_irq)
		tp_rec_uint(r, "machine_irqs", sh->irqs);
	if (sh->have_soft)
		tp_rec_uint(r, "machine_softirqs", sh->softirqs);
	if ((sh->have_migrations = !b->migrations_rc && !x->migrations_rc)) {
		sh->migrations = x->migrations - b->migrations;
		tp_rec_uint(r, "machine_migrations", sh->migrations);
	}
	if (!b->smi.why && !x->smi.why) {
		uint64_t n = irqstat_smi_delta(&b->smi, &x->smi, &changed);

		tp_rec_uint(r, "smis", n);
		tp_rec_int(r, "smi_cpus", x->smi.n);
		attribution_group(n, sh->smis, sizeof(sh->smis));
		strncat(sh->smis, " SMIs", sizeof(sh->smis) - strlen(sh->smis) - 1);
	} else {
		tp_rec_null(r, "smis");
		snprintf(sh->smis, sizeof(sh->smis), "SMIs unknown");
	}
	if (changed)
		tp_rec_bool(r, "smi_cpus_changed", 1);
}

/* The probe's own: its tree's switches and CPU time, its CPUs' interrupts. */
static void emit_own(struct tp_rec *r, const struct attribution *a, struct shown *sh)
{
	const struct attribution_snap *b = &a->before, *x = &a->after;

	if ((sh->have_own = !b->own_rc && !x->own_rc)) {
		attribution_own_delta(&b->own, &x->own, &sh->own);
		tp_rec_uint(r, "own_vol_ctxsw", sh->own.vol_ctxsw);
		tp_rec_uint(r, "own_invol_ctxsw", sh->own.invol_ctxsw);
		tp_rec_fixed(r, "own_cpu_ms", sh->own.cpu_us, 3);
	}
	if (!a->npinned || b->irq_rc || x->irq_rc)
		return;
	sh->have_cpus = 1;
	attribution_cpulist(a->pinned, a->npinned, sh->cpus, sizeof(sh->cpus));
	sh->cpu_irqs = attribution_cpus_delta(&b->irq, &x->irq, a->pinned, a->npinned);
	tp_rec_str(r, "own_cpus", sh->cpus);
	tp_rec_uint(r, "own_cpus_irqs", sh->cpu_irqs);
	if (!b->soft_rc && !x->soft_rc)
		tp_rec_uint(r, "own_cpus_softirqs",
			    attribution_cpus_delta(&b->soft, &x->soft, a->pinned, a->npinned));
}

static void emit_missing(struct tp_rec *r, const struct attribution_snap *b, const struct attribution_snap *x)
{
	const char *smi_why = x->smi.why ? x->smi.why : b->smi.why;
	int irq = b->irq_rc ? b->irq_rc : x->irq_rc, soft = b->soft_rc ? b->soft_rc : x->soft_rc;
	int ctxt = b->ctxt_rc ? b->ctxt_rc : x->ctxt_rc, own = b->own_rc ? b->own_rc : x->own_rc;

	tp_rec_obj_begin(r, "missing");
	if (smi_why)
		tp_rec_str(r, "smis", smi_why);
	if (ctxt)
		tp_rec_str(r, "machine_context_switches",
			   ctxt == -EINVAL ? "no ctxt line in /proc/stat" : strerror(-ctxt));
	if (irq)
		tp_rec_str(r, "irq", irq == -ENOENT ? "no /proc/interrupts" : strerror(-irq));
	if (soft)
		tp_rec_str(r, "softirq", soft == -ENOENT ? "no /proc/softirqs" : strerror(-soft));
	if (own)
		tp_rec_str(r, "own", strerror(-own));
	if (b->migrations_rc || x->migrations_rc)
		tp_rec_str(r, "machine_migrations", migrations_why(b->migrations_rc ? b->migrations_rc :
									    x->migrations_rc));
	tp_rec_obj_end(r);
}

void attribution_end(struct attribution *a, const char *probe, int line)
{
	struct attribution_snap *b = &a->before, *x = &a->after;
	struct shown sh = { 0 };
	uint64_t *di, *ds;
	size_t left_out = 0;
	int changed;
	struct tp_rec r;

	snap_take(x);
	changed = table_delta(&b->irq, b->irq_rc, &x->irq, x->irq_rc, &di);
	changed |= table_delta(&b->soft, b->soft_rc, &x->soft, x->soft_rc, &ds);
	if ((sh.have_irq = di != 0))
		sh.irqs = sources_total(&x->irq, di, &sh.irq);
	if ((sh.have_soft = ds != 0))
		sh.softirqs = sources_total(&x->soft, ds, &sh.soft);
	emit_begin(&r, "attribution");
	/* not "probe": every reader that picks a probe's records by it would
	 * take these for the probe's own */
	tp_rec_str(&r, "for_probe", probe);
	tp_rec_int(&r, "ran_ms", (x->t_ns - b->t_ns) / NS_PER_MS);
	emit_machine(&r, b, x, &sh);
	emit_own(&r, a, &sh);
	if (changed)
		tp_rec_bool(&r, "cpus_changed", 1);
	if (di)
		left_out += emit_sources(&r, "irq", &x->irq, di);
	if (ds)
		left_out += emit_sources(&r, "softirq", &x->soft, ds);
	if (left_out)
		tp_rec_uint(&r, "sources_left_out", left_out);
	emit_missing(&r, b, x);
	sink_emit(&r);
	if (line)
		human_line(probe, &sh);
	free(di);
	free(ds);
	snap_free(b);
	snap_free(x);
}

/* What the keys of an attribution record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key attribution_rec_keys[] = {
	{ "attribution", "for_probe", TP_KEY_ID, "the probe it was measured around" },
	{ "attribution", "ran_ms", TP_KEY_BUDGET, "the window the counts cover (report: their rates)" },
	/* the probe's own share leads; the whole machine's is shown beside it, never leads */
	{ "attribution", "own_cpus", TP_KEY_CONTEXT, "the CPUs the probe was pinned to (isolcpus=)" },
	{ "attribution", "own_*ctxsw", TP_KEY_FIGURE, "the probe's own (voluntary, involuntary) context switches: its process tree (getrusage RUSAGE_CHILDREN)" },
	{ "attribution", "own_cpu_ms", TP_KEY_FIGURE, "the probe's own CPU time, user + system: its process tree (getrusage RUSAGE_CHILDREN)" },
	{ "attribution", "own_migrations", TP_KEY_FIGURE, "older captures: the probe's tree's moves between CPUs (an inherited perf counter; now machine_migrations)" },
	{ "attribution", "own_cpus_*", TP_KEY_FIGURE, "interrupts, softirqs on the CPUs the probe was pinned to" },
	{ "attribution", "machine_*", TP_KEY_BUDGET, "the whole machine's context switches (/proc/stat ctxt), interrupts, softirqs: never leads" },
	{ "attribution", "irq:*", TP_KEY_BUDGET, "the whole machine's interrupts from one source (/proc/interrupts): never leads" },
	{ "attribution", "softirq:*", TP_KEY_BUDGET, "the whole machine's softirqs of one kind (/proc/softirqs): never leads" },
	{ "attribution", "context_switches", TP_KEY_BUDGET, "older captures: machine_context_switches" },
	{ "attribution", "smis", TP_KEY_FIGURE, "SMIs on every online CPU (MSR_SMI_COUNT); each stops the probe too; null: missing says why" },
	{ "attribution", "*", TP_KEY_CONTEXT, "the window, the CPUs read, what is missing and why" },
	TP_REC_KEYS_END,
};
