// SPDX-License-Identifier: MIT
/*
 * The interruption counters of irqstat.h: the /proc tables parsed into
 * rows and CPU columns, their differences, and MSR_SMI_COUNT per online
 * CPU. A snapshot costs a few reads of /proc and one pread() per CPU.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "irqstat.h"
#include "msr.h"
#include "sysinfo.h"

#define IRQ_TEXT_MAX (4 << 20)

/* ------------------------------------------------------------------ */
/* /proc/interrupts and /proc/softirqs                                 */

void irqstat_table_free(struct irqstat_table *t)
{
	free(t->cpu);
	free(t->row);
	free(t->count);
	memset(t, 0, sizeof(*t));
}

/*
 * The header: the first line that is not blank, "CPU0 CPU1 ...". Sets ncol
 * and cpu[]; returns the line after it, or NULL (-errno in *err).
 */
static const char *irq_header(const char *line, struct irqstat_table *t, int *err)
{
	const char *eol, *p;

	while (*line && strspn(line, " \t") == strcspn(line, "\n"))
		line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n');
	eol = line + strcspn(line, "\n");
	for (p = line; p < eol;) {
		p += strspn(p, " \t");
		if (p >= eol || strncmp(p, "CPU", 3) || !isdigit((unsigned char)p[3]))
			break;
		t->ncol++;
		p += strcspn(p, " \t\n");
	}
	*err = !t->ncol ? -EINVAL : !(t->cpu = calloc((size_t)t->ncol, sizeof(*t->cpu))) ? -ENOMEM : 0;
	if (*err)
		return 0;
	for (int c = 0, *cpu = t->cpu; c < t->ncol; c++) {
		line += strspn(line, " \t");
		cpu[c] = atoi(line + 3);
		line += strcspn(line, " \t\n");
	}
	return *eol ? eol + 1 : eol;
}

/* Room for one more row; 0 or -ENOMEM (the table freed). */
static int irq_grow(struct irqstat_table *t, size_t *cap)
{
	size_t nc = *cap ? *cap * 2 : 64;
	struct irqstat_row *r;
	uint64_t *c;

	if (t->nrows < *cap)
		return 0;
	r = realloc(t->row, nc * sizeof(*r));
	if (!r)
		return irqstat_table_free(t), -ENOMEM;
	t->row = r;
	c = realloc(t->count, nc * (size_t)t->ncol * sizeof(*c));
	if (!c)
		return irqstat_table_free(t), -ENOMEM;
	t->count = c;
	*cap = nc;
	return 0;
}

/* The numbers after "NAME:", at most ncol; returns where they end. */
static const char *irq_counts(const char *p, const char *eol, const struct irqstat_table *t,
			      struct irqstat_row *row, uint64_t *cnt)
{
	int nnum = 0;

	while (nnum < t->ncol) {
		char *end;
		unsigned long long v;

		p += strspn(p, " \t");
		if (p >= eol || !isdigit((unsigned char)*p))
			break;
		v = strtoull(p, &end, 10);
		if (end > eol || (*end != ' ' && *end != '\t' && end != eol))
			break;
		cnt[nnum++] = v;
		row->total += v;
		p = end;
	}
	if (nnum == 1 && t->ncol > 1)
		cnt[0] = 0; /* ERR:, MIS:: one machine-wide figure, not CPU0's */
	return p;
}

/* Numbered lines name their device last: "24:virtio0-input.0". */
static void irq_describe(struct irqstat_row *row, const char *p, const char *eol)
{
	const char *last = 0;
	size_t l = strlen(row->name), n;

	for (const char *q = p; q < eol; q++)
		if (!isspace((unsigned char)*q) && (q == p || isspace((unsigned char)q[-1])))
			last = q;
	/* no room for ':', one byte and the NUL: the number alone names it */
	if (!last || l + 2 >= sizeof(row->name))
		return;
	n = (size_t)(eol - last);
	n = strcspn(last, " \t\n") < n ? strcspn(last, " \t\n") : n;
	if (l + 1 + n >= sizeof(row->name))
		n = sizeof(row->name) - l - 2;
	row->name[l] = ':';
	memcpy(row->name + l + 1, last, n);
	row->name[l + 1 + n] = 0;
}

/* Both files: a header "CPU0 CPU1 ..." then "NAME: n n n ... [text]". */
static int irq_parse(const char *text, struct irqstat_table *t, int described)
{
	const char *line, *eol;
	size_t cap = 0;
	int err;

	memset(t, 0, sizeof(*t));
	line = irq_header(text, t, &err);
	if (!line)
		return err;
	for (; *line; line = *eol ? eol + 1 : eol) {
		const char *p = line + strspn(line, " \t"), *colon;
		struct irqstat_row *row;
		uint64_t *cnt;
		size_t namelen;

		eol = line + strcspn(line, "\n");
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon || colon == p)
			continue;
		if (irq_grow(t, &cap))
			return -ENOMEM;
		row = &t->row[t->nrows];
		cnt = &t->count[t->nrows * (size_t)t->ncol];
		memset(row, 0, sizeof(*row));
		memset(cnt, 0, (size_t)t->ncol * sizeof(*cnt));
		namelen = (size_t)(colon - p) < sizeof(row->name) ? (size_t)(colon - p) : sizeof(row->name) - 1;
		memcpy(row->name, p, namelen);
		p = irq_counts(colon + 1, eol, t, row, cnt);
		if (described && isdigit((unsigned char)row->name[0]))
			irq_describe(row, p, eol);
		t->nrows++;
	}
	return 0;
}

int irqstat_parse_interrupts(const char *text, struct irqstat_table *t)
{
	return irq_parse(text, t, 1);
}

int irqstat_parse_softirqs(const char *text, struct irqstat_table *t)
{
	return irq_parse(text, t, 0);
}

int irqstat_delta(const struct irqstat_table *before, const struct irqstat_table *after,
		  struct irqstat_table *d)
{
	int same = before->ncol == after->ncol &&
		   !memcmp(before->cpu, after->cpu, (size_t)after->ncol * sizeof(*after->cpu));

	memset(d, 0, sizeof(*d));
	d->ncol = same ? after->ncol : 0;
	d->row = calloc(after->nrows ? after->nrows : 1, sizeof(*d->row));
	d->cpu = calloc(after->ncol ? (size_t)after->ncol : 1, sizeof(*d->cpu));
	d->count =
	    calloc(after->nrows && d->ncol ? after->nrows * (size_t)d->ncol : 1, sizeof(*d->count));
	if (!d->row || !d->cpu || !d->count)
		return irqstat_table_free(d), -ENOMEM;
	if (same)
		memcpy(d->cpu, after->cpu, (size_t)after->ncol * sizeof(*d->cpu));
	for (size_t r = 0; r < after->nrows; r++) {
		const struct irqstat_row *a = &after->row[r];
		size_t b;

		for (b = 0; b < before->nrows; b++)
			if (!strcmp(before->row[b].name, a->name))
				break;
		d->row[r] = *a;
		if (b < before->nrows)
			d->row[r].total =
			    a->total > before->row[b].total ? a->total - before->row[b].total : 0;
		for (int c = 0; c < d->ncol; c++) {
			uint64_t x = after->count[r * (size_t)d->ncol + c];
			uint64_t y = b < before->nrows ? before->count[b * (size_t)d->ncol + c] : 0;

			d->count[r * (size_t)d->ncol + c] = x > y ? x - y : 0;
		}
	}
	d->nrows = after->nrows;
	return 0;
}

int irqstat_find_cpu(const int *cpu, int n, int want)
{
	for (int i = 0; i < n; i++)
		if (cpu[i] == want)
			return i;
	return -1;
}

/* x86's arch_show_interrupts() (arch/x86/kernel/irq.c) prints ERR and MIS
 * as one figure; with one CPU online it looks like a column. */
int irqstat_machine_wide(const char *name)
{
	return !strcmp(name, "ERR") || !strcmp(name, "MIS");
}

int irqstat_row_delta(const struct irqstat_table *b, const struct irqstat_table *a,
		      uint64_t *out)
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
			int cb = irqstat_find_cpu(b->cpu, b->ncol, a->cpu[c]);

			colsum += x;
			if (cb < 0) {
				changed = 1;
				continue;
			}
			y = b->count[rb * (size_t)b->ncol + (size_t)cb];
			out[r] += x > y ? x - y : 0;
		}
		if (irqstat_machine_wide(a->row[r].name) || (!colsum && a->row[r].total))
			out[r] = a->row[r].total > b->row[rb].total ? a->row[r].total - b->row[rb].total : 0;
	}
	return changed;
}

/* Reads a /proc table; NULL if absent (the kernel may lack it). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return 0;
	buf = malloc(IRQ_TEXT_MAX);
	if (buf) {
		n = fread(buf, 1, IRQ_TEXT_MAX - 1, f);
		buf[n] = 0;
	}
	fclose(f);
	return buf;
}

static int snap(const char *path, int (*parse)(const char *, struct irqstat_table *),
		struct irqstat_table *t)
{
	char *text = slurp(path);
	int rc;

	memset(t, 0, sizeof(*t));
	if (!text)
		return -ENOENT;
	rc = parse(text, t);
	free(text);
	return rc;
}

int irqstat_snap(const char *path, int interrupts, struct irqstat_table *t)
{
	return snap(path, interrupts ? irqstat_parse_interrupts : irqstat_parse_softirqs, t);
}

/* ------------------------------------------------------------------ */
/* SMIs                                                                */

int irqstat_parse_cpulist(const char *text, int *cpus, int max)
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

uint64_t irqstat_smi_delta(const struct irqstat_smi *before, const struct irqstat_smi *after,
			   int *cpus_changed)
{
	uint64_t sum = 0;

	*cpus_changed = before->n != after->n;
	for (int i = 0; i < after->n; i++) {
		int j = irqstat_find_cpu(before->cpu, before->n, after->cpu[i]);

		if (j < 0) {
			*cpus_changed = 1;
			continue;
		}
		sum += (after->count[i] - before->count[j]) & 0xffffffffu;
	}
	return sum;
}

static void smi_why(struct irqstat_smi *s, int cpu, int err)
{
	static char why[112];

	s->err = err;
	msr_why(cpu, MSR_SMI_COUNT, err, why, sizeof(why));
	s->why = why;
}

void irqstat_smi_take(struct irqstat_smi *s)
{
	char vendor[13], list[1024];
	int cpus[IRQSTAT_CPUS], n;

	memset(s, 0, sizeof(*s));
	fingerprint_cpu_vendor(vendor);
	if (strcmp(vendor, "GenuineIntel")) {
		/* AMD documents no SMI counter (APM vol. 2, 10.2): none to read */
		s->why = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")
				 ? "AMD CPU: no SMI counter MSR"
				 : "not an Intel CPU: no MSR_SMI_COUNT";
		return;
	}
	if (sysinfo_read_text("/sys/devices/system/cpu/online", list, sizeof(list)) <= 0 ||
	    (n = irqstat_parse_cpulist(list, cpus, IRQSTAT_CPUS)) <= 0) {
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
