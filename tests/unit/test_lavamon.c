// SPDX-License-Identifier: MIT
/*
 * LAVA monitor lines (userland/lavamon.c): a result record of a real
 * probe gives one TPM line per declared figure with a number, its unit
 * declared; identity keys go into the case; nothing else does (budgets,
 * context, null, a nested object's keys, a key the probe does not
 * declare); a bad CRC, another record type, an unknown probe and a
 * hostile name give no line or a clean one.
 */
#include <string.h>

#include "tap.h"
#include "../../common/record.h"
#include "../../userland/lavamon.h"

static char got[4096];
static size_t nlines;

static void put(const char *line, size_t len)
{
	if (strlen(got) + len < sizeof(got))
		strncat(got, line, len);
	nlines++;
}

static size_t lines_of(const char *line)
{
	got[0] = 0;
	nlines = 0;
	return lavamon_lines(line, strlen(line), put);
}

/* A yield result as the probe writes it, with extras that must not become lines. */
static const char *yield_record(const char *name)
{
	static struct tp_rec r;

	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", "yield");
	tp_rec_str(&r, "name", name);
	tp_rec_int(&r, "threads", 4);			/* identity */
	tp_rec_number(&r, "total_per_s", "1.5e6");	/* figure, 1/s */
	tp_rec_number(&r, "ns_per_yield", "640.5");	/* figure, ns */
	tp_rec_null(&r, "avg_per_thread_per_s");	/* figure, but null */
	tp_rec_obj_begin(&r, "nested");
	tp_rec_number(&r, "late_threads", "7");		/* a figure's name, not top-level */
	tp_rec_obj_end(&r);
	tp_rec_number(&r, "not_declared", "1");
	return tp_rec_finish(&r);
}

int main(void)
{
	const char *line = yield_record("4 threads");
	char bad[TP_REC_LINE_MAX + 2];

	ok(line, "the record is built");
	is_int(lines_of(line), 2, "two declared figures with a number: two lines");
	ok(strstr(got, "TPM yield.4_threads.total_per_s 1.5e6 1/s\n") != NULL,
	   "total_per_s with its value as written and its unit");
	ok(strstr(got, "TPM yield.4_threads.ns_per_yield 640.5 ns\n") != NULL, "ns_per_yield in ns");
	ok(!strstr(got, "late_threads") && !strstr(got, "not_declared") && !strstr(got, "avg_per"),
	   "no line for a nested key, an undeclared key or a null");

	char hostile[1200] = "a \"quoted\"\n#name\x1b[2J and a long tail";
	char *second;

	while (strlen(hostile) < sizeof(hostile) - 8)
		strcat(hostile, " and on");
	line = yield_record(hostile);
	ok(lines_of(line) == 2, "a hostile name of %zu bytes: still one line per figure",
	   strlen(hostile));
	ok(strspn(got, "TPM abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/\n")
	   == strlen(got), "only [A-Za-z0-9._-] in the case, nothing but the line's own text");
	second = strchr(got, '\n');
	ok(second && second - got < LAVAMON_LINE_MAX && strlen(second + 1) < LAVAMON_LINE_MAX &&
	   !strncmp(second - 4, " 1/s", 4) && !strcmp(got + strlen(got) - 4, " ns\n"),
	   "the case is cut; each line fits and still ends in its value and unit");
	ok(strstr(got, ".total_per_s 1.5e6 1/s\n") && strstr(got, ".ns_per_yield 640.5 ns\n"),
	   "the cut is in the result's name: each case still ends in its own key");

	strcpy(bad, yield_record("x"));
	bad[strlen(bad) - 2] ^= 1;	/* the CRC's last digit */
	is_int(lines_of(bad), 0, "a record with a bad CRC: no line");
	is_int(lines_of("TPM yield.x.total_per_s 1 1/s\n"), 0, "a TPM line itself: no line");

	{
		struct tp_rec r;

		tp_rec_begin(&r, "skip");
		tp_rec_str(&r, "probe", "yield");
		tp_rec_number(&r, "total_per_s", "1");
		is_int(lines_of(tp_rec_finish(&r)), 0, "a skip record: no line");
		tp_rec_begin(&r, "result");
		tp_rec_str(&r, "probe", "no-such-probe");
		tp_rec_number(&r, "total_per_s", "1");
		is_int(lines_of(tp_rec_finish(&r)), 0, "a probe the registry does not know: no line");
	}
	return tap_done();
}
