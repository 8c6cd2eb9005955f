// SPDX-License-Identifier: MIT
/* Output of records and human lines; see emit.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static int ctx_iteration, ctx_round;

void emit_set_context(int iteration)
{
	ctx_iteration = iteration;
}

void emit_set_round(int round)
{
	ctx_round = round;
}

void emit_begin(struct tp_rec *r, const char *type)
{
	tp_rec_begin(r, type);
	if (ctx_iteration > 0)
		tp_rec_int(r, "iteration", ctx_iteration);
	if (ctx_round > 0)
		tp_rec_int(r, "round", ctx_round);
}

void emit_result_begin(struct tp_rec *r, const char *probe, const char *name)
{
	emit_begin(r, "result");
	tp_rec_str(r, "probe", probe);
	tp_rec_str(r, "name", name);
}

void emit_end(struct tp_rec *r)
{
	const char *line = tp_rec_finish(r);

	if (!line) {
		/* Too long or unbalanced: a bug in a probe. Say so in a record
		 * that fits, rather than losing the line silently. */
		struct tp_rec e;

		emit_begin(&e, "error");
		tp_rec_str(&e, "reason", "record overflow (too long or unbalanced)");
		tp_rec_strn(&e, "head", r->buf, 120);
		line = tp_rec_finish(&e);
		fputs(line, stdout);
		fflush(stdout);
		return;
	}
	fputs(line, stdout);
	fflush(stdout);
}

void emit_rec_double(struct tp_rec *r, const char *key, double v)
{
	char tmp[40];

	if (!isfinite(v)) {
		tp_rec_null(r, key);
		return;
	}
	/* At most 9 significant digits: more than any figure here deserves;
	 * a frequency in Hz needs emit_rec_exact(). "%g" output is a valid
	 * JSON number. */
	snprintf(tmp, sizeof(tmp), "%.9g", v);
	tp_rec_number(r, key, tmp);
}

void emit_rec_exact(struct tp_rec *r, const char *key, double v)
{
	char tmp[40];

	if (!isfinite(v)) {
		tp_rec_null(r, key);
		return;
	}
	for (int digits = 9; digits <= 17; digits++) {
		snprintf(tmp, sizeof(tmp), "%.*g", digits, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	tp_rec_number(r, key, tmp);
}

void emit_skip(const char *probe, const char *name, const char *reason)
{
	struct tp_rec r;

	emit_begin(&r, "skip");
	tp_rec_str(&r, "probe", probe);
	if (name)
		tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "reason", reason);
	emit_end(&r);
	emit_human("  %-40s skipped: %s\n", name ? name : probe, reason);
}

void emit_error(const char *probe, const char *name, const char *reason)
{
	struct tp_rec r;

	emit_begin(&r, "error");
	tp_rec_str(&r, "probe", probe);
	if (name)
		tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "reason", reason);
	emit_end(&r);
	emit_human("  %-40s ERROR: %s\n", name ? name : probe, reason);
}

void emit_human(const char *fmt, ...)
{
	va_list ap;

	if (ctx_round > 0)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* What the keys of skip, error and warning records are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key emit_rec_keys[] = {
	{ "skip", "*", TP_KEY_CONTEXT, "the reason and the error" },
	{ "error", "option", TP_KEY_ID, "a bad option's name" },
	{ "error", "*", TP_KEY_CONTEXT, "the reason, signal, exit status, limits" },
	{ "warning", "option", TP_KEY_ID, "an option's old spelling, taken" },
	{ "warning", "*", TP_KEY_CONTEXT, "the value, and the option's new name" },
	TP_REC_KEYS_END,
};
