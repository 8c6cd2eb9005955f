// SPDX-License-Identifier: MIT
/*
 * Every probe, in the order the suite runs them. Adding a probe is one file
 * in this folder and one row here.
 */
#include <string.h>

#include "../probe.h"

enum probe_status probe_clocks(struct probe_ctx *ctx);
/* decl: more probes here */

const struct probe probe_table[] = {
	/* name      summary                                                   run            quick full (s) */
	{ "clocks", "cost, resolution and behaviour of every way to read the time", probe_clocks, 60, 600 },
	/* row: more probes here */
};
const size_t probe_count = sizeof(probe_table) / sizeof(probe_table[0]);

const struct probe *probe_find(const char *name)
{
	for (size_t i = 0; i < probe_count; i++)
		if (!strcmp(probe_table[i].name, name))
			return &probe_table[i];
	return 0;
}
