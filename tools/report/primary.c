// SPDX-License-Identifier: MIT
/* The comparison's own question; see primary.h. */
#include <string.h>

#include "primary.h"
#include "show.h"

const struct figure *primary_booted_clock(const struct report *rp)
{
	static unsigned c_id;
	static const struct figure *c_fg;
	const struct show_of *s = show_default_clock();
	const struct show_clock *c = s ? s->d.default_clock : NULL;

	if (rp->id && c_id == rp->id)
		return c_fg;
	c_fg = NULL;
	for (size_t i = 0; c && i < rp->nfigs && !c_fg; i++) {
		const struct figure *fg = &rp->figs[i];

		if (fg->as_booted && !strcmp(fg->probe, s->probe) && !strcmp(fg->name, c->name) &&
		    !strcmp(fg->key, c->key) && strstr(fg->ident, c->ident))
			c_fg = fg;
	}
	c_id = rp->id;
	return c_fg;
}

int primary_question(const struct report *rp, const struct figure *fg, size_t r)
{
	const char *c0, *cr;

	if (!r || r >= rp->nruns || fg != primary_booted_clock(rp))
		return 0;
	c0 = run_booted_clocksource(&rp->runs[0]);
	cr = run_booted_clocksource(&rp->runs[r]);
	return c0 && cr && strcmp(c0, cr);
}
