// SPDX-License-Identifier: MIT
/* The probes' declarations of how they are shown; see show.h. */
#include <string.h>

#include "show.h"

const struct show_decl *show_find(const char *probe)
{
	for (const struct show_of *s = show_builtin; s->probe; s++)
		if (!strcmp(s->probe, probe))
			return &s->d;
	return NULL;
}

const struct show_of *show_default_clock(void)
{
	for (const struct show_of *s = show_builtin; s->probe; s++)
		if (s->d.default_clock)
			return s;
	return NULL;
}
