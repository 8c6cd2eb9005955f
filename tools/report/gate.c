// SPDX-License-Identifier: MIT
/* --fail-on: which runs reached the level CI set; see gate.h. */
#include <string.h>

#include "export.h"
#include "gate.h"
#include "util.h"

static const struct {
	const char *word;
	unsigned level;
} gate_words[] = {
	{ "poor", GATE_POOR },
	{ "fair", GATE_FAIR },
	{ "unsafe", GATE_UNSAFE },
};

int gate_parse(const char *arg, unsigned *levels)
{
	const char *s = arg;

	*levels = 0;
	for (;;) {
		size_t len = strcspn(s, ","), k;

		for (k = 0; k < ARRAY_SIZE(gate_words); k++)
			if (strlen(gate_words[k].word) == len && !strncmp(s, gate_words[k].word, len))
				break;
		if (k == ARRAY_SIZE(gate_words))
			return -1;
		*levels |= gate_words[k].level;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* Does a verdict item reach levels? poor counts only as the exports fail it. */
static int item_reached(const struct export_verdict_item *v, unsigned levels)
{
	if (v->status == EXPORT_VERDICT_FAIL)
		return (levels & (GATE_POOR | GATE_FAIR)) != 0;
	return (levels & GATE_FAIR) && !strcmp(v->word, "fair");
}

static size_t gate_run(FILE *err, const struct run *run, unsigned levels)
{
	const char *answer = json_string_value(json_object_get(run->readiness, "tsc_reliable"));
	struct export_verdict_item *v;
	size_t n = export_verdict(run, &v), hits = 0;

	for (size_t i = 0; i < n; i++) {
		if (!item_reached(&v[i], levels))
			continue;
		fprintf(err, "report: --fail-on: %s: %s %s\n", run->label, v[i].name, v[i].detail);
		hits++;
	}
	export_verdict_free(v, n);
	if ((levels & GATE_UNSAFE) && answer && !strcmp(answer, "not safe")) {
		fprintf(err, "report: --fail-on: %s: tsc=reliable not safe (the Verdict section says why)\n",
			run->label);
		hits++;
	}
	return hits;
}

size_t gate_check(FILE *err, const struct report *rp, unsigned levels)
{
	size_t hits = 0;

	for (size_t i = 0; i < rp->nruns; i++)
		hits += gate_run(err, &rp->runs[i], levels);
	return hits;
}
