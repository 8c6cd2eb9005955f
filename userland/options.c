// SPDX-License-Identifier: MIT
/* The option table; see options.h. README's option list mirrors it. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum opt_kind { K_INT, K_BOOL, K_CHOICE, K_INTS, K_NAMES, K_STR, K_I64 };

struct opt_def {
	const char *name;
	enum opt_kind kind;
	size_t off;
	int64_t lo, hi;		/* bounds for ints, each element of int lists */
	const char *choices;	/* K_CHOICE: "a|b|c", index stored as int */
	size_t size;		/* K_STR: buffer size */
	const char *dflt;	/* documentation only: the default in words */
	const char *help;
};

#define O(f) offsetof(struct options, f)

static const struct opt_def opt_table[] = {
	{ "probes", K_NAMES, O(probes), 0, 0, 0, 0, "all", "probes to run, comma-separated (see `timeprobe list`)" },
	{ "profile", K_CHOICE, O(quick), 0, 0, "full|quick", 0, "full", "quick: seconds per probe; full: stable figures" },
	{ "after", K_CHOICE, O(after), 0, 0, "poweroff|reboot|halt", 0, "poweroff", "what the appliance does when the suite ends" },
	{ "repeat", K_INT, O(repeat), 1, 100, 0, 0, "1", "run the suite N times; records carry \"iteration\"" },
	{ "timeout", K_INT, O(timeout_s), 0, 86400, 0, 0, "0 (per probe)", "time limit per probe in seconds; 0: each probe's own" },
	{ "watchdog", K_INT, O(watchdog_s), 0, 604800, 0, 0, "0 (off)", "whole-run limit in seconds, then `after` is done" },
	{ "inject", K_NAMES, O(inject), 0, 0, 0, 0, "none", "fault-injection probes to add: crash,hang,exit" },
	{ "save", K_CHOICE, O(save), 0, 0, "auto|off", 0, "auto", "save the records on the boot partition" },
	{ "hold", K_INT, O(hold_s), -1, 3600, 0, 0, "-1 (0 under QEMU, 30 on hardware)", "seconds to wait before `after`, to read the screen" },
	{ "clocksource-sweep", K_BOOL, O(clocksource_sweep), 0, 1, 0, 0, "on in the appliance, off on a host", "clocks: repeat for every clocksource (root)" },
	{ "itimer-us", K_INTS, O(itimer_us), 1, 10000000, 0, 0, "100000,50000,...,100", "itimer: requested intervals in us" },
	{ "load", K_INT, O(load), -1, 1024, 0, 0, "-1 (0 and 2 x CPUs)", "itimer: CPU-burning processes in the background" },
	{ "wakeup-us", K_INTS, O(wakeup_us), 10, 10000000, 0, 0, "1000,100", "wakeup: periods in us" },
	{ "priority", K_INT, O(priority), -1, 99, 0, 0, "-1 (90 in the appliance, none on a host)", "wakeup: SCHED_FIFO priority, 0 for none" },
	{ "wakeup-cpu", K_INT, O(wakeup_cpu), -1, 4095, 0, 0, "-1 (not pinned)", "wakeup: CPU to pin the measuring thread to" },
	{ "threads", K_INTS, O(threads), 1, 4096, 0, 0, "1,2,CPUs,10,50,450", "yield: thread counts" },
	{ "gnuplot", K_BOOL, O(gnuplot), 0, 1, 0, 0, "0", "yield: also print the seed's gnuplot-ready columns" },
	{ "noise-threshold-ns", K_INT, O(noise_threshold_ns), 10, 1000000000, 0, 0, "1000", "noise: smallest gap counted as an interruption" },
	{ "noise-ms", K_INT, O(noise_ms), 0, 3600000, 0, 0, "0 (profile: 1000 quick, 10000 full)", "noise: spin duration per CPU" },
	{ "calib-rounds", K_INT, O(calib_rounds), 1, 100, 0, 0, "5", "tsc: rounds of the user-space calibration" },
	/* Handed over by the stub; documented in docs/stub.md. */
	{ "tsc_hz", K_I64, O(tsc_hz), 1000000, 100000000000LL, 0, 0, "from the stub", "TSC frequency the stub measured" },
	{ "tsc_ref", K_STR, O(tsc_ref), 0, 0, 0, sizeof(((struct options *)0)->tsc_ref), "from the stub", "reference the stub chose" },
	{ "tsc_calib", K_STR, O(tsc_calib), 0, 0, 0, sizeof(((struct options *)0)->tsc_calib), "from the stub", "per-reference results ref:hz:ppm,..." },
	{ "tsc_early", K_STR, 0 /* read by the stub only */, 0, 0, 0, 0, "on", "stub: off leaves tsc_early_khz= out" },
	{ "bootpart", K_STR, O(bootpart), 0, 0, 0, sizeof(((struct options *)0)->bootpart), "from the stub", "partition to save results on" },
	{ "kconfig", K_STR, O(kconfig), 0, 0, 0, sizeof(((struct options *)0)->kconfig), "from the build", "kernel configuration highlights" },
	{ "accel", K_STR, O(accel), 0, 0, 0, sizeof(((struct options *)0)->accel), "from the launcher", "QEMU accelerator and CPU model (tools/qemu-run.sh, SMBIOS OEM string)" },
	{ "variant", K_STR, O(variant), 0, 0, 0, sizeof(((struct options *)0)->variant), "from the build", "kernel variant name" },
};

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->quick = 0;
	o->after = AFTER_POWEROFF;
	o->repeat = 1;
	o->save = SAVE_AUTO;
	o->hold_s = -1;
	o->clocksource_sweep = -1;
	o->load = -1;
	o->priority = -1;
	o->wakeup_cpu = -1;
	o->noise_threshold_ns = 1000;
	o->calib_rounds = 5;
}

static void fail(struct opt_errors *errs, const char *name, const char *value, const char *reason)
{
	struct opt_error *e;

	if (!errs || errs->n >= OPT_ERRORS_MAX)
		return;
	e = &errs->e[errs->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->value, sizeof(e->value), "%s", value ? value : "");
	snprintf(e->reason, sizeof(e->reason), "%s", reason);
}

/* Parses a decimal integer within bounds; -EINVAL or -ERANGE. */
static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

static int set_one(const struct opt_def *d, struct options *o, const char *value,
		   char *why, size_t whylen)
{
	char *base = (char *)o + d->off;
	int64_t v;
	int rc;

	switch (d->kind) {
	case K_INT:
	case K_I64:
	case K_BOOL:
		if (d->kind == K_BOOL && (!strcmp(value, "on") || !strcmp(value, "yes") || !strcmp(value, "true")))
			value = "1";
		if (d->kind == K_BOOL && (!strcmp(value, "off") || !strcmp(value, "no") || !strcmp(value, "false")))
			value = "0";
		rc = parse_i64(value, d->lo, d->hi, &v);
		if (rc) {
			snprintf(why, whylen, rc == -ERANGE ? "out of range %lld..%lld" : "not a number",
				 (long long)d->lo, (long long)d->hi);
			if (rc != -ERANGE && d->kind == K_BOOL)
				snprintf(why, whylen, "not a boolean (0, 1, on, off)");
			return -1;
		}
		if (d->kind == K_I64)
			*(int64_t *)base = v;
		else
			*(int *)base = (int)v;
		return 0;
	case K_CHOICE: {
		const char *c = d->choices;
		int idx = 0;
		size_t n = strlen(value);

		while (c && *c) {
			const char *bar = strchr(c, '|');
			size_t len = bar ? (size_t)(bar - c) : strlen(c);

			if (len == n && !strncmp(c, value, n)) {
				*(int *)base = idx;
				return 0;
			}
			idx++;
			c = bar ? bar + 1 : 0;
		}
		snprintf(why, whylen, "not one of %s", d->choices);
		return -1;
	}
	case K_INTS: {
		struct int_list tmp = { 0 };
		char buf[512], *save = 0, *tok;

		snprintf(buf, sizeof(buf), "%s", value);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(0, ",", &save)) {
			if (tmp.n >= OPT_LIST_MAX) {
				snprintf(why, whylen, "more than %d values", OPT_LIST_MAX);
				return -1;
			}
			rc = parse_i64(tok, d->lo, d->hi, &v);
			if (rc) {
				snprintf(why, whylen, "'%.20s' is %s", tok,
					 rc == -ERANGE ? "out of range" : "not a number");
				return -1;
			}
			tmp.v[tmp.n++] = v;
		}
		if (!tmp.n) {
			snprintf(why, whylen, "empty list");
			return -1;
		}
		*(struct int_list *)base = tmp;
		return 0;
	}
	case K_NAMES: {
		struct name_list tmp = { 0 };
		char buf[512], *save = 0, *tok;

		snprintf(buf, sizeof(buf), "%s", value);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(0, ",", &save)) {
			if (tmp.n >= OPT_LIST_MAX || strlen(tok) >= sizeof(tmp.v[0])) {
				snprintf(why, whylen, "too many or too long names");
				return -1;
			}
			snprintf(tmp.v[tmp.n++], sizeof(tmp.v[0]), "%s", tok);
		}
		if (!tmp.n) {
			snprintf(why, whylen, "empty list");
			return -1;
		}
		*(struct name_list *)base = tmp;
		return 0;
	}
	case K_STR:
		if (!d->size)
			return 0;	/* read by the stub only */
		if (strlen(value) >= d->size) {
			snprintf(why, whylen, "longer than %zu characters", d->size - 1);
			return -1;
		}
		snprintf(base, d->size, "%s", value);
		return 0;
	}
	return -1;
}

int options_set(struct options *o, const char *name, const char *value, struct opt_errors *errs)
{
	char why[96];

	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++) {
		const struct opt_def *d = &opt_table[i];

		if (strcmp(d->name, name))
			continue;
		if (!value) {
			if (d->kind != K_BOOL) {
				fail(errs, name, "", "needs a value (NAME=VALUE)");
				return -1;
			}
			value = "1";
		}
		if (set_one(d, o, value, why, sizeof(why))) {
			fail(errs, name, value, why);
			return -1;
		}
		return 0;
	}
	fail(errs, name, value, "unknown option");
	return -1;
}

void options_from_cmdline(struct options *o, const char *cmdline, struct opt_errors *errs)
{
	static const char prefix[] = "timeprobe.";
	const char *p = cmdline;

	while (*p) {
		char word[1024];
		size_t n = 0;
		char *eq;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		/* the kernel's own quoting: "a b" inside a word */
		for (int quote = 0; *p && (quote || !isspace((unsigned char)*p)); p++) {
			if (*p == '"') {
				quote = !quote;
				continue;
			}
			if (n + 1 < sizeof(word))
				word[n++] = *p;
		}
		word[n] = 0;
		if (strncmp(word, prefix, sizeof(prefix) - 1))
			continue;
		eq = strchr(word, '=');
		if (eq)
			*eq++ = 0;
		options_set(o, word + sizeof(prefix) - 1, eq, errs);
	}
}

void options_usage(FILE *f)
{
	fprintf(f, "Options (--NAME=VALUE on a host, timeprobe.NAME=VALUE on the kernel command line):\n");
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++) {
		const struct opt_def *d = &opt_table[i];

		if (!strncmp(d->dflt, "from the", 8))
			continue;	/* set by the stub or the build, not by people */
		fprintf(f, "  %-20s %s\n  %-20s default %s", d->name, d->help, "", d->dflt);
		if (d->kind == K_INT || d->kind == K_INTS)
			fprintf(f, ", %lld..%lld", (long long)d->lo, (long long)d->hi);
		if (d->kind == K_CHOICE)
			fprintf(f, ", one of %s", d->choices);
		fputc('\n', f);
	}
}
