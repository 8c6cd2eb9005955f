/* SPDX-License-Identifier: MIT */
/* A minimal TAP producer for the tp-report unit tests (prove reads it). */
#ifndef TP_REPORT_TAP_H
#define TP_REPORT_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3)))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	tap_failed += !cond;
	return cond;
}

/* Compares strings and shows both when they differ. */
static int is_str(const char *got, const char *want, const char *name)
{
	int same = got && want ? !strcmp(got, want) : got == want;

	if (!ok(same, "%s", name))
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)", want ? want : "(null)");
	return same;
}

static int is_num(long long got, long long want, const char *name)
{
	if (!ok(got == want, "%s", name))
		printf("#   got:  %lld\n#   want: %lld\n", got, want);
	return got == want;
}

static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
