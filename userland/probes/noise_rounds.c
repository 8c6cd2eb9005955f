// SPDX-License-Identifier: MIT
/*
 * Probe `noise`, the interrupt counts of its rounds added up (noise.h):
 * each round counts the interrupts and softirqs of its own window; the
 * run's counts are their sum, over windows that other probes' rounds
 * separate, as the run's spin time is the sum of its rounds'.
 */
#include <string.h>

#include "noise.h"

static long find_row(const struct noise_irqsum *s, const char *name)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (!strcmp(s->row[i].name, name))
			return (long)i;
	return -1;
}

/* The first delta's columns, if they fit; a later delta's must be the same. */
static void columns(struct noise_irqsum *s, const struct irqstat_table *d)
{
	if (!s->rounds) {
		s->ncol = d->ncol > 0 && d->ncol <= NOISE_SUM_COLS ? d->ncol : 0;
		memcpy(s->cpu, d->cpu, (size_t)s->ncol * sizeof(*s->cpu));
	} else if (d->ncol != s->ncol || memcmp(s->cpu, d->cpu, (size_t)s->ncol * sizeof(*s->cpu))) {
		s->ncol = 0;	/* the CPUs changed: totals only from now on */
	}
}

void noise_irqsum_add(struct noise_irqsum *s, const struct irqstat_table *d)
{
	columns(s, d);
	for (size_t r = 0; r < d->nrows; r++) {
		long i = find_row(s, d->row[r].name);

		if (i < 0 && s->nrows >= NOISE_SUM_ROWS) {
			s->dropped++;
			continue;
		}
		if (i < 0) {
			i = (long)s->nrows++;
			memcpy(s->row[i].name, d->row[r].name, sizeof(s->row[i].name));
			s->row[i].total = 0;
			memset(&s->count[(size_t)i * NOISE_SUM_COLS], 0, NOISE_SUM_COLS * sizeof(*s->count));
		}
		s->row[i].total += d->row[r].total;
		for (int c = 0; c < s->ncol; c++)
			s->count[(size_t)i * NOISE_SUM_COLS + (size_t)c] += d->count[r * (size_t)d->ncol + (size_t)c];
	}
	s->rounds++;
}

/* The view's counts are NOISE_SUM_COLS apart per row: it says ncol of them by packing them. */
void noise_irqsum_view(struct noise_irqsum *s, struct irqstat_table *t)
{
	for (size_t i = 0; s->ncol && i < s->nrows; i++)
		memmove(&s->count[i * (size_t)s->ncol], &s->count[i * NOISE_SUM_COLS],
			(size_t)s->ncol * sizeof(*s->count));
	t->ncol = s->ncol;
	t->cpu = s->cpu;
	t->nrows = s->nrows;
	t->row = s->row;
	t->count = s->count;
}
