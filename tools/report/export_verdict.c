// SPDX-License-Identifier: MIT
/* A run's verdict items as the exports give them to CI; see export.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

/*
 * Under an emulator the CPUID bits are the emulator's: a poor tsc_invariant
 * there says nothing of a machine, and a CI job gating on TCG runs would
 * fail every one of them on it. It is a skip, and its detail says why.
 */
static int emulator_item(const struct run *run, const char *name)
{
	const char *emulated = json_string_value(json_object_get(run->verdict, "emulated"));

	return emulated && !strcmp(emulated, "tcg") && !strcmp(name, "tsc_invariant");
}

/* poor fails; good and fair pass; not measured, unknown (or a word this
 * reader does not know) are skips, with why. */
static enum export_verdict_status status_of(const char *word)
{
	if (!strcmp(word, "poor"))
		return EXPORT_VERDICT_FAIL;
	if (!strcmp(word, "good") || !strcmp(word, "fair"))
		return EXPORT_VERDICT_PASS;
	return EXPORT_VERDICT_SKIP;
}

/* "poor: 670.569 % (itimer: ITIMER_REAL 100us)", or "not measured: WHY";
 * with emu, the emulator named after it. */
static char *detail_of(const char *word, const json_t *it, int emu)
{
	const json_t *v = json_object_get(it, "value");
	struct sbuf b = { 0 };

	sbuf_adds(&b, word);
	if (json_is_number(v) && isfinite(json_number_value(v))) {
		sbuf_addf(&b, ": %.6g", json_number_value(v));
		if (*export_str(it, "unit"))
			sbuf_addf(&b, " %s", export_str(it, "unit"));
		if (*export_str(it, "from"))
			sbuf_addf(&b, " (%s)", export_str(it, "from"));
	} else if (*export_str(it, "why")) {
		sbuf_addf(&b, ": %s", export_str(it, "why"));
	}
	if (emu)
		sbuf_adds(&b, "; under an emulator: its CPUID, not a machine's");
	return sbuf_take(&b);
}

size_t export_verdict(const struct run *run, struct export_verdict_item **out)
{
	const json_t *items = run->verdict ? json_object_get(run->verdict, "items") : NULL;
	struct export_verdict_item *v = NULL;
	const char *name;
	json_t *it;
	size_t n = 0, cap = 0;
	int emu;

	*out = NULL;
	if (!json_is_object(items))
		return 0;
	json_object_foreach((json_t *)items, name, it) {
		const char *word = export_str(it, "word");

		if (!json_is_object(it))
			continue;
		grow(&v, &cap, n + 1, sizeof(*v));
		emu = !strcmp(word, "poor") && emulator_item(run, name);
		v[n++] = (struct export_verdict_item){ name, *word ? word : "unknown",
			emu ? EXPORT_VERDICT_SKIP : status_of(word),
			detail_of(*word ? word : "unknown", it, emu) };
	}
	*out = v;
	return n;
}

void export_verdict_free(struct export_verdict_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].detail);
	free(v);
}
