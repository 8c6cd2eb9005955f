// SPDX-License-Identifier: MIT
/* The kernel's log lines about the TSC, one at a time; see tsckmsg.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg.h"
#include "tsckmsg.h"

/* "2893.012" (the kernel's %lu.%03lu) -> 2893012 kHz; -1 if not that form. */
static int64_t parse_mhz3(const char *p)
{
	int64_t mhz = 0, frac = 0;
	int digits = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		mhz = mhz * 10 + (*p - '0');
	if (*p++ != '.')
		return -1;
	for (; isdigit((unsigned char)*p) && digits < 3; p++, digits++)
		frac = frac * 10 + (*p - '0');
	if (digits != 3)
		return -1;
	return mhz * 1000 + frac;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* What follows PREFIX in S, or NULL. */
static const char *after(const char *s, const char *prefix)
{
	return starts(s, prefix) ? s + strlen(prefix) : 0;
}

static void set_reason(struct tsc_kmsg *m, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (n >= sizeof(m->reason))
		n = sizeof(m->reason) - 1;
	memcpy(m->reason, s, n);
	m->reason[n] = 0;
}

/* One figure, ref at khz: a TSC_KMSG_FREQ. */
static enum tsc_kmsg_kind kmsg_figure(struct tsc_kmsg *m, const char *ref, int64_t khz)
{
	m->ref[0] = ref;
	m->khz[0] = khz;
	m->nfreq = 1;
	return TSC_KMSG_FREQ;
}

/* "PIT calibration deviates from HPET: <pit kHz> <ref kHz>" (after the prefix). */
static enum tsc_kmsg_kind kmsg_pit_deviation(const char *q, struct tsc_kmsg *m)
{
	long long a, b;
	char refname[16];

	if (sscanf(q, "%15[A-Z]: %lld %lld", refname, &a, &b) != 3)
		return TSC_KMSG_NOTE;
	m->ref[0] = "pit";
	m->khz[0] = a;
	m->ref[1] = !strcmp(refname, "HPET") ? "hpet" : "pmtimer";
	m->khz[1] = b;
	m->nfreq = 2;
	return TSC_KMSG_FREQ;
}

/* tsc.c's calibration lines (pr_fmt "tsc: "); TSC_KMSG_NONE when s is none. */
static enum tsc_kmsg_kind kmsg_freq(const char *s, struct tsc_kmsg *m)
{
	const char *p, *q;
	int64_t khz;

	if ((q = after(s, "tsc: Detected ")) && (khz = parse_mhz3(q)) >= 0) {
		p = strstr(s, " MHz ");
		/* cpu_khz: equals tsc_khz unless the next line says otherwise */
		if (p && starts(p, " MHz processor"))
			return kmsg_figure(m, "detected", khz);
		/* tsc_khz, printed when it differs from cpu_khz */
		if (p && starts(p, " MHz TSC"))
			return kmsg_figure(m, "detected_tsc", khz);
		return TSC_KMSG_NOTE;
	}
	if ((q = after(s, "tsc: Refined TSC clocksource calibration: ")) &&
	    (khz = parse_mhz3(q)) >= 0) /* tsc_refine_calibration_work(), against HPET/PM timer */
		return kmsg_figure(m, "refined", khz);
	if ((q = after(s, "tsc: PIT calibration deviates from ")))
		return kmsg_pit_deviation(q, m);
	return TSC_KMSG_NONE;
}

/* The kernel giving up on the TSC, or a warp; TSC_KMSG_NONE when s is neither. */
static enum tsc_kmsg_kind kmsg_unstable(const char *s, struct tsc_kmsg *m)
{
	const char *p, *q;

	if ((q = after(s, "tsc: Marking TSC unstable due to "))) {
		set_reason(m, q);
		return TSC_KMSG_UNSTABLE;
	}
	/* clocksource.c's watchdog: "timekeeping watchdog on CPU1: Marking
	 * clocksource 'tsc' as unstable because the skew is too large:" */
	if (starts(s, "clocksource: timekeeping watchdog on CPU") &&
	    strstr(s, "'tsc' as unstable")) {
		set_reason(m, "clocksource watchdog: skew too large");
		return TSC_KMSG_UNSTABLE;
	}
	if (starts(s, "clocksource: timekeeping watchdog on CPU") &&
	    strstr(s, ": tsc read-back delay") && strstr(s, "marking unstable")) {
		set_reason(m, "clocksource watchdog: read-back delay");
		return TSC_KMSG_UNSTABLE;
	}
	/* tsc_sync.c: "Measured %Ld cycles TSC warp between CPUs, turning off TSC clock." */
	if ((p = strstr(s, "Measured ")) && strstr(s, " cycles TSC warp between CPUs")) {
		m->warp_ticks = strtoll(p + 9, 0, 10);
		set_reason(m, s);
		return TSC_KMSG_WARP;
	}
	return TSC_KMSG_NONE;
}

enum tsc_kmsg_kind tsc_kmsg_parse(const char *line, struct tsc_kmsg *m)
{
	const char *s;
	enum tsc_kmsg_kind kind;

	memset(m, 0, sizeof(*m));
	s = kmsg_message(line, &m->usec);
	m->msg = s;
	if (!s)
		return m->kind = TSC_KMSG_NONE;
	kind = kmsg_freq(s, m);
	if (kind == TSC_KMSG_NONE)
		kind = kmsg_unstable(s, m);
	if (kind == TSC_KMSG_NONE && (starts(s, "tsc: ") || strstr(s, "TSC") ||
				      starts(s, "clocksource: Switched to clocksource")))
		kind = TSC_KMSG_NOTE;
	return m->kind = kind;
}
