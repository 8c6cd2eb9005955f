/* SPDX-License-Identifier: MIT */
/*
 * What the kernel and the CPU count of a machine's interruptions, read as
 * snapshots to subtract: /proc/interrupts and /proc/softirqs as tables (a
 * row per source, a column per online CPU) and, on Intel CPUs,
 * MSR_SMI_COUNT per CPU through /dev/cpu/N/msr. The suite's attribution
 * record (attribution.c) and probe `noise` both read them here. Parsers and
 * differences are pure, tested on recorded text (tests/unit/test_irqstat.c).
 */
#ifndef TP_IRQSTAT_H
#define TP_IRQSTAT_H

#include <stddef.h>
#include <stdint.h>

#define IRQSTAT_CPUS 256	/* CPUs whose SMI counter is read */

/* ---- /proc/interrupts and /proc/softirqs ---- */
struct irqstat_row {
	char name[40];	/* "LOC", "TIMER", or "24:virtio0-input.0" for numbered lines */
	uint64_t total; /* sum over the CPU columns (the single figure of ERR/MIS) */
};

struct irqstat_table {
	int ncol;
	int *cpu; /* ncol: CPU number of each column, from the header */
	size_t nrows;
	struct irqstat_row *row;
	uint64_t *count; /* nrows * ncol; row r column c at [r * ncol + c] */
};

/*
 * Parses the text of /proc/interrupts: a header of "CPUn" columns, then
 * "NAME: count... [chip hwirq-type] [device,...]" per line; lines with
 * fewer figures than CPUs (ERR, MIS) are totals. Allocates t; 0 or -EINVAL
 * (no header) or -ENOMEM. Free with irqstat_table_free().
 */
int irqstat_parse_interrupts(const char *text, struct irqstat_table *t);
/* /proc/softirqs: the same header, then "NAME: count..." per line. */
int irqstat_parse_softirqs(const char *text, struct irqstat_table *t);
void irqstat_table_free(struct irqstat_table *t);
/* Reads and parses PATH (/proc/interrupts when INTERRUPTS, else
 * /proc/softirqs); 0, -ENOENT or a parser's error. */
int irqstat_snap(const char *path, int interrupts, struct irqstat_table *t);

/*
 * after - before, matched by row name (rows new in AFTER count from 0);
 * total in d->row[].total, per column in d->count when both tables have the
 * same columns (else d->ncol is 0). Counters that went down give 0.
 */
int irqstat_delta(const struct irqstat_table *before, const struct irqstat_table *after,
		  struct irqstat_table *d);

/*
 * Per source of A, its count since B, over the CPUs both tables have (a
 * CPU that went offline leaves /proc/interrupts; one that came back brings
 * its old counts); rows with one machine-wide figure (ERR, MIS) by their
 * totals, rows new in A count 0. out holds a->nrows figures. Returns 1
 * when the CPUs differ between the two.
 */
int irqstat_row_delta(const struct irqstat_table *b, const struct irqstat_table *a,
		      uint64_t *out);

/* The index of CPU WANT among the N of CPU, or -1. */
int irqstat_find_cpu(const int *cpu, int n, int want);
/* Rows with one figure for the whole machine (ERR, MIS), not per CPU. */
int irqstat_machine_wide(const char *name);

/* ---- SMIs ---- */
struct irqstat_smi {
	int n;			/* CPUs read */
	int cpu[IRQSTAT_CPUS];
	uint64_t count[IRQSTAT_CPUS];
	int err;		/* -errno of the first failure; 0: every online CPU read */
	const char *why;	/* set when no count can be had (AMD, no msr driver, ...) */
};

/* MSR_SMI_COUNT of every online CPU, or in s->why the reason there is none
 * (not Intel, no msr driver, not root, the read refused). */
void irqstat_smi_take(struct irqstat_smi *s);

/*
 * SMIs between two snapshots, summed over the CPUs present in both (the
 * counter is 32 bits wide: a wrap counts forward). *cpus_changed is set when
 * a CPU was in one snapshot only (it went offline or came online).
 */
uint64_t irqstat_smi_delta(const struct irqstat_smi *before, const struct irqstat_smi *after,
			   int *cpus_changed);

/* "0-3,5,7-8" (/sys/devices/system/cpu/online) into cpus; how many, or -EINVAL. */
int irqstat_parse_cpulist(const char *text, int *cpus, int max);

#endif
