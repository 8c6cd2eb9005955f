// SPDX-License-Identifier: MIT
/*
 * What the tsc_readiness answer says beyond itself: under what the run ran
 * (an emulator, a hypervisor: the verdict's own reading of the `run` and
 * `fingerprint` records), and for an `unknown` answer the required figures
 * it lacked and the one step that would supply them; see readiness.h.
 */
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "readiness.h"
#include "recread.h"
#include "timeutil.h"
#include "verdict.h"

_Static_assert(sizeof(((struct readiness *)0)->emulated) == VERDICT_EMU_KIND &&
		       sizeof(((struct readiness *)0)->emulated_by) == VERDICT_EMU_BY,
	       "readiness keeps the verdict's emulation words");

void readiness_conditions(struct readiness *rd, const char *recs, size_t len)
{
	const char *pos = recs;
	struct rec_view r;

	while (recs && recread_next(&pos, recs + len, &r))
		verdict_emulation(&r, rd->emulated, rd->emulated_by);
}

/* The reason judged by rule, NULL when none. */
static const struct readiness_reason *reason_of(const struct readiness *rd,
						const struct rd_rule *rule)
{
	for (size_t i = 0; i < rd->n; i++)
		if (rd->reason[i].rule == rule)
			return &rd->reason[i];
	return NULL;
}

/* A required rule that rd_decide() finds without a measured reason. */
static int lacked(const struct readiness *rd, const struct rd_rule *rule)
{
	for (size_t i = 0; i < rd->n; i++)
		if (rd->reason[i].rule == rule && rd->reason[i].pass != RD_NOT_MEASURED)
			return 0;
	return rule->kind == RD_REQUIRED && (TP_HAVE_TSC || !rule->x86_only);
}

/* "drift,tscsync": the probes that declare the lacked rules, each once, into out. */
static void lacked_probes(const struct readiness_decl *d, size_t nd,
			  const struct readiness *rd, char *out, size_t n)
{
	size_t used = 0;

	out[0] = 0;
	for (size_t i = 0; i < nd; i++) {
		const char *p = d[i].probe ? d[i].probe->name : NULL;

		if (!p || !lacked(rd, &d[i].d->rule) || strstr(out, p))
			continue;
		used += (size_t)snprintf(out + used, n - used, "%s%s", used ? "," : "", p);
		if (used >= n)
			return;
	}
}

/* The one step: the probes on the machine itself, from inside a guest or an emulator. */
static void step(struct readiness *rd, const char *probes, const char *why)
{
	int tcg = !strcmp(rd->emulated, "tcg");
	const char *on = tcg ? "real hardware" : "the host";

	if (rd->emulated[0])
		snprintf(rd->next_step, sizeof(rd->next_step),
			 "%s the machine's own clocks are not visible: boot the appliance on %s, "
			 "or run `timeprobe run --probes=%s` on %s",
			 tcg ? "under this emulator" : "inside this guest", on, probes, on);
	else
		snprintf(rd->next_step, sizeof(rd->next_step),
			 "%s: run `timeprobe run --probes=%s`, or boot the appliance with "
			 "timeprobe.probes=%s", why, probes, probes);
}

void readiness_next(struct readiness *rd, const struct readiness_decl *d, size_t nd)
{
	char probes[64];
	const char *why = NULL;

	rd->nmissing = 0;
	rd->next_step[0] = 0;
	if (rd->answer != RD_UNKNOWN)
		return;
	for (size_t i = 0; i < nd && rd->nmissing < READINESS_REASONS; i++) {
		const struct readiness_reason *it = reason_of(rd, &d[i].d->rule);

		if (!lacked(rd, &d[i].d->rule))
			continue;
		rd->missing[rd->nmissing++] = &d[i].d->rule;
		if (!why)
			why = it && it->why[0] ? it->why : "not measured";
	}
	lacked_probes(d, nd, rd, probes, sizeof(probes));
	if (rd->nmissing && probes[0])
		step(rd, probes, why);
}
