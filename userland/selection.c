// SPDX-License-Identifier: MIT
/* Selection of the probes to run; see selection.h. */
#include <stdio.h>
#include <string.h>

#include "selection.h"
#include "skewopt.h"
#include "suggest.h"
#include "summary.h"

static int named(const struct name_list *l, const char *name)
{
	for (size_t k = 0; k < l->n; k++)
		if (!strcmp(l->v[k], name))
			return 1;
	return 0;
}

static void report_unknown(const char *option, const char *value, const char *reason)
{
	struct opt_error bad = { 0 };

	snprintf(bad.name, sizeof(bad.name), "%s", option);
	snprintf(bad.value, sizeof(bad.value), "%s", value);
	snprintf(bad.reason, sizeof(bad.reason), "%s", reason);
	summary_option_error(&bad);
}

/* "not one of crash, hang, ...": the inject rows of the registry. */
const char *selection_inject_names(void)
{
	static char buf[160];
	size_t len = (size_t)snprintf(buf, sizeof(buf), "not one of");

	for (size_t i = 0; i < probe_count && len < sizeof(buf); i++)
		if (probe_table[i]->inject)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %s",
						len > 10 ? "," : "", probe_table[i]->name);
	if (len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, ", nor skew:REF:PPM");
	return buf;
}

static const char *probe_name(size_t i, const void *inject)
{
	return !probe_table[i]->inject == !*(const int *)inject ? probe_table[i]->name : 0;
}

const char *selection_why(const char *which, const char *bad, char *buf, size_t len)
{
	int inject = !strcmp(which, "inject");

	snprintf(buf, len, "%s", inject ? selection_inject_names() : "no such probe");
	suggest_append(buf, len, bad, probe_name, probe_count, &inject);
	if (!inject)
		snprintf(buf + strlen(buf), len - strlen(buf), " (see `timeprobe list`)");
	return buf;
}

const char *selection_unknown(const struct options *o, const char **which)
{
	for (size_t i = 0; i < o->probes.n; i++)
		if (!probe_find(o->probes.v[i])) {
			*which = "probes";
			return o->probes.v[i];
		}
	for (size_t i = 0; i < o->inject.n; i++)
		if (!probe_inject_find(o->inject.v[i]) && !skewopt_is_item(o->inject.v[i])) {
			*which = "inject";
			return o->inject.v[i];
		}
	return 0;
}

size_t selection_probes(const struct options *o, const struct probe **list, size_t max)
{
	size_t n = 0;

	char why[96];

	for (size_t i = 0; i < o->probes.n; i++)
		if (!probe_find(o->probes.v[i]))
			report_unknown("probes", o->probes.v[i],
				       selection_why("probes", o->probes.v[i], why, sizeof(why)));
	for (size_t i = 0; i < probe_count && n < max; i++)
		if (!probe_table[i]->inject && (!o->probes.n || named(&o->probes, probe_table[i]->name)))
			list[n++] = probe_table[i];
	/* Nothing valid was named: run everything rather than nothing. */
	if (!n)
		for (size_t i = 0; i < probe_count && n < max; i++)
			if (!probe_table[i]->inject)
				list[n++] = probe_table[i];
	for (size_t i = 0; i < o->inject.n && n < max; i++) {
		const struct probe *p = probe_inject_find(o->inject.v[i]);

		if (p)
			list[n++] = p;
		else if (!skewopt_is_item(o->inject.v[i]))	/* skew:REF:PPM, not a probe */
			report_unknown("inject", o->inject.v[i],
				       selection_why("inject", o->inject.v[i], why, sizeof(why)));
	}
	return n;
}
