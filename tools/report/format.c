// SPDX-License-Identifier: MIT
/* Output of tp-report; see format.h. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"
#include "export.h"
#include "fold.h"
#include "verdict.h"
#include "format.h"
#include "format_compare.h"
#include "format_data.h"
#include "keys.h"
#include "schema.h"
#include "lead.h"
#include "lineup.h"
#include "sides.h"
#include "table.h"
#include "util.h"

static const struct {
	const char *name;
	enum format format;
} formats[] = {
	{ "text", FMT_TEXT },
	{ "markdown", FMT_MARKDOWN },
	{ "md", FMT_MARKDOWN },
	{ "csv", FMT_CSV },
	{ "json", FMT_JSON },
	{ "kcidb", FMT_KCIDB },
	{ "ktap", FMT_KTAP },
	{ "junit", FMT_JUNIT },
	{ "pts", FMT_PTS },
	{ "openmetrics", FMT_OPENMETRICS },
};

int format_from_name(const char *name, enum format *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(name, formats[i].name)) {
			*f = formats[i].format;
			return 0;
		}
	}
	return -1;
}


static void print_human(FILE *f, const struct report *rp, enum style style, const struct out_opts *o)
{
	if (!rp->nruns)
		return;
	if (rp->nruns == 1) {
		conditions_print(f, rp, style);
		verdict_print(f, rp, style);
		fputc('\n', f);
		print_tables(f, rp, style, o);
		return;
	}
	fmt_heading(f, style, 1, "Comparison");
	conditions_print(f, rp, style);
	print_words_sided(f, rp, style);	/* the answer on the first screen */
	verdict_print(f, rp, style);
	lineup_print(f, rp, style);
	print_lead_sided(f, rp, style);
	print_tables(f, rp, style, o);
}

static void print_markdown_fit(FILE *f, const struct report *rp, const struct out_opts *o)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *m;

	if (o->full || !(m = open_memstream(&doc, &len))) {
		print_human(f, rp, STYLE_MARKDOWN, o);
		return;
	}
	print_human(m, rp, STYLE_MARKDOWN, o);
	fclose(m);
	fold_markdown(f, doc, len, FOLD_MD_MAX);
	free(doc);
}

void print_report(FILE *f, const struct report *rp, const struct source *src, size_t nsrc,
		  const struct out_opts *o)
{
	switch (o->format) {
	case FMT_TEXT:
		print_human(f, rp, STYLE_TEXT, o);
		break;
	case FMT_MARKDOWN:
		print_markdown_fit(f, rp, o);
		break;
	case FMT_CSV:
		print_csv(f, rp);
		break;
	case FMT_JSON:
		print_json(f, rp, src, nsrc);
		break;
	case FMT_KCIDB:
		export_kcidb(f, rp);
		break;
	case FMT_KTAP:
		export_ktap(f, rp);
		break;
	case FMT_JUNIT:
		export_junit(f, rp);
		break;
	case FMT_PTS:
		export_pts(f, rp);
		break;
	case FMT_OPENMETRICS:
		export_openmetrics(f, rp, o->all, 1);
		break;
	}
}

