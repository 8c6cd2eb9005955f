// SPDX-License-Identifier: MIT
/*
 * What every export says of a run besides its figures (docs/exporting.md,
 * "Conditions and readiness"): whether an emulator or a hypervisor ran it,
 * how busy its CPUs were with other work, and its tsc=reliable answer. The
 * same facts conditions.c words for people; see export.h.
 */
#include <math.h>
#include <string.h>

#include "conditions.h"
#include "export.h"
#include "util.h"

static const char *str_or_null(const json_t *rec, const char *key)
{
	const char *s = json_string_value(json_object_get(rec, key));

	return s && *s ? s : NULL;
}

void export_facts(const struct run *run, struct export_facts *f)
{
	const char *accel = str_or_null(run->head, "accel");
	const char *emulated = str_or_null(run->verdict, "emulated");
	const json_t *busy = json_object_get(run->end, "other_busy_pct");

	memset(f, 0, sizeof(*f));
	/* TCG: the launcher's accel (tcg:max), or the CPU's signature as the verdict read it */
	if (accel && !strncmp(accel, "tcg", 3))
		f->emulator = accel;
	else if (emulated && !strcmp(emulated, "tcg"))
		f->emulator = str_or_null(run->verdict, "emulated_by") ? : "tcg";
	if (!f->emulator && emulated && !strcmp(emulated, "hypervisor"))
		f->hypervisor = str_or_null(run->verdict, "emulated_by") ? : "yes";
	else if (!f->emulator && json_is_true(json_object_get(run->head, "hypervisor")))
		f->hypervisor = "yes";
	f->busy_pct = json_is_number(busy) ? json_number_value(busy) : NAN;
	f->busy = f->busy_pct >= CONDITIONS_BUSY_PCT;
	f->tsc_reliable = str_or_null(run->readiness, "tsc_reliable");
}

void export_facts_line(struct sbuf *b, const struct export_facts *f)
{
	sbuf_addf(b, "emulator %s; hypervisor %s; ", f->emulator ? f->emulator : "none",
		  f->hypervisor ? f->hypervisor : "none");
	if (isfinite(f->busy_pct))
		sbuf_addf(b, "other work %.0f %% of CPUs (%s); ", f->busy_pct,
			  f->busy ? "busy" : "not busy");
	else
		sbuf_adds(b, "other work unknown (no end record); ");
	sbuf_addf(b, "tsc=reliable %s", f->tsc_reliable ? f->tsc_reliable : "(no tsc_readiness record)");
}
