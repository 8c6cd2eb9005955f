// SPDX-License-Identifier: MIT
/* What bears on every figure of a run, said first; see conditions.h. */
#include <math.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"

static double num_of(const json_t *rec, const char *key)
{
	json_t *v = rec ? json_object_get(rec, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "N of M records lost": the end record counts what the suite wrote. */
static size_t lost_records(const struct run *run, struct sbuf *b)
{
	double written = num_of(run->end, "records");

	if (!isfinite(written) || written <= (double)run->nsuite)
		return 0;
	sbuf_addf(b, "%.0f of the %.0f records the suite wrote are not in this log "
		  "(a cut or damaged capture)\n", written - (double)run->nsuite, written);
	return 1;
}

static size_t other_work(const struct run *run, struct sbuf *b)
{
	double pct = num_of(run->end, "other_busy_pct");
	json_t *l0 = run->head ? json_object_get(run->head, "loadavg_start") : NULL;
	json_t *l1 = json_object_get(run->end, "loadavg_end");

	if (!(pct >= CONDITIONS_BUSY_PCT))
		return 0;
	sbuf_addf(b, "other work used %.0f %% of its CPUs while it ran", pct);
	if (json_is_array(l0) && json_is_array(l1))
		sbuf_addf(b, " (load average %.2f at the start, %.2f at the end)",
			  json_number_value(json_array_get(l0, 0)), json_number_value(json_array_get(l1, 0)));
	sbuf_adds(b, ": its figures carry that noise\n");
	return 1;
}

static const char *str_of(const json_t *rec, const char *key)
{
	json_t *v = json_object_get(rec, key);

	return json_is_string(v) ? json_string_value(v) : "?";
}

/* Each word of the command line the suite refused: it ran with the default. */
static size_t refused_words(const struct run *run, struct sbuf *b)
{
	size_t i, n = 0;
	json_t *rec;

	json_array_foreach(run->notes, i, rec) {
		if (strcmp(str_of(rec, "type"), "error") || !json_is_string(json_object_get(rec, "option")))
			continue;
		sbuf_adds(b, "the option ");
		sbuf_add_visible(b, str_of(rec, "option"));
		sbuf_adds(b, "=");
		sbuf_add_visible(b, str_of(rec, "value"));
		sbuf_adds(b, " was refused (");
		sbuf_add_visible(b, str_of(rec, "reason"));
		sbuf_adds(b, "): the run went on without it\n");
		n++;
	}
	return n;
}

static size_t emulated(const struct run *run, struct sbuf *b)
{
	json_t *accel = run->head ? json_object_get(run->head, "accel") : NULL;

	if (!json_is_string(accel) || strncmp(json_string_value(accel), "tcg", 3))
		return 0;
	sbuf_adds(b, "ran under QEMU's TCG emulator: its timings are the emulator's, not a machine's\n");
	return 1;
}

size_t conditions_of(const struct run *run, struct sbuf *b)
{
	if (!run->end) {
		sbuf_adds(b, "no end record: the run did not finish (crash, hang or cut capture)\n");
		return 1 + emulated(run, b);
	}
	return refused_words(run, b) + lost_records(run, b) + other_work(run, b) + emulated(run, b);
}

size_t conditions_brief(const struct run *run, struct sbuf *b)
{
	json_t *accel = run->head ? json_object_get(run->head, "accel") : NULL;
	double pct = num_of(run->end, "other_busy_pct"), written = num_of(run->end, "records");
	size_t n = 0;

	if (!run->end)
		sbuf_addf(b, "%sunfinished", n++ ? "; " : "");
	if (pct >= CONDITIONS_BUSY_PCT)
		sbuf_addf(b, "%shogs: other work %.0f %% of CPUs", n++ ? "; " : "", pct);
	if (isfinite(written) && written > (double)run->nsuite)
		sbuf_addf(b, "%srecords lost", n++ ? "; " : "");
	if (json_is_string(accel) && !strncmp(json_string_value(accel), "tcg", 3))
		sbuf_addf(b, "%sTCG", n++ ? "; " : "");
	return n;
}

size_t conditions_count(const struct report *rp)
{
	struct sbuf b = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < rp->nruns; i++)
		n += conditions_of(&rp->runs[i], &b);
	sbuf_free(&b);
	return n;
}

size_t conditions_print(FILE *f, const struct report *rp, enum style style)
{
	struct sbuf b = { 0 };
	size_t total = 0;

	for (size_t i = 0; i < rp->nruns; i++) {
		size_t start = b.len, n = conditions_of(&rp->runs[i], &b);
		struct sbuf line = { 0 };

		if (!n)
			continue;
		if (!total)
			fmt_heading(f, style, 2, "Conditions");
		total += n;
		for (char *s = b.s + start, *nl; (nl = strchr(s, '\n')); s = nl + 1) {
			sbuf_reset(&line);
			sbuf_addf(&line, "%s: %.*s", rp->runs[i].label, (int)(nl - s), s);
			table_item(f, style, "  ", "    ", line.s);
		}
		sbuf_free(&line);
	}
	sbuf_free(&b);
	return total;
}
