// SPDX-License-Identifier: MIT
/* The `tsc=reliable` lines of the report; see readiness.h and docs/readiness.md. */
#include <string.h>

#include "cells.h"
#include "readiness.h"
#include "util.h"

static const char *str_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void put_line(FILE *f, enum style style, const char *indent, const char *text)
{
	fputs(style == STYLE_MARKDOWN ? indent[0] ? "  - " : "- " :
	      style == STYLE_HTML ? "<p>" : indent[0] ? "      " : "  ", f);
	table_text(f, style, text);
	fputs(style == STYLE_HTML ? "</p>\n" : "\n", f);
}

/* "tsc=reliable: not safe; kernel line: clocksource=hpet; wrong reference: hpet, +500 ppm". */
static void answer_line(struct sbuf *b, const struct run *run, const json_t *rd)
{
	const json_t *args = json_object_get(rd, "kernel_args");
	const json_t *wr = json_object_get(rd, "wrong_reference");
	char num[NUM_MAX];

	sbuf_addf(b, "%s: tsc=reliable %s; kernel line: ", run->label, str_of(rd, "tsc_reliable"));
	for (size_t i = 0; i < json_array_size(args); i++) {
		const char *w = json_string_value(json_array_get(args, i));

		sbuf_addf(b, "%s%s", i ? " " : "", w ? w : "?");
	}
	if (!json_array_size(args))
		sbuf_adds(b, "(nothing)");
	if (json_is_object(wr)) {
		fmt_num(num, sizeof(num), json_number_value(json_object_get(wr, "ppm")));
		sbuf_addf(b, "; wrong reference: %s, %s ppm (%s vote)", str_of(wr, "name"), num,
			  str_of(wr, "when"));
	}
	if (json_is_object(json_object_get(rd, "injected")))
		sbuf_addf(b, "; injected: %s", str_of(json_object_get(rd, "injected"), "ref"));
}

/* A reason that failed: its item, value, bound and record. */
static void reason_line(struct sbuf *b, const json_t *it)
{
	char v[NUM_MAX], bound[NUM_MAX];

	fmt_num(v, sizeof(v), json_number_value(json_object_get(it, "value")));
	fmt_num(bound, sizeof(bound), json_number_value(json_object_get(it, "bound")));
	sbuf_addf(b, "failed: %s %s %s (bound %s), from %s", str_of(it, "item"),
		  json_is_number(json_object_get(it, "value")) ? v : "no", str_of(it, "unit"),
		  json_object_get(it, "bound") ? bound : "yes", str_of(it, "from"));
}

void readiness_print(FILE *f, const struct report *rp, enum style style)
{
	struct sbuf b = { 0 };

	for (size_t r = 0; r < rp->nruns; r++) {
		const json_t *rd = rp->runs[r].readiness, *reasons = json_object_get(rd, "reasons");

		if (!rd)
			continue;
		sbuf_reset(&b);
		answer_line(&b, &rp->runs[r], rd);
		put_line(f, style, "", b.s);
		for (size_t i = 0; i < json_array_size(reasons); i++) {
			const json_t *it = json_array_get(reasons, i);

			if (!json_is_false(json_object_get(it, "passed")))
				continue;
			sbuf_reset(&b);
			reason_line(&b, it);
			put_line(f, style, "  ", b.s);
		}
	}
	sbuf_free(&b);
}
