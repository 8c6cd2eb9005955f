// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: any bytes as a log, through scanning, the model and
 * every output format. Built by `make fuzz-report` (tools/report/report.mk).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "model.h"
#include "scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	static const enum format formats[] = { FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON };
	struct source src = { .path = "fuzz" };
	struct rec_list recs = { 0 };
	struct report rp = { 0 };
	static char *const labels[] = { "A", "" };

	if (!sink)
		sink = fopen("/dev/null", "w");
	scan_buffer((const char *)data, size, &recs, &src.st);
	report_add_file(&rp, src.path, &recs);
	rec_list_free(&recs);
	report_finish(&rp, labels, size & 1 ? 2 : 0);
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct out_opts o = { .format = formats[i], .tables = 1 };

		print_report(sink, &rp, &src, 1, &o);
	}
	report_free(&rp);
	return 0;
}
