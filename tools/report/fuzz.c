// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: any bytes as a log, through scanning, the schema check,
 * the model, every output format and the plot writer (its .dat and .gp files
 * into a scratch directory; gnuplot is not run). Built by `make fuzz-report`
 * (tools/report/report.mk); the corpus starts from the captures in
 * tests/data and one minimal record of every type (tests/report/fuzz-seeds.tp1).
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/record.h"
#include "format.h"
#include "keys.h"
#include "model.h"
#include "plot.h"
#include "scan.h"
#include "schema.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char plot_dir[] = "/tmp/tp-report-fuzz.XXXXXX";

/* Empties the scratch directory, so that every input starts from nothing. */
static void clear_plots(void)
{
	DIR *d = opendir(plot_dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", plot_dir, e->d_name);
		unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
}

static void remove_plot_dir(void)
{
	clear_plots();
	rmdir(plot_dir);
}

static void fuzz_plots(const struct report *rp)
{
	static int ready;
	struct charts charts;

	if (!ready) {
		ready = mkdtemp(plot_dir) ? 1 : -1;
		if (ready > 0)
			atexit(remove_plot_dir);
	}
	if (ready < 0)
		return;
	plot_write(rp, plot_dir, &charts);
	charts_free(&charts);
	clear_plots();
}

/*
 * A mutated record fails its CRC and stops at the scanner. For inputs whose
 * first byte is odd, every line "...TP1 {... *xxxxxxxx" gets the CRC its
 * bytes have, so that mutated JSON reaches the model and the formats.
 */
static void fix_crcs(char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t start = 0, end; start < size; start = end + 1) {
		char *nl = memchr(buf + start, '\n', size - start);
		char *tag;
		uint32_t crc;

		end = nl ? (size_t)(nl - buf) : size;
		tag = memmem(buf + start, end - start, "TP1 {", 5);
		if (!tag || end - (size_t)(tag - buf) < 16 || buf[end - 10] != ' ' || buf[end - 9] != '*')
			continue;
		crc = tp_crc32(0, tag + 4, (size_t)(buf + end - 10 - (tag + 4)));

		for (int i = 0; i < 8; i++)
			buf[end - 1 - i] = hex[(crc >> (4 * i)) & 15];
	}
}

/* The schema check on every record, as --check-keys makes it. */
static void unknown_keys(void *unknown, const json_t *rec, const char *type, struct scan_stats *st)
{
	(void)type;
	(void)st;
	schema_unknown_keys(rec, unknown);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	static const enum format formats[] = {
		FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON, FMT_KCIDB, FMT_KTAP, FMT_JUNIT, FMT_PTS,
	};
	static char *const labels[] = { "A", "" };
	struct source src = { .path = "fuzz" };
	struct report rp = { 0 };
	json_t *unknown = json_object();
	struct read_opts ro = { .seen = unknown_keys, .ctx = unknown };

	char *buf = xmalloc(size + 1);

	if (!sink)
		sink = fopen("/dev/null", "w");
	memcpy(buf, data, size);
	if (size && data[0] & 1)
		fix_crcs(buf, size);
	report_read_buffer(&rp, src.path, buf, size, &ro, &src.st);
	free(buf);
	json_decref(unknown);
	report_finish(&rp, labels, size & 1 ? 2 : 0);
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		struct out_opts o = { .format = formats[i], .tables = 1 };

		print_report(sink, &rp, &src, 1, &o);
	}
	fuzz_plots(&rp);
	report_free(&rp);
	keys_free();	/* the next input reads its own declaration */
	return 0;
}
