// SPDX-License-Identifier: MIT
/*
 * timeprobe: the probe suite. As PID 1 (the appliance's /init) it prepares
 * the system, runs the suite, saves the records and powers off; on a host it
 * is a command: `timeprobe run|list|report|help`.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/announce.h"
#include "../common/words.h"
#include "boottime.h"
#include "emit.h"
#include "options.h"
#include "smbios.h"
#include "stubread.h"
#include "../common/stubfile.h"
#include "probe.h"
#include "save.h"
#include "selection.h"
#include "sink.h"
#include "suite.h"
#include "sysinfo.h"
#include "textfile.h"
#include "upload.h"
#include "omverdict.h"
#include "http.h"
#include "usage.h"

#ifndef SYSLOG_ACTION_CONSOLE_LEVEL
#define SYSLOG_ACTION_CONSOLE_LEVEL 8	/* man 2 syslog */
#endif

/*
 * NAME=VALUE for every probe option whose default differs between the
 * appliance and a host: the value both sides of a comparison take
 * (tools/compare.sh), its row's compare() or the host's default.
 */
static int list_compare(void)
{
	for (size_t i = 0; i < probe_count; i++)
		for (size_t k = 0; k < probe_table[i]->n_opts; k++) {
			const struct probe_opt *po = &probe_table[i]->opts[k];

			if (po->by_env)
				printf("%s=%lld\n", po->w.name,
				       (long long)(po->compare ? po->compare() : po->env_def[OPT_ENV_HOST]));
		}
	return 0;
}

/* The probes; with --figures, each with the figures it promises (the boot
 * tests read it); --compare: list_compare(). */
static int cmd_list(int argc, char **argv)
{
	int figures = argc > 2 && !strcmp(argv[2], "--figures");

	if (argc > 2 && !strcmp(argv[2], "--compare"))
		return list_compare();
	if (argc > 2 && !figures) {
		fprintf(stderr, "timeprobe: list: unknown argument '%s' (--figures or --compare)\n", argv[2]);
		return 2;
	}
	int width = 0;

	for (size_t i = 0; i < probe_count; i++)
		if (!probe_table[i]->inject && (int)strlen(probe_table[i]->name) > width)
			width = (int)strlen(probe_table[i]->name);
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];

		if (p->inject)
			continue;
		if (!figures) {
			printf("%-*s  %s\n", width, p->name, p->summary);
			continue;
		}
		printf("%s", p->name);
		for (const char *const *f = p->figures; f && *f; f++)
			printf("%s%s", f == p->figures ? " " : ",", *f);
		putchar('\n');
	}
	return 0;
}

/* `timeprobe report` is tp-report, a host tool built with jansson. */
static int cmd_report(char **argv, const char *self)
{
	char path[4096];

	textfile_report_path(self, path, sizeof(path));
	argv[0] = path;
	execv(path, argv);
	execvp("tp-report", argv);
	fprintf(stderr, "timeprobe: report: cannot run %s: %s (build it with `make report`)\n",
		path, strerror(errno));
	return 127;
}

/*
 * A new file for the records, never one that exists: NAME, or else
 * timeprobe-YYYYMMDD-HHMMSS.tp1 in the current folder (-2, -3, ... added
 * when taken). Its descriptor, the name in path; -1 with a message.
 */
static int open_records(const char *name, char *path, size_t n)
{
	time_t now = time(0);
	struct tm tm;
	char base[64];
	int fd = -1;

	if (name) {
		snprintf(path, n, "%s", name);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	} else {
		strftime(base, sizeof(base), "timeprobe-%Y%m%d-%H%M%S", localtime_r(&now, &tm));
		for (int i = 1; i < 100 && fd < 0; i++) {
			snprintf(path, n, i > 1 ? "%s-%d.tp1" : "%s.tp1", base, i);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0 && errno != EEXIST)
				break;
		}
	}
	if (fd < 0)
		fprintf(stderr, "timeprobe: run: --records: cannot create '%s': %s%s\n", path, strerror(errno),
			errno == EEXIST ? " (a records file is never replaced)" : "");
	return fd;
}

/*
 * Where a host run's output goes (README, "Under a full OS"). stdout a
 * terminal: the human lines and progress there, the records in a file
 * (--records=FILE, or a new name said at the end). stdout not a terminal
 * (a file, a pipe): everything as the appliance's serial log has it, human
 * lines and records, and progress on stderr (in place when that is a
 * terminal); --records=FILE writes the records there too.
 */
static int records_fd = -1;	/* the records file, once route_output() opened it */

static int route_output(const char *records, char *path, size_t n)
{
	int fd = 1;

	sink_set_outputs(&fd, 1, 1);	/* stdout is the result: a write error ends the run */
	path[0] = 0;
	if (isatty(1) || records) {
		int rfd = open_records(records, path, n);

		if (rfd < 0)
			return -1;
		sink_add_output(rfd, SINK_RECORDS);
		records_fd = rfd;
	}
	if (isatty(1)) {
		sink_set_output_kinds(1, SINK_HUMAN);
		sink_set_progress(1, 1);
	} else {
		sink_set_progress(2, isatty(2));
	}
	return 0;
}

/* The whole of a file, malloc'd (NULL with a line on stderr). */
static char *read_whole(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	char *buf = 0;
	long n;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else {
		fprintf(stderr, "timeprobe: run: cannot read %s: %s\n", file, strerror(errno));
		free(buf);
		buf = 0;
	}
	if (f)
		fclose(f);
	return buf;
}

/*
 * --upload and --push after a host run: the records file as it is when the
 * run ended (the `upload` records then go to stdout only, never into the
 * file they report on); the figures from tp-report's textfile, the one
 * OpenMetrics writer (--openmetrics's FILE, or a scratch one). 0: all sent.
 */
static int host_send(const struct options *o, const char *self, const char *records,
		     const char *openmetrics)
{
	char tmp[4200];
	size_t len = 0, tlen = 0;
	char *data = read_whole(records, &len), *text;
	int bad = !data;

	if (records_fd >= 0)
		sink_set_output_kinds(records_fd, 0);
	if (data && o->upload[0])
		bad |= upload_results(o->upload, data, len) != 0;
	if (data && o->push[0]) {
		snprintf(tmp, sizeof(tmp), "%s.prom", records);
		if (!openmetrics && textfile_write(self, records, tmp))
			bad = 1;
		else if ((text = read_whole(openmetrics ? openmetrics : tmp, &tlen))) {
			bad |= upload_push(o->push, data, len, text, tlen) != 0;
			free(text);
		}
		if (!openmetrics)
			unlink(tmp);
	}
	free(data);
	return bad;
}

/* self: how this program was started (argv[0]), for the closing hint. */
static int cmd_run(int argc, char **argv, const char *self)
{
	struct options o;
	static const struct stub_handoff no_stub;	/* a host run reads no stub file */
	struct opt_errors errs = { 0 };
	struct suite_result res = { 0 };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	const char *bad, *which, *records = 0, *openmetrics = 0;
	char cmdline[4096], path[4096], scratch[4200] = "";
	int rc;

	options_defaults(&o);
	if (sysinfo_read_text("/proc/cmdline", cmdline, sizeof(cmdline)) > 0)
		options_from_kernel(&o, cmdline, &errs);
	for (int i = 0; i < argc; i++) {
		char name[64], *eq;
		const char *a = argv[i];

		if (strncmp(a, "--", 2)) {
			fprintf(stderr, "timeprobe: run: unexpected argument '%s' (options are --NAME=VALUE)\n", a);
			return 2;
		}
		snprintf(name, sizeof(name), "%s", a + 2);
		eq = strchr(name, '=');
		if (eq)
			*eq = 0;
		if (!strcmp(name, "help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(name, "records") && eq && eq[1]) {
			records = strchr(a, '=') + 1;
			continue;
		}
		if (!strcmp(name, "openmetrics") && eq && eq[1]) {
			openmetrics = strchr(a, '=') + 1;
			continue;
		}
		if (options_set(&o, name, strchr(a, '=') ? strchr(a, '=') + 1 : 0, &errs)) {
			const struct opt_error *e = &errs.e[errs.n - 1];

			fprintf(stderr, "timeprobe: run: --%s%s%s: %s\n", e->name,
				e->value[0] ? "=" : "", e->value, e->reason);
			return 2;
		}
	}
	if ((bad = selection_unknown(&o, &which))) {
		char why[96];

		fprintf(stderr, "timeprobe: run: --%s=%s: %s\n", which, bad,
			selection_why(which, bad, why, sizeof(why)));
		return 2;
	}
	options_resolve(&o, OPT_ENV_HOST);
	/* --openmetrics needs the records in a file: a scratch one unless --records */
	if ((openmetrics || o.upload[0] || o.push[0]) && !records) {
		textfile_records_name(openmetrics ? openmetrics : "timeprobe", scratch, sizeof(scratch));
		records = scratch;
	}
	/* stdout is the result: a write error there ends the run (exit 1) */
	sigaction(SIGPIPE, &ign, 0);
	if (route_output(records, path, sizeof(path)))
		return 2;
	suite_catch_signals();
	rc = suite_run(&o, &no_stub, &errs, 0, "os", &res);
	if (openmetrics && textfile_write(self, path, openmetrics))
		return rc ? rc : 1;
	if ((o.upload[0] || o.push[0]) && host_send(&o, self, path, openmetrics) && !rc)
		rc = 1;
	if (scratch[0] && !unlink(path))
		path[0] = 0;
	if (path[0])
		fprintf(isatty(1) ? stdout : stderr,
			"timeprobe: records in %s (read them with `%s report %s`)\n", path, self, path);
	return rc;
}

/* 1 with one line on stderr when URL (its form already checked) names a host that does not resolve here. */
static int check_host(const char *word, const char *url)
{
	struct tp_url u;
	const char *why;

	if (!url[0] || tp_url_parse(url, strlen(url), &u) || !(why = http_resolve_check(u.host)))
		return 0;
	fprintf(stderr, "timeprobe: %s%s=%s: %s\n", TP_WORD_PREFIX, word, url, why);
	return 1;
}

/*
 * `timeprobe check-words LINE...`: the timeprobe.* words of a kernel command
 * line (cmdline.txt and make's APPEND=) checked as the appliance will read
 * them, before an image is made (tools/cmdline-flatten.sh). Each refused
 * word in one line on stderr; 2 when any was refused, else 0 (an old
 * spelling is said and taken).
 */
static int cmd_check_words(int argc, char **argv)
{
	struct options o;
	struct opt_errors errs = { 0 };
	const char *bad, *which;
	int refused = 0;

	options_defaults(&o);
	for (int i = 0; i < argc; i++)
		options_from_cmdline(&o, argv[i], &errs);
	for (size_t i = 0; i < errs.n; i++) {
		const struct opt_error *e = &errs.e[i];

		fprintf(stderr, "timeprobe: %s%s=%s: %s%s\n", e->as_typed ? "" : TP_WORD_PREFIX,
			e->name, e->value, e->reason, e->taken ? " (taken)" : "");
		refused += !e->taken;
	}
	if ((bad = selection_unknown(&o, &which))) {
		char why[96];

		fprintf(stderr, "timeprobe: %s%s=%s: %s\n", TP_WORD_PREFIX, which, bad,
			selection_why(which, bad, why, sizeof(why)));
		refused++;
	}
	refused += check_host("upload", o.upload) + check_host("push", o.push);
	return refused ? 2 : 0;
}

/* `timeprobe upload URL FILE`: a saved results file, as --upload sends one. */
static int cmd_upload(int argc, char **argv)
{
	struct tp_url u;
	const char *why;
	size_t len;
	char *data;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "timeprobe: upload: give a URL and a file (timeprobe upload --help)\n");
		return 2;
	}
	if ((why = tp_url_parse(argv[0], strlen(argv[0]), &u))) {
		fprintf(stderr, "timeprobe: upload: %s: %s\n", argv[0], why);
		return 2;
	}
	if (!(data = read_whole(argv[1], &len)))
		return 2;
	sink_set_outputs((int[]){ 1 }, 1, 0);
	rc = upload_results(argv[0], data, len) ? 1 : 0;
	free(data);
	return rc;
}

/* ---- PID 1 ---- */

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, MS_NOSUID | MS_NOEXEC, 0) && errno != EBUSY)
		fprintf(stderr, "timeprobe: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Every console the kernel writes to (serial and screen): /sys/class/tty/console/active. */
static void open_consoles(void)
{
	char active[256], *save = 0;
	int fds[4];
	size_t n = 0;

	if (sysinfo_read_text("/sys/class/tty/console/active", active, sizeof(active)) > 0) {
		for (char *t = strtok_r(active, " ", &save); t && n < 4; t = strtok_r(0, " ", &save)) {
			char path[64];
			int fd;

			snprintf(path, sizeof(path), "/dev/%s", t);
			fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			if (fd >= 0)
				fds[n++] = fd;
		}
	}
	sink_set_outputs(fds, n, 0);
}

static void do_after(enum after a)
{
	static const int how[] = {
		[AFTER_POWEROFF] = RB_POWER_OFF,
		[AFTER_REBOOT] = RB_AUTOBOOT,
		[AFTER_HALT] = RB_HALT_SYSTEM,
	};

	sync();
	reboot(how[a]);
	/* reboot() returned: nothing more PID 1 can do but stay alive. */
	fprintf(stderr, "timeprobe: reboot(%d) failed: %s; halting here\n", how[a], strerror(errno));
	for (;;)
		pause();
}

/*
 * With tsc_early_khz= the kernel starts on "tsc-early" and replaces it by
 * "tsc" once its refined calibration ends, a second or more after boot
 * (longer under QEMU TCG). Measure the settled clocksource, not that switch:
 * wait for it, a bounded time.
 */
static void wait_for_settled_clocksource(void)
{
	char cs[64];

	for (int i = 0; i < 100; i++) {
		if (sysinfo_current_clocksource(cs, sizeof(cs)) <= 0 || strcmp(cs, "tsc-early"))
			return;
		usleep(100000);
	}
}

/*
 * Words a host handed over as SMBIOS OEM strings (smbios.h), applied after
 * the kernel command line's. The table is a few KiB; a larger one is cut and
 * its last structures ignored.
 */
static void options_from_smbios(struct options *o, struct opt_errors *errs)
{
	static unsigned char tbl[65536];
	char words[1024];
	ssize_t n = 0, r;
	int fd = open("/sys/firmware/dmi/tables/DMI", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (n < (ssize_t)sizeof(tbl) && (r = read(fd, tbl + n, sizeof(tbl) - (size_t)n)) > 0)
		n += r;
	close(fd);
	if (smbios_oem_words(tbl, (size_t)n, words, sizeof(words)) != 0)
		options_from_launcher(o, words, errs);
}

/* timeprobe.hold: the last screen stays up for a person to read, announced
 * to the launcher's watcher (common/announce.h) as a silent phase. */
static void hold(const struct options *o)
{
	char what[64], line[128];
	struct tp_buf b;

	if (o->hold_s <= 0)
		return;
	snprintf(what, sizeof(what), "done; holding this screen, then %s",
		 o->after == AFTER_REBOOT ? "rebooting" : o->after == AFTER_HALT ? "halting" : "powering off");
	tp_buf_init(&b, line, sizeof(line));
	tp_announce(&b, what, (uint64_t)o->hold_s);
	sink_human("timeprobe: %s\n", line);
	sleep((unsigned)o->hold_s);
}

/*
 * timeprobe.upload= and timeprobe.push= after the results are saved (the
 * `net` kernel, docs/lab.md). The kernel's DHCP (ip=dhcp) lists the DNS
 * servers in /proc/net/pnp, in resolv.conf's form: musl reads it there.
 */
static void appliance_send(const struct options *o)
{
	size_t len;
	const char *saved = sink_saved(&len);

	if (!o->upload[0] && !o->push[0])
		return;
	mkdir("/etc", 0755);
	if (symlink("/proc/net/pnp", "/etc/resolv.conf") && errno != EEXIST)
		sink_human("timeprobe: /etc/resolv.conf: %s\n", strerror(errno));
	if (o->upload[0])
		upload_results(o->upload, saved, len);
	if (o->push[0]) {
		static char text[8192];
		size_t tlen;

		saved = sink_saved(&len);	/* the upload's record may have moved it */
		tlen = omverdict_text(saved, len, text, sizeof(text));

		upload_push(o->push, saved, len, text, tlen);
	}
}

static int pid1(void)
{
	struct options o;
	struct opt_errors errs = { 0 };
	struct suite_result res = { 0 };
	static struct stub_handoff stub;	/* the stub's figures, read once */
	struct stubfile_report rep;
	char cmdline[4096];
	struct sigaction sa = { .sa_handler = SIG_IGN };

	/* A PID 1 that dies panics the kernel: ignore what could kill it. */
	sigaction(SIGINT, &sa, 0);
	sigaction(SIGTERM, &sa, 0);
	sigaction(SIGHUP, &sa, 0);
	sigaction(SIGPIPE, &sa, 0);
	sigaction(SIGTSTP, &sa, 0);
	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	/* the stub's digest variable, checked before its file is taken (stubtrust.h) */
	mount_one("efivarfs", TP_EFIVARFS, "efivarfs");
	mount_one("devtmpfs", "/dev", "devtmpfs");
	mount_one("tmpfs", "/tmp", "tmpfs");
	setvbuf(stdout, 0, _IOLBF, 0);
	open_consoles();
	/*
	 * Kernel messages share the serial line with our records, and a printk
	 * landing in the middle of a record line corrupts it (seen: the clocks
	 * probe's clocksource switch). During the suite only errors and worse
	 * reach the console (level < 4, KERN_WARNING and up stay in the log
	 * that the tsc probe reads).
	 */
	klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, 0, 4);

	options_defaults(&o);
	sysinfo_read_text("/proc/cmdline", cmdline, sizeof(cmdline));
	options_from_cmdline(&o, cmdline, &errs);
	stubfile_read(&stub, &errs, &rep);
	if (rep.found)
		sink_human("timeprobe: %u records of the stub taken from " TP_STUB_FILE_PATH
			   " (%u lines refused, %u values)\n", rep.records, rep.refused, rep.values);
	options_from_smbios(&o, &errs);
	options_resolve(&o, OPT_ENV_APPLIANCE);

	wait_for_settled_clocksource();
	suite_run(&o, &stub, &errs, 1, "appliance", &res);
	boottime_emit(&stub);
	save_results(&o, &stub);
	appliance_send(&o);
	hold(&o);
	/* reap anything left */
	while (waitpid(-1, 0, WNOHANG) > 0)
		;
	do_after(o.after);
	return 0;
}

/*
 * Descriptors 0-2 that were closed are opened on /dev/null before anything
 * else, so no pipe or file takes their number (a result pipe on fd 1 would
 * receive our own output). A closed stdout gets a read-only one: writing the
 * records there fails, and the run says so instead of losing them quietly.
 */
static void valid_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		nfd = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
		if (nfd >= 0 && nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
	}
}

int main(int argc, char **argv)
{
	int rc;

	boottime_mark_pid1();	/* first: the boot timeline's PID 1 */
	valid_std_fds();
	setvbuf(stdout, 0, _IOLBF, 0);
	if (getpid() == 1)
		return pid1();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (usage_asked(argc, argv, &rc))
		return rc;
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2, argv[0]);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc, argv);
	if (!strcmp(argv[1], "check-words"))
		return cmd_check_words(argc - 2, argv + 2);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argv + 1, argv[0]);
	if (!strcmp(argv[1], "upload"))
		return cmd_upload(argc - 2, argv + 2);
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		/* README's tables come from here (tests/host/readme-options.t) */
		if (argc > 2 && !strcmp(argv[2], "markdown"))
			options_markdown(stdout);
		else
			usage(stdout);
		return 0;
	}
	fprintf(stderr, "timeprobe: unknown command '%s' (try `timeprobe --help`)\n", argv[1]);
	return 2;
}
