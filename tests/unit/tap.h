/* SPDX-License-Identifier: MIT */
/*
 * The TAP producer of every C test (tests/unit, tests/report), run by prove.
 * Shell scripts have tests/lib/tap.sh.
 */
#ifndef TP_TAP_H
#define TP_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, name) tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, name)
#define is_str(got, want, name) tap_is_str((got), (want), __FILE__, __LINE__, name)
#define is_num(got, want, name) is_int(got, want, name)
#define is_near(got, want, tol, name) tap_is_near((double)(got), (double)(want), (double)(tol), __FILE__, __LINE__, name)

static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#include <stdarg.h>
static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return pass;
}

static inline int tap_is_int(long long got, long long want, const char *file, int line, const char *name)
{
	int pass = tap_ok(got == want, file, line, "%s", name);

	if (!pass)
		printf("#   got %lld, want %lld\n", got, want);
	return pass;
}

static inline int tap_is_str(const char *got, const char *want, const char *file, int line, const char *name)
{
	int pass = tap_ok(got && want && !strcmp(got, want), file, line, "%s", name);

	if (!pass)
		printf("#   got  '%s'\n#   want '%s'\n", got ? got : "(null)", want ? want : "(null)");
	return pass;
}

static inline int tap_is_near(double got, double want, double tol, const char *file, int line, const char *name)
{
	int pass = tap_ok(fabs(got - want) <= tol, file, line, "%s", name);

	if (!pass)
		printf("#   got %.9g, want %.9g +- %.3g\n", got, want, tol);
	return pass;
}

/* The whole test skipped, with why (TAP's "1..0 # SKIP why"). */
static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
