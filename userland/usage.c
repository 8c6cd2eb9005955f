// SPDX-License-Identifier: MIT
/*
 * The text of timeprobe's command line: one row per command (its synopsis,
 * what it does, its exit statuses), printed alone by `timeprobe CMD --help`
 * and all together by `timeprobe help`, from which the man page is made
 * (tools/help2man.sh); `--version`, the version the build baked in
 * (tools/version.sh).
 */
#include <string.h>

#include "options.h"
#include "usage.h"

#ifndef TP_VERSION
#define TP_VERSION "unknown"	/* a build without $(B)/version.h: the unit tests' library */
#endif

struct command {
	const char *name;
	const char *synopsis;	/* after "usage: " (the first line) or its indent */
	const char *text;
	const char *exits;	/* "N: when" lines, each indented by two */
	void (*more)(FILE *f);	/* run: the options */
};

static const struct command commands[] = {
	{ "run",
	  "timeprobe run [--probes=a,b] [--profile=quick|full] [--records=FILE]\n"
	  "                     [--openmetrics=FILE] [--OPTION=VALUE...]\n",
	  "Output of run: on a terminal, tables and progress there and the records in a\n"
	  "new file (--records=FILE, or timeprobe-DATE-TIME.tp1 here, named at the end);\n"
	  "redirected (> FILE, a pipe), tables and records on stdout, progress on stderr.\n"
	  "--openmetrics=FILE: then the figures as OpenMetrics in FILE, for node_exporter's\n"
	  "textfile collector (written by tp-report, renamed into place; docs/fleet.md).\n\n"
	  "How long (each run prints its estimate first; measured on 2 CPUs shared with\n"
	  "other work, `time timeprobe run --profile=P > x.log` and `make run PROFILE=P`):\n"
	  "  profile quick: host 0:22-0:28, appliance under QEMU TCG 0:36\n"
	  "  profile full:  host 8:45, appliance under QEMU TCG 19:51\n",
	  "  0: every probe ran\n"
	  "  1: a probe failed, or the records or the --openmetrics file could not be written\n"
	  "  2: bad usage (one line on stderr names the option and the value)\n",
	  options_usage },
	{ "list", "timeprobe list [--figures|--compare]\n",
	  "The probes, one a line with what it measures; --figures: each with the figures\n"
	  "it promises; --compare: NAME=VALUE of each probe option whose default differs\n"
	  "between the appliance and a host (the value both sides of make compare take).\n",
	  "  0: listed\n  2: bad usage\n", 0 },
	{ "report",
	  "timeprobe report FILE...\n"
	  "                        [--format=text|markdown|csv|json|kcidb|ktap|junit|pts|openmetrics]\n"
	  "                        [--plot=DIR] [--label=A,B] | --fleet FILES|DIR [--place=RUN]\n"
	  "                        | --history FILES|DIR [--machine=ID]\n",
	  "tp-report, found beside timeprobe (else on PATH), with these arguments:\n"
	  "`timeprobe report --help` is its help, tp-report(1).\n",
	  "  tp-report's own; 127: tp-report could not be started\n", 0 },
	{ "check-words", "timeprobe check-words 'KERNEL LINE WORDS...'\n",
	  "The timeprobe.* words of a kernel command line (cmdline.txt, make's APPEND=)\n"
	  "checked as the appliance will read them: each refused word on one line on\n"
	  "stderr, with the reason; an old spelling is said and taken.\n",
	  "  0: every word taken\n  2: a word refused\n", 0 },
	{ "help", "timeprobe help [markdown]\n",
	  "This text; markdown: README's options tables, printed from the same table.\n",
	  "  0: printed\n", 0 },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void exits(FILE *f, const struct command *c)
{
	fprintf(f, "Exit status of timeprobe %s:\n%s", c->name, c->exits);
}

static void command_help(FILE *f, const struct command *c)
{
	fprintf(f, "usage: %s\n%s", c->synopsis, c->text);
	if (c->more) {
		fputc('\n', f);
		c->more(f);
	}
	fputc('\n', f);
	exits(f, c);
}

void usage(FILE *f)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "%s%s", i ? "       " : "usage: ", commands[i].synopsis);
	fprintf(f, "       timeprobe --version\n\n"
		"Each command takes -h or --help: its own text.\n\n%s\n", commands[0].text);
	options_usage(f);
	for (size_t i = 0; i < N_COMMANDS; i++) {
		fputc('\n', f);
		exits(f, &commands[i]);
	}
}

static int is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

int usage_asked(int argc, char **argv, int *rc)
{
	*rc = 0;
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("timeprobe %s\n", TP_VERSION);
		return 1;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name) || !strcmp(argv[1], "report"))
			continue;
		for (int k = 2; k < argc; k++)
			if (is_help(argv[k])) {
				command_help(stdout, &commands[i]);
				return 1;
			}
	}
	return 0;
}
