// SPDX-License-Identifier: MIT
/*
 * Hostile records through the whole report: scanning, the model, every
 * output format and the plot writer with gnuplot, built with ASan and UBSan
 * (tools/report/report.mk). Anyone can compute a CRC, so every string here
 * comes with a valid one. Checks that nothing in a record runs, that nothing
 * is written outside the plot directory, that file names are slugs, that
 * text and Markdown show control characters written out, that JSON keeps
 * strings exact and that an end record without its counts is reported. TAP.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/record.h"
#include "../../tools/report/export.h"
#include "../../tools/report/format.h"
#include "../../tools/report/html.h"
#include "../../tools/report/model.h"
#include "../../tools/report/plot.h"
#include "../../tools/report/scan.h"
#include "../../tools/report/util.h"
#include "../unit/tap.h"

#define NHOSTILE 11

static char base[] = "/tmp/tp-report-hostile.XXXXXX";
static char *hostile[NHOSTILE];

/* Names that try to run a command, leave the directory or break a line. */
static void make_hostile(void)
{
	/* each: text, then the test directory, then text */
	static const char *const around[][2] = {
		{ "`touch ", "/pwned-backquote`" },
		{ "$(touch ", "/pwned-shell)" },
		{ "../../../../", "/pwned-dotdot" },
		{ "", "/pwned-absolute" },
		{ "a\nset output '", "/pwned-newline'\nprint 'b" },
		{ "\x1b[2J\x1b]0;title\x07|*[x](y)<b>\r\t", "\xc2\x9b" },
		{ "x'; system('touch ", "/pwned-quote'); print '" },
		{ "x\"; system(\"touch ", "/pwned-dquote\"); print \"" },
		{ "''''@s \\' ''' ", "'''; system('touch /pwned-q2') #" },
	};
	struct sbuf b = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(around); i++)
		hostile[i] = xasprintf("%s%s%s", around[i][0], base, around[i][1]);
	/* no '/': a file name made from it would open, and gnuplot run it */
	hostile[i++] = xstrdup("x'; system('touch pwned-relative'); print '");
	for (int k = 0; k < 2000; k++)
		sbuf_adds(&b, k % 100 ? "A" : "'/");
	hostile[i++] = sbuf_take(&b);
}

static void add_line(struct sbuf *log, struct tp_rec *r)
{
	const char *line = tp_rec_finish(r);

	if (line)
		sbuf_adds(log, line);
}

/* drift's ADEV, a tscsync pair (CPU numbers too: one out of range) and an attribution. */
static void hostile_timing(struct sbuf *log, const char *h)
{
	static int64_t cpu;
	struct tp_rec r;
	char *key;

	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", "drift");
	tp_rec_str(&r, "name", h);
	tp_rec_str(&r, "ref", h);
	tp_rec_number(&r, "tau_s", "0.1");
	tp_rec_number(&r, "adev", "1.5e-07");
	add_line(log, &r);
	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", "tscsync");
	tp_rec_str(&r, "name", h);
	tp_rec_int(&r, "cpu_a", cpu++ % 3);
	tp_rec_int(&r, "cpu_b", cpu % 4 ? cpu % 3 : 1000000000);
	tp_rec_fixed(&r, "offset_ns", -125, 1);
	tp_rec_fixed(&r, "bound_ns", 401, 1);
	add_line(log, &r);
	tp_rec_begin(&r, "attribution");
	tp_rec_str(&r, "for_probe", h);
	tp_rec_int(&r, "ran_ms", 1000);
	tp_rec_int(&r, "context_switches", 1000 + 100 * cpu);
	key = xasprintf("irq:%s", h);
	tp_rec_int(&r, key, 3 + cpu);
	free(key);
	add_line(log, &r);
}

static void hostile_result(struct sbuf *log, const char *h)
{
	struct tp_rec r;

	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", "clocks");
	tp_rec_str(&r, "name", h);
	tp_rec_str(&r, "path", h);
	tp_rec_str(&r, "clocksource", h);
	tp_rec_fixed(&r, "ns_per_call", 215, 1);
	add_line(log, &r);
	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", "itimer");
	tp_rec_str(&r, "name", h);
	tp_rec_str(&r, "timer", h);
	tp_rec_int(&r, "requested_us", 1000);
	tp_rec_fixed(&r, "accuracy_pct", 10120, 2);
	add_line(log, &r);
	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", h);
	tp_rec_str(&r, "name", h);
	tp_rec_int(&r, "threads", 2);
	tp_rec_int(&r, "total_per_s", 1000);
	tp_rec_obj_begin(&r, "hist");
	tp_rec_int(&r, "width_ns", 1000);
	tp_rec_obj_begin(&r, "buckets");
	tp_rec_int(&r, "3", 7);
	tp_rec_obj_end(&r);
	tp_rec_obj_end(&r);
	add_line(log, &r);
	hostile_timing(log, h);
}

/* Two runs with hostile labels, every hostile name in each, ends without counts. */
static char *hostile_log(void)
{
	struct sbuf log = { 0 };
	struct tp_rec r;

	for (int run = 0; run < 2; run++) {
		tp_rec_begin(&r, "run");
		tp_rec_str(&r, "env", hostile[run]);
		tp_rec_str(&r, "machine", hostile[NHOSTILE - 4 + run]);
		tp_rec_str(&r, hostile[5], hostile[5]);
		add_line(&log, &r);
		for (size_t i = 0; i < NHOSTILE; i++)
			hostile_result(&log, hostile[i]);
		tp_rec_begin(&r, "skip");
		tp_rec_str(&r, "probe", hostile[5]);
		tp_rec_str(&r, "reason", hostile[4]);
		add_line(&log, &r);
		tp_rec_begin(&r, "end");
		add_line(&log, &r);
	}
	return sbuf_take(&log);
}

static char *format_to_string(const struct report *rp, const struct source *src, enum format fmt)
{
	struct out_opts o = { .format = fmt, .tables = 1 };
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	print_report(f, rp, src, 1, &o);
	fclose(f);
	return s;
}

/* No control character but LF, and no C1 control in UTF-8, in human output. */
static int visible_only(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u; u++)
		if ((*u < 0x20 && *u != '\n') || *u == 0x7f || (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f))
			return 0;
	return 1;
}

/* Is every line of s KTAP's: a version, a plan, a diagnostic or a result? */
static int ktap_lines_ok(const char *s)
{
	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t sp = strspn(l, " ");

		/* every line is a version, a plan, a diagnostic or a result; none is text */
		if (strncmp(l + sp, "KTAP version 1\n", 15) && strncmp(l + sp, "1..", 3) &&
		    l[sp] != '#' && strncmp(l + sp, "ok ", 3) && strncmp(l + sp, "not ok ", 7))
			return 0;
	}
	return 1;
}

/* No C0 control character but newline: what XML 1.0 text may hold, less tab and return. */
static int xml_text_ok(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\n')
			return 0;
	return 1;
}

/* The end of a label set at l ('{' first): past its '}', or NULL if a value is not closed. */
static const char *om_labels_end(const char *l)
{
	for (l++; *l && *l != '}';) {
		l += strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (strncmp(l, "=\"", 2))
			return NULL;
		for (l += 2; *l && *l != '"' && *l != '\n'; l++)
			if (*l == '\\' && !*++l)
				return NULL;
		if (*l++ != '"')
			return NULL;
		l += *l == ',';
	}
	return *l == '}' ? l + 1 : NULL;
}

/* Is every line of s OpenMetrics: # TYPE, UNIT, HELP, EOF last, or name{labels} value time? */
static int om_lines_ok(const char *s)
{
	const char *l = s, *e;

	for (; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "# TYPE ", 7) || !strncmp(l, "# UNIT ", 7) || !strncmp(l, "# HELP ", 7))
			continue;
		if (!strcmp(l, "# EOF\n"))
			return 1;
		if (strncmp(l, "timeprobe_", 10))
			return 0;
		l += strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (*l != '{' || !(e = om_labels_end(l)) || *e != ' ')
			return 0;
		strtod(e + 1, (char **)&l);
		if (l == e + 1 || (*l != ' ' && *l != '\n'))
			return 0;
	}
	return 0;
}

/* The textfile's OpenMetrics: these runs have no start, which timestamps would need. */
static char *om_to_string(const struct report *rp)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	export_openmetrics(f, rp, 1, 0);
	fclose(f);
	return s;
}

/* The exports (export.h): hostile strings escaped, each document whole. */
static void test_exports(const struct report *rp, const struct source *src)
{
	static const struct {
		enum format fmt;
		const char *name;
	} xml[] = { { FMT_JUNIT, "junit" }, { FMT_PTS, "pts" } };
	json_error_t err;
	json_t *doc;
	char *s;

	for (size_t i = 0; i < ARRAY_SIZE(xml); i++) {
		s = format_to_string(rp, src, xml[i].fmt);
		ok(s && xml_text_ok(s) && !strstr(s, "<b>") && !strstr(s, "\"; system"),
		   "%s: no C0 control but newline, no raw '<' or '\"' from a record", xml[i].name);
		free(s);
	}
	s = format_to_string(rp, src, FMT_KTAP);
	ok(s && visible_only(s) && ktap_lines_ok(s), "ktap: every line is KTAP, none injected");
	free(s);
	s = om_to_string(rp);
	ok(s && om_lines_ok(s) && strstr(s, "\\\""),
	   "openmetrics: every line a comment or a sample, every label value closed, EOF last");
	free(s);
	s = format_to_string(rp, src, FMT_KCIDB);
	doc = json_loads(s, 0, &err);
	ok(doc && json_array_size(json_object_get(doc, "tests")) > 0, "kcidb: parses, with tests");
	json_decref(doc);
	free(s);
}

static void test_formats(const struct report *rp, const struct source *src)
{
	static const struct {
		enum format fmt;
		const char *name;
	} human[] = { { FMT_TEXT, "text" }, { FMT_MARKDOWN, "markdown" } };
	json_error_t err;
	json_t *doc;
	char *s;
	size_t exact = 0;

	for (size_t i = 0; i < ARRAY_SIZE(human); i++) {
		s = format_to_string(rp, src, human[i].fmt);
		ok(s && strstr(s, "probes ok -, skipped -, failed -"),
		   "%s: an end record without counts is reported, not a crash", human[i].name);
		ok(visible_only(s), "%s: control characters are written out", human[i].name);
		ok(strstr(s, "\\x1b") && strstr(s, "\\x07") && strstr(s, "\\u009b"),
		   "%s: escape sequences and C1 controls show as text", human[i].name);
		free(s);
	}
	s = format_to_string(rp, src, FMT_JSON);
	doc = json_loads(s, 0, &err);
	for (size_t i = 0; i < json_array_size(json_object_get(doc, "figures")); i++) {
		json_t *fg = json_array_get(json_object_get(doc, "figures"), i);
		const char *name = json_string_value(json_object_get(fg, "result"));

		for (size_t k = 0; name && k < NHOSTILE; k++)
			exact += !strcmp(name, hostile[k]);
	}
	ok(doc && exact >= 2 * NHOSTILE, "json: hostile names come back exact (%zu)", exact);
	json_decref(doc);
	free(s);
	s = format_to_string(rp, src, FMT_CSV);
	ok(s && strstr(s, ",\"x\"\"; system(\"\"touch ") != NULL,
	   "csv: a name with a double quote is quoted, the quote doubled");
	free(s);	test_exports(rp, src);
}

/* A plot file name: a slug and a counter, one of the four suffixes, nothing else. */
static int plot_file_ok(const char *name)
{
	static const char *const ext[] = { ".dat", ".gp", ".svg", ".png" };
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.");
	const char *dot = strchr(name, '.');

	if (n != strlen(name) || name[0] == '.' || !dot || strchr(dot + 1, '.') || n > 64)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(ext); i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

static size_t pwned;	/* files a command from a record would have made */

/* Checks dir's entries with check(), removes them; returns the count that failed. */
static int sweep(const char *dir, int (*check)(const char *), size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int bad = 0;

	while (d && (e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		pwned += !strncmp(e->d_name, "pwned", 5);
		if (!check(e->d_name)) {
			printf("# unexpected: %s\n", path);
			bad++;
		}
		(*count)++;
		if (unlink(path))
			rmdir(path);
		free(path);
	}
	if (d)
		closedir(d);
	return bad;
}

/* stderr into errfile (mkstemp'd) until unmute: gnuplot's warnings about odd titles are noise here. */
static int mute(char *errfile, int *saved)
{
	int fd = mkstemp(errfile);

	fflush(stderr);
	*saved = dup(2);
	if (fd >= 0)
		dup2(fd, 2);
	return fd;
}

static void unmute(int fd, int saved)
{
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (fd >= 0)
		close(fd);
}

static int quiet_plot(const struct report *rp, const char *dir, char *errfile)
{
	int saved, fd = mute(errfile, &saved), rc = plot_report(rp, dir, NULL);

	unmute(fd, saved);
	return rc;
}

/* Shows what was said on stderr as TAP comments. */
static void diag_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	for (int n = 0; f && n < 20 && fgets(line, sizeof(line), f); n++)
		printf("# %s%s", line, strchr(line, '\n') ? "" : "\n");
	if (f)
		fclose(f);
}

static int only_plots_dir(const char *name)
{
	return !strcmp(name, "plots");
}

static void test_plots(const struct report *rp)
{
	static const char *const timing_plots[] = { "adev.gp", "tscsync.gp" };
	char *dir = xasprintf("%s/plots", base);
	size_t nplots = 0, ntop = 0;
	int gnuplot = !system("command -v gnuplot >/dev/null 2>&1");
	char errfile[] = "/tmp/tp-report-hostile-err.XXXXXX";
	int rc, bad_plots, bad_top;

	/* whatever gnuplot would write by a relative name lands in base, and is seen */
	if (chdir(base))
		perror(base);
	rc = quiet_plot(rp, dir, errfile);
	for (size_t i = 0; i < ARRAY_SIZE(timing_plots); i++) {
		char *path = xasprintf("%s/%s", dir, timing_plots[i]);

		ok(!access(path, R_OK), "%s written from hostile drift and tscsync records",
		   timing_plots[i]);
		free(path);
	}
	bad_plots = sweep(dir, plot_file_ok, &nplots);
	bad_top = sweep(base, only_plots_dir, &ntop);
	if (!ok(rc == 0 || !gnuplot, "plots of hostile names: gnuplot ran without an error"))
		diag_file(errfile);
	unlink(errfile);
	ok(nplots >= 16 && !bad_plots, "every file in DIR is a slug with a counter (%zu files)", nplots);
	ok(!bad_top, "nothing written beside DIR");
	ok(!pwned, "nothing in a record ran: no pwned-* file");
	if (!gnuplot)
		printf("# gnuplot not installed: scripts written, not run (apt-get install gnuplot-nox)\n");
	rmdir(dir);
	free(dir);
}
static int html_file_ok(const char *name)
{
	return !strcmp(name, "index.html") || plot_file_ok(name);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t n = 0;

	if (f) {
		FILE *m = open_memstream(&s, &n);
		int c;

		while ((c = fgetc(f)) != EOF)
			fputc(c, m);
		fclose(m);
		fclose(f);
	}
	return s;
}

/* --html: the page holds every hostile name as text, none as markup. */
static void test_html(const struct report *rp, const struct source *src)
{
	char *dir = xasprintf("%s/html", base), *path = xasprintf("%s/index.html", dir), *page;
	char errfile[] = "/tmp/tp-report-hostile-err.XXXXXX";
	int saved, fd = mute(errfile, &saved), rc = html_report(rp, src, 1, dir, 1);
	size_t nfiles = 0;

	unmute(fd, saved);
	page = slurp(path);
	if (!ok(rc == 0 && page, "--html of hostile names: index.html written"))
		diag_file(errfile);
	unlink(errfile);
	page = page ? page : xstrdup("");
	ok(!strstr(page, "<b>") && strstr(page, "&lt;b&gt;"), "a record's <b> is text, not markup");
	ok(!strstr(page, "x\"; system(") && strstr(page, "x&quot;; system("),
	   "a record's quote cannot end an attribute");
	ok(visible_only(page), "no control character from a record in the page");
	rc = sweep(dir, html_file_ok, &nfiles);
	ok(!rc && !pwned, "only the page and its plots in DIR (%zu files)", nfiles);
	rmdir(dir);
	free(page);
	free(path);
	free(dir);
}

int main(void)
{
	struct source src = { .path = "hostile" };
	struct rec_list recs = { 0 };
	struct report rp = { 0 };
	char *log;

	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	make_hostile();
	log = hostile_log();
	scan_buffer(log, strlen(log), &recs, &src.st);
	is_num((long long)recs.n, 2 * (6 * NHOSTILE + 3), "every hostile record read");
	is_num((long long)scan_corrupt(&src.st), 0, "none damaged");
	report_add_file(&rp, src.path, &recs);
	rec_list_free(&recs);
	report_finish(&rp, NULL, 0);
	ok(rp.nruns == 2, "two runs");
	test_formats(&rp, &src);
	test_plots(&rp);
	test_html(&rp, &src);
	report_free(&rp);
	free(log);
	for (size_t i = 0; i < NHOSTILE; i++)
		free(hostile[i]);
	if (chdir("/") || rmdir(base))
		printf("# %s left behind\n", base);
	return tap_done();
}
