// SPDX-License-Identifier: MIT
/*
 * tp-report: reads TP1 records from serial captures and saved result files,
 * prints one run as tables and several as a comparison (docs/comparing.md).
 * `timeprobe report ARGS` execs this program, found next to timeprobe.
 */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/record.h"
#include "conditions.h"
#include "datasheet.h"
#include "export.h"
#include "fleet.h"
#include "format.h"
#include "gate.h"
#include "history.h"
#include "html.h"
#include "model.h"
#include "noise.h"
#include "keys.h"
#include "plot.h"
#include "scan.h"
#include "schema.h"
#include "util.h"

/*
 * The report's memory against its input (docs/comparing.md, section 3):
 * while reading it keeps at most REPORT_KEEP_RATIO times the input (and
 * REPORT_KEEP_MIN bytes whatever the input), so that with what it builds
 * afterwards the whole stays under 8 times: past it, the rest of the input
 * is ignored, with one line saying so.
 */
#define REPORT_KEEP_RATIO 3
#define REPORT_KEEP_MIN ((size_t)16 << 20)

#define USAGE "usage: tp-report FILE... " \
	"[--format=text|markdown|csv|json|kcidb|ktap|junit|pts|openmetrics] [--all] " \
	"[--textfile=FILE] [--fleet [--place=RUN]] [--history [--machine=ID]] " \
	"[--label=A,B,...] [--plot=DIR] [--html=DIR] [--tables] [--full] [--max-input=SIZE] [--check-keys] [--strict] [--fail-on=LEVEL] [--datasheet=FILE] | --schema | --keys"

struct cli {
	struct out_opts out;
	unsigned long long max_input;	/* bytes read of each file at most */
	char **labels;
	size_t nlabels;
	const char *plot_dir;
	const char *html_dir;
	const char *textfile;	/* --textfile: OpenMetrics for node_exporter, nothing on stdout */
	int fleet;		/* --fleet: FILES|DIR as a fleet (fleet.h) */
	const char *place;	/* --place: one run's standing in the fleet */
	int history;		/* --history: FILES|DIR as machines' histories (history.h) */
	const char *machine;	/* --machine: that machine's history only */
	const char **files;
	size_t nfiles;
	int help;
	int version;
	int schema;
	int keys;
	int check_keys;
	int strict;		/* --strict: exit 3 on a run's conditions (conditions.h) */
	const char *datasheet;	/* --datasheet=FILE (datasheet.h) */
	unsigned fail_on;	/* --fail-on: GATE_* levels (gate.h) */
};

static int opt_format(struct cli *c, const char *arg)
{
	return format_from_name(arg, &c->out.format);
}

static int opt_label(struct cli *c, const char *arg)
{
	char *s = xstrdup(arg), *save = NULL, *tok;

	/* empty fields keep their default label: --label=,B */
	for (tok = s; tok; tok = save) {
		save = strchr(tok, ',');
		if (save)
			*save++ = 0;
		c->labels = xrealloc(c->labels, (c->nlabels + 1) * sizeof(*c->labels));
		c->labels[c->nlabels++] = xstrdup(tok);
	}
	free(s);
	return 0;
}

static int opt_plot(struct cli *c, const char *arg)
{
	c->plot_dir = arg;
	return *arg ? 0 : -1;
}

/* SIZE: bytes, or with a suffix K, M or G (KiB, MiB, GiB); at least 1. */
static int opt_html(struct cli *c, const char *arg)
{
	c->html_dir = arg;
	return *arg ? 0 : -1;
}

static int opt_max_input(struct cli *c, const char *arg)
{
	static const char units[] = "KMG";
	unsigned long long v = 0;
	const char *p = arg, *u;
	int shift = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (ULLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (*p && (u = strchr(units, *p)) != NULL) {
		shift = 10 * (int)(u - units + 1);
		p++;
	}
	if (p == arg || *p || !v || v > ULLONG_MAX >> shift)
		return -1;
	c->max_input = v << shift;
	return 0;
}

static int opt_all(struct cli *c, const char *arg)
{
	(void)arg;
	c->out.all = 1;
	return 0;
}

static int opt_textfile(struct cli *c, const char *arg)
{
	c->textfile = arg;
	return *arg ? 0 : -1;
}

static int opt_fleet(struct cli *c, const char *arg)
{
	(void)arg;
	c->fleet = 1;
	return 0;
}

static int opt_place(struct cli *c, const char *arg)
{
	c->place = arg;
	c->fleet = 1;
	return *arg ? 0 : -1;
}

static int opt_history(struct cli *c, const char *arg)
{
	(void)arg;
	c->history = 1;
	return 0;
}

static int opt_machine(struct cli *c, const char *arg)
{
	c->machine = arg;
	c->history = 1;
	return *arg ? 0 : -1;
}

static int opt_tables(struct cli *c, const char *arg)
{
	(void)arg;
	c->out.tables = 1;
	return 0;
}

static int opt_full(struct cli *c, const char *arg)
{
	(void)arg;
	c->out.full = 1;
	return 0;
}

static int opt_schema(struct cli *c, const char *arg)
{
	(void)arg;
	c->schema = 1;
	return 0;
}

static int opt_keys(struct cli *c, const char *arg)
{
	(void)arg;
	c->keys = 1;
	return 0;
}

static int opt_check_keys(struct cli *c, const char *arg)
{
	(void)arg;
	c->check_keys = 1;
	return 0;
}

static int opt_floors(struct cli *c, const char *arg)
{
	(void)c;
	return noise_load_floors(arg);
}

static int opt_strict(struct cli *c, const char *arg)
{
	(void)arg;
	c->strict = 1;
	return 0;
}

static int opt_fail_on(struct cli *c, const char *arg)
{
	return gate_parse(arg, &c->fail_on);
}

static int opt_datasheet(struct cli *c, const char *arg)
{
	c->datasheet = arg;
	return 0;
}

static int opt_help(struct cli *c, const char *arg)
{
	(void)arg;
	c->help = 1;
	return 0;
}

static int opt_version(struct cli *c, const char *arg)
{
	(void)arg;
	c->version = 1;
	return 0;
}

static const struct {
	const char *name;
	int has_arg;
	int (*set)(struct cli *c, const char *arg);
	const char *help;
} options[] = {
	{ "--format", 1, opt_format,
	  "text (default), markdown, csv, json; kcidb, ktap, junit, pts, openmetrics "
	  "(docs/exporting.md)" },
	{ "--all", 0, opt_all, "openmetrics: every declared key, not only the headline figures" },
	{ "--textfile", 1, opt_textfile,
	  "write OpenMetrics for node_exporter's textfile collector to FILE (docs/fleet.md)" },
	{ "--fleet", 0, opt_fleet,
	  "FILES or DIR as a fleet: by environment, per figure n, median, p5, p95, outliers" },
	{ "--place", 1, opt_place, "with --fleet: where run RUN stands, figure by figure" },
	{ "--history", 0, opt_history,
	  "FILES or DIR as each machine's history: the runs where a figure changed, and what changed with it" },
	{ "--machine", 1, opt_machine, "with --history: machine ID's runs only (its machine_id, else machine)" },
	{ "--label", 1, opt_label, "labels for the runs, in order, comma-separated" },
	{ "--plot", 1, opt_plot, "write .dat/.gp files and SVG/PNG charts into DIR" },
	{ "--html", 1, opt_html, "write DIR/index.html, the report and its plots on one page, and print its path (only)" },
	{ "--tables", 0, opt_tables, "with several runs, also print each run's tables" },
	{ "--full", 0, opt_full,
	  "every column (budget and context keys too) and, in Markdown, every row" },
	{ "--max-input", 1, opt_max_input,
	  "read at most SIZE bytes of each file (K, M, G: KiB, MiB, GiB; default 1G)" },
	{ "--schema", 0, opt_schema, "print which keys identify a result (docs/records.md)" },
	{ "--keys", 0, opt_keys, "print the built-in key declaration: the keys records a run ships" },
	{ "--check-keys", 0, opt_check_keys, "list keys the schema does not know; exit 1 if any" },
	{ "--floors", 1, opt_floors,
	  "between-run variances measured on this machine (make noise-floor), in place of the built-in" },
	{ "--strict", 0, opt_strict,
	  "exit 3 when a run has a condition (records lost, no end, busy CPUs, an emulator)" },
	{ "--fail-on", 1, opt_fail_on,
	  "poor, fair or unsafe (or several, comma-separated): exit " STR(GATE_EXIT) " when a verdict item "
	  "is poor (fair: fair or poor) or tsc=reliable is not safe, each on stderr" },
	{ "--datasheet", 1, opt_datasheet,
	  "write FILE: the first run's timing datasheet, JSON (docs/datasheet.md)" },
	{ "--help", 0, opt_help, "this text" },
	{ "-h", 0, opt_help, NULL },
	{ "--version", 0, opt_version, "print the version (git describe, or the package's, when it was built)" },
};

static void usage(FILE *f)
{
	fprintf(f, "%s\n\nReads TP1 records from serial logs and saved result files. One run:\n"
		"its tables. Several runs (files, or boots in a file): a comparison.\n\n", USAGE);
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].help)
			fprintf(f, "  %-10s %s\n", options[i].name, options[i].help);
	fprintf(f, "\nSeveral runs a side: give every run's log and repeat its side's label, e.g.\n"
		"  tp-report --label=A,A,A,B,B,B a1.log a2.log a3.log b1.log b2.log b3.log\n"
		"(one log holding several boots counts each boot as a run). One run a side compares\n"
		"by its rounds and the between-run variance of identical runs (--floors).\n");
	fprintf(f, "\nExit status:\n  0: done\n  1: a file could not be read or held no run, an output could not\n"
		"     be written, or --check-keys found unknown keys\n  2: bad usage\n"
		"  3: --strict, and a run has a condition\n"
		"  " STR(GATE_EXIT) ": --fail-on, and a run reached its level (the items on stderr)\n");
}

/* Returns 0, or 2 (bad usage) after one line on stderr. */
static int parse_args(int argc, char **argv, struct cli *c)
{
	int files_only = 0;

	c->files = xcalloc((size_t)argc, sizeof(*c->files));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		size_t k;

		if (files_only || a[0] != '-' || !strcmp(a, "-")) {
			c->files[c->nfiles++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			files_only = 1;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(options); k++)
			if (strlen(options[k].name) == len && !strncmp(a, options[k].name, len))
				break;
		if (k == ARRAY_SIZE(options)) {
			fprintf(stderr, "report: unknown option '%s' (%s)\n", a, USAGE);
			return 2;
		}
		if (!eq != !options[k].has_arg || options[k].set(c, eq ? eq + 1 : NULL)) {
			fprintf(stderr, "report: bad option '%s' (%s)\n", a, USAGE);
			return 2;
		}
	}
	if (!c->nfiles && !c->help && !c->version && !c->schema && !c->keys) {
		fprintf(stderr, "report: no file given (%s)\n", USAGE);
		return 2;
	}
	return 0;
}

static void say_skipped(const struct source *s)
{
	static const struct {
		size_t off;
		const char *what;
	} kinds[] = {
		{ offsetof(struct scan_stats, bad_crc), "bad CRC" },
		{ offsetof(struct scan_stats, too_long), "longer than " STR(TP_REC_LINE_MAX)
			" bytes, the most a record can be" },
		{ offsetof(struct scan_stats, cut), "cut short" },
		{ offsetof(struct scan_stats, unparsable), "not a JSON object" },
		{ offsetof(struct scan_stats, damaged_tag), "damaged tag" },
	};
	size_t total = scan_corrupt(&s->st);
	const char *sep = " (";

	if (!total)
		return;
	fprintf(stderr, "report: %s: %zu corrupt record%s skipped", s->path, total,
		total == 1 ? "" : "s");
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = *(const size_t *)((const char *)&s->st + kinds[i].off);

		if (n) {
			fprintf(stderr, "%s%zu %s", sep, n, kinds[i].what);
			sep = ", ";
		}
	}
	fputs(")\n", stderr);
}

/* A size as --max-input takes it: 1G, 64K, 1000. */
static void fmt_size(char *buf, size_t n, unsigned long long v)
{
	static const char units[] = "GMK";
	int shift = 30;

	for (size_t i = 0; i < sizeof(units) - 1; i++, shift -= 10) {
		if (v && !(v & ((1ULL << shift) - 1))) {
			snprintf(buf, n, "%llu%c", v >> shift, units[i]);
			return;
		}
	}
	snprintf(buf, n, "%llu", v);
}

/* What was read of a file but is not in the report: input past the limit, long lines. */
static void say_limits(const struct source *s, unsigned long long max_input)
{
	char size[32];

	fmt_size(size, sizeof(size), max_input);
	if (s->st.capped)
		fprintf(stderr, "report: %s: read the first %llu bytes (--max-input=%s); "
			"the rest was ignored\n", s->path, s->st.bytes, size);
	if (s->st.full)
		fprintf(stderr, "report: %s: read the first %llu bytes (what the report keeps of "
			"them reached %d times the input's size); the rest was ignored\n", s->path,
			s->st.bytes, REPORT_KEEP_RATIO);
	if (s->st.long_lines)
		fprintf(stderr, "report: %s: %zu line%s longer than %d bytes skipped\n", s->path,
			s->st.long_lines, s->st.long_lines == 1 ? "" : "s", SCAN_LINE_MAX);
}

struct reading {
	json_t *unknown;	/* --check-keys: the records' unknown keys go here, not to the report */
	size_t keep_max;	/* the heap the report may reach while reading (keep_limit()) */
};

/* The heap in use now (glibc: what malloc handed out and was not freed). */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* Each record once the reader has it: --check-keys's unknown keys; st->full once the heap has. */
static void seen(void *ctx, const json_t *rec, const char *type, struct scan_stats *st)
{
	struct reading *rd = ctx;

	(void)type;
	if (rd->unknown)
		schema_unknown_keys(rec, rd->unknown);
	if (heap_in_use() > rd->keep_max)
		st->full = 1;
}

/*
 * What the report may keep while reading: REPORT_KEEP_RATIO times the
 * input (the files' sizes, as far as --max-input reads them), and
 * REPORT_KEEP_MIN whatever the input. What it builds afterwards (figures,
 * the output) takes as much again, so the whole stays within
 * REPORT_MEM_RATIO times the input (tests/report/memory.t).
 */
static size_t keep_limit(const char *const *files, size_t n, unsigned long long max_input)
{
	unsigned long long input = 0;
	struct stat sb;

	for (size_t i = 0; i < n; i++)
		if (strcmp(files[i], "-") && !stat(files[i], &sb) && S_ISREG(sb.st_mode))
			input += (unsigned long long)sb.st_size < max_input ?
				 (unsigned long long)sb.st_size : max_input;
	input *= REPORT_KEEP_RATIO;
	return input > REPORT_KEEP_MIN ? (size_t)input : REPORT_KEEP_MIN;
}

/*
 * Reads one file into the report, record by record: what is kept is what
 * the report needs, not the file. Returns 0, or 1 if it could not be read.
 */
static int read_source(struct report *rp, struct source *s, json_t *unknown,
		       unsigned long long max_input, size_t keep_max)
{
	struct reading rd = { unknown, keep_max };
	struct read_opts o = { max_input, unknown != NULL, seen, &rd };

	s->err = report_read_file(rp, s->path, &o, &s->st);
	if (s->err) {
		fprintf(stderr, "report: %s: %s\n", s->path, strerror(-s->err));
		return 1;
	}
	say_limits(s, max_input);
	say_skipped(s);
	if (!s->st.records)
		fprintf(stderr, "report: %s: no TP1 records (not a timeprobe log, "
			"or the run printed none)\n", s->path);
	return 0;
}

/* --check-keys: the keys the schema does not classify, one a line. Returns 0, or 1 if any. */
static int print_unknown(const json_t *unknown)
{
	const char *key;
	json_t *n;

	json_object_foreach((json_t *)unknown, key, n)
		printf("unclassified key %s in %lld record%s\n", key, (long long)json_integer_value(n),
		       json_integer_value(n) == 1 ? "" : "s");
	return json_object_size(unknown) ? 1 : 0;
}

/* --fleet: the files as a fleet (fleet.h). 0, or 1 when a file could not be read. */
static int run_fleet(const struct cli *c)
{
	struct fleet fl = { .max_input = c->max_input };
	long at = fleet_read(&fl, c->files, c->nfiles, c->place);
	int status = fl.unread ? 1 : 0;

	if (c->place && at < 0) {
		fprintf(stderr, "report: --place=%s: no run read from it\n", c->place);
		status = 1;
	} else if (!fl.nruns) {
		fprintf(stderr, "report: --fleet: no runs in any file\n");
		status = 1;
	} else if (!c->html_dir) {
		fleet_print(stdout, &fl, at);
	} else if (fleet_html(&fl, c->html_dir)) {
		status = 1;
	} else {
		/* with --html the page is the report: stdout names it, and only it */
		printf("%s/index.html\n", c->html_dir);
	}
	fleet_free(&fl);
	return status;
}

/* --history: the files as machines' histories (history.h). 0, or 1. */
static int run_history(const struct cli *c)
{
	struct history h = { .max_input = c->max_input, .only = c->machine };
	int status;

	hist_read(&h, c->files, c->nfiles);
	status = h.unread ? 1 : 0;
	if (!h.nruns) {
		fprintf(stderr, "report: --history: no runs%s in any file\n",
			c->machine ? " of that machine" : "");
		status = 1;
	} else {
		hist_find(&h);
		if (c->html_dir) {
			status |= hist_html(&h, c->html_dir);
			if (!status)
				printf("%s/index.html\n", c->html_dir);
		} else if (c->out.format == FMT_JSON) {
			hist_print_json(stdout, &h);
		} else {
			hist_print(stdout, &h);
		}
	}
	hist_free(&h);
	return status;
}

int main(int argc, char **argv)
{
	struct cli c = { .out.format = FMT_TEXT, .max_input = SCAN_INPUT_MAX };
	struct report rp = { 0 };
	struct source *src;
	json_t *unknown = NULL;
	size_t keep_max;
	int status, gated;

	status = parse_args(argc, argv, &c);
	if (status || c.help || c.version || c.schema || c.keys) {
		if (c.help)
			usage(stdout);
		else if (c.version)
			printf("tp-report %s\n", TP_VERSION);
		else if (c.schema)
			schema_print_markdown(stdout);
		else if (c.keys)
			keys_print_builtin(stdout);
		goto out;
	}
	if (c.fleet) {
		status = run_fleet(&c);
		goto out;
	}
	if (c.history) {
		status = run_history(&c);
		goto out;
	}
	if (c.check_keys)
		unknown = json_object();
	src = xcalloc(c.nfiles, sizeof(*src));
	keep_max = keep_limit(c.files, c.nfiles, c.max_input);
	for (size_t i = 0; i < c.nfiles; i++) {
		src[i].path = c.files[i];
		status |= read_source(&rp, &src[i], unknown, c.max_input, keep_max);
	}
	if (unknown) {
		status |= print_unknown(unknown);
		json_decref(unknown);
		goto out_src;
	}
	if (!rp.nruns) {
		fprintf(stderr, "report: no records in any file\n");
		status = 1;
		goto out_src;
	}
	if (c.nlabels > rp.nruns)
		fprintf(stderr, "report: --label: %zu labels for %zu runs; the rest are unused\n",
			c.nlabels, rp.nruns);
	report_finish(&rp, c.labels, c.nlabels);
	gated = c.fail_on && gate_check(stderr, &rp, c.fail_on);
	if (c.textfile) {
		status |= export_openmetrics_file(c.textfile, &rp, c.out.all);
		if (gated && !status)
			status = GATE_EXIT;
		goto out_src;
	}
	/* a run left out of the OpenMetrics (no start time) is an exit status too */
	if (c.out.format == FMT_OPENMETRICS && !c.html_dir)
		status |= export_openmetrics(stdout, &rp, c.out.all, 1);
	/* with --html the page is the report: stdout names it, and only it */
	else if (!c.html_dir)
		print_report(stdout, &rp, src, c.nfiles, &c.out);
	if (gated && !status)
		status = GATE_EXIT;
	if (c.strict && !status && conditions_count(&rp))
		status = 3;
	if (c.plot_dir && plot_report(&rp, c.plot_dir, NULL))
		status = 1;
	if (c.html_dir && html_report(&rp, src, c.nfiles, c.html_dir, c.out.full))
		status = 1;
	if (c.datasheet && datasheet_write(c.datasheet, c.files[0], c.max_input))
		status = 1;
	else if (c.html_dir)
		printf("%s/index.html\n", c.html_dir);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "report: writing the report: %s\n", strerror(errno));
		status = 1;
	}
out_src:
	free(src);
out:
	report_free(&rp);
	for (size_t i = 0; i < c.nlabels; i++)
		free(c.labels[i]);
	free(c.labels);
	free(c.files);
	schema_cache_free();
	keys_free();
	noise_free_floors();
	return status;
}
