// SPDX-License-Identifier: MIT
/* Unit tests of tools/report/scan.c: tricky serial lines, CRC, joining. TAP. */
#include <stdlib.h>
#include <string.h>

#include "../../common/record.h"
#include "../../tools/report/scan.h"
#include "../../tools/report/util.h"
#include "../unit/tap.h"

/* A real record line from the one emitter, without its newline. */
static char *record(const char *probe, const char *name, double ns)
{
	static struct tp_rec r;
	const char *line;
	char *s;

	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", probe);
	tp_rec_str(&r, "name", name);
	tp_rec_fixed(&r, "ns_per_call", (int64_t)(ns * 10), 1);
	line = tp_rec_finish(&r);
	s = xstrdup(line);
	s[strlen(s) - 1] = 0;
	return s;
}

struct scan_case {
	const char *what;
	size_t records, bad_crc, cut, unparsable, joined, damaged_tag;
};

static void drop(void *ctx, const struct rec *r)
{
	(void)ctx;
	json_decref(r->obj);
}

/* The log fed one byte at a time counts what it counts in one piece. */
static int same_in_bytes(const char *log, size_t len, const struct scan_stats *whole)
{
	struct scan_stats st = { 0 };
	struct scanner *sc = scan_open(drop, NULL, &st);

	for (size_t i = 0; i < len; i++)
		scan_feed(sc, log + i, 1);
	scan_close(sc);
	return st.lines == whole->lines && st.records == whole->records &&
	       st.joined == whole->joined && st.bad_crc == whole->bad_crc &&
	       st.too_long == whole->too_long && st.cut == whole->cut &&
	       st.unparsable == whole->unparsable && st.damaged_tag == whole->damaged_tag &&
	       st.long_lines == whole->long_lines;
}

static void check_n(const struct scan_case *c, const char *log, size_t len)
{
	struct rec_list l = { 0 };
	struct scan_stats st = { 0 };
	int good;

	scan_buffer(log, len, &l, &st);
	good = same_in_bytes(log, len, &st) &&
	       st.records == c->records && st.bad_crc == c->bad_crc && st.cut == c->cut &&
	       st.unparsable == c->unparsable && st.joined == c->joined && l.n == c->records &&
	       st.damaged_tag == c->damaged_tag;
	if (!ok(good, "scan: %s", c->what))
		printf("#   records %zu bad_crc %zu cut %zu unparsable %zu joined %zu damaged_tag %zu\n",
		       st.records, st.bad_crc, st.cut, st.unparsable, st.joined, st.damaged_tag);
	rec_list_free(&l);
}

static void check(const struct scan_case *c, const char *log)
{
	check_n(c, log, strlen(log));
}

static void test_clean(void)
{
	static const struct {
		const char *in, *out, *what;
	} cases[] = {
		{ "\x1b[0mTP1 {\x1b[2J}", "TP1 {}", "CSI sequences removed" },
		{ "\x1b[01;01H\x1b[=3hBds", "Bds", "cursor moves and private modes removed" },
		{ "\x1b]0;timeprobe\x07" "abc", "abc", "OSC ended by BEL removed" },
		{ "\x1b]2;t\x1b\\abc", "abc", "OSC ended by ST removed" },
		{ "\x1b(Bx\x1b" "7y", "xy", "charset and two-byte escapes removed" },
		{ "line\r", "line", "CR removed" },
		{ "a\x00\x01" "b\tc", "ab\tc", "controls removed, TAB kept" },
		{ "abc\x1b[", "abc", "escape cut at end of line" },
		{ "\xfe\xf8\x80", "\xfe\xf8\x80", "high bytes kept (a record with them fails its CRC)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[128];
		size_t n = strlen(cases[i].in);

		/* "a\0\1b" holds a NUL: measure it by hand */
		if (i == 6)
			n = 7;
		memcpy(buf, cases[i].in, n);
		buf[scan_clean_line(buf, n)] = 0;
		is_str(buf, cases[i].out, cases[i].what);
	}
}

static void test_stamp_and_find(void)
{
	const char *s = "[    1.234567] foo TP1 {x";

	ok(scan_is_kernel_stamp("[    0.123456] x", 16), "kernel stamp with padding");
	ok(scan_is_kernel_stamp("[12.3]", 6), "kernel stamp without padding");
	ok(!scan_is_kernel_stamp("[abc] x", 7), "not a stamp: letters");
	ok(!scan_is_kernel_stamp("[1.] x", 6), "not a stamp: no fraction");
	ok(scan_find_record(s, strlen(s)) == s + 19, "TP1 { found mid-line");
	ok(!scan_find_record("TP1 x TP1", 9), "TP1 without a brace is not a record");
	ok(!scan_find_record("TP1 ", 4), "short line");
}

static void test_crc(void)
{
	char *line = record("clocks", "c", 21.5);
	const char *json;
	long n;

	is_num(tp_crc32(0, "123456789", 9), 0xcbf43926, "CRC-32 check value (zlib's)");
	n = tp_rec_check(line, strlen(line), &json);
	ok(n > 0 && json == line + 4, "emitted record passes its check");
	line[10] ^= 1;
	ok(tp_rec_check(line, strlen(line), &json) == -1, "a flipped bit fails the check");
	free(line);
}

static void test_scan(void)
{
	char *a = record("clocks", "clock_gettime(CLOCK_MONOTONIC)", 21.5);
	char *b = record("itimer", "ITIMER_REAL 10000us", 10004.2);
	char *bad = xstrdup(a), *log;
	size_t half = strlen(a) / 2;

	bad[20] ^= 4;
#define CASE(what, ...) &(struct scan_case){ what, __VA_ARGS__ }
	log = xasprintf("%s\n%s\n", a, b);
	check(CASE("two clean lines", .records = 2), log);
	free(log);
	log = xasprintf("\x1b[1;1H\x1b[0m%s\r\n@@%s\r\n", a, b);
	/* the NULs a UART prints while it settles */
	*strchr(log, '@') = 0;
	*strchr(log + strlen(log) + 1, '@') = 0;
	check_n(CASE("CR LF, escapes and NULs before the record", .records = 2), log,
		strlen(a) + strlen(b) + 17);
	free(log);
	log = xasprintf("[    3.210000] init: %s\n", a);
	check(CASE("record after a kernel timestamp", .records = 1), log);
	free(log);
	log = xasprintf("%s\n%s\n", bad, b);
	check(CASE("flipped byte: bad CRC counted, next read", .records = 1, .bad_crc = 1), log);
	free(log);
	log = xasprintf("%.*s", (int)half, a);
	check(CASE("cut short at end of file", .records = 0, .cut = 1), log);
	free(log);
	log = xasprintf("%.*s\n[   25.1] killed\n%s\n", (int)half, a, b);
	check(CASE("cut short, then a kernel line and a record", .records = 1, .cut = 1), log);
	free(log);
	log = xasprintf("%.*s[   12.345678] random: crng init done\r\n%s\r\n", (int)half, a,
			a + half);
	check(CASE("split by a kernel message, joined", .records = 1, .joined = 1), log);
	free(log);
	log = xasprintf("%.*s\r\n[   12.3] random: crng init done\r\n%s\r\n", (int)half, a,
			a + half);
	check(CASE("split by a kernel line, joined", .records = 1, .joined = 1), log);
	free(log);
	log = xasprintf("%.*s%s\n", (int)half, a, b);
	check(CASE("cut record, then a whole one on the same line", .records = 1, .cut = 1), log);
	free(log);
	log = xasprintf("%s", a);
	check(CASE("last line without newline", .records = 1), log);
	free(log);
	log = xasprintf("\xfe\xf8\x80\xe0\x1c\xff~\xf0\r\n%s  \r\n", a);
	check(CASE("garble line, then a record with trailing blanks", .records = 1), log);
	free(log);
	check(CASE("CRC right, JSON wrong", .records = 0, .unparsable = 1), "TP1 {bad} *bf3f1b7e\n");
	check(CASE("JSON without a type", .records = 0, .unparsable = 1), "TP1 {\"a\":1} *561bacaf\n");
	check(CASE("no records at all", .records = 0), "[    0.000000] Linux version 6.1.0\nhello\n");
#undef CASE
	free(a);
	free(b);
	free(bad);
}

/* A record whose CRC is written in upper case: complete, so a bad CRC. */
static char *upper_crc(const char *line)
{
	char *s = xstrdup(line);

	for (char *p = s + strlen(s) - 8; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 'a' + 'A');
	return s;
}

static void test_scan_lines(void)
{
	char *a = record("clocks", "clock_gettime(CLOCK_MONOTONIC)", 21.5);
	char *b = record("itimer", "ITIMER_REAL 10000us", 10004.2);
	char *t = record("x", "name with TP1 { inside", 1);
	char *up = upper_crc(a), *log;
	size_t half = strlen(a) / 2;
	struct sbuf many = { 0 };

#define CASE(what, ...) &(struct scan_case){ what, __VA_ARGS__ }
	log = xasprintf("%s\r%s\r%s\r", a, b, a);
	check(CASE("CR-only line ends", .records = 3), log);
	free(log);
	log = xasprintf("%s\r\r\n%s\n\r%s", a, b, a);
	check(CASE("CR CR LF, LF CR and no end: nothing lost", .records = 3), log);
	free(log);
	log = xasprintf("%s%s\n", a, b);
	check(CASE("two records on one line, nothing between", .records = 2), log);
	free(log);
	log = xasprintf("%s  junk %s junk\n", a, b);
	check(CASE("two records on one line, text around", .records = 2), log);
	free(log);
	log = xasprintf("%s\n", t);
	check(CASE("\"TP1 {\" inside a string is part of the record", .records = 1), log);
	free(log);
	log = xasprintf("%s\n%s\n", up, b);
	check(CASE("upper-case CRC: bad CRC, not cut short", .records = 1, .bad_crc = 1), log);
	free(log);
	log = xasprintf("%s%s\n", up, b);
	check(CASE("upper-case CRC, then a record on the line", .records = 1, .bad_crc = 1), log);
	free(log);
	log = xasprintf("TP! %s\n%s\n", a + 4, b);
	check(CASE("damaged tag counted", .records = 1, .damaged_tag = 1), log);
	free(log);
	log = xasprintf("P1 %s%s\n", a + 4, b);
	check(CASE("damaged tag, then a record on the line", .records = 1, .damaged_tag = 1), log);
	free(log);
	log = xasprintf("%.*s\n%s\n", (int)half, a, a + half);
	check(CASE("a record across two lines is joined", .records = 1, .joined = 1), log);
	free(log);
	log = xasprintf("%.*s\n%s%s\n", (int)half, a, a + half, b);
	check(CASE("joined, then a record on the rest of the line", .records = 2, .joined = 1), log);
	free(log);
	log = xasprintf("%.*s\nX%s\n%s\n", (int)half, a, a + half, b);
	check(CASE("a wrong continuation: bad CRC, next read", .records = 1, .bad_crc = 1), log);
	free(log);
	log = xasprintf("%.*s\nTP! %s\n%s\n", (int)half, a, a + 4, b);
	check(CASE("cut, then a record with a damaged tag on the next line", .records = 1, .cut = 1,
		   .damaged_tag = 1), log);
	free(log);
	for (int i = 0; i < 16384; i++)
		sbuf_adds(&many, "TP1 {");
	sbuf_adds(&many, " *00000000\n");
	check(CASE("80 KB of tags: all but the last cut, the last a bad CRC", .cut = 16383,
		   .bad_crc = 1), many.s);
	sbuf_reset(&many);
	for (int i = 0; i < 100; i++)
		sbuf_addf(&many, "%s", i % 2 ? a : b);
	check(CASE("100 records on one line", .records = 100), many.s);
#undef CASE
	sbuf_free(&many);
	free(a);
	free(b);
	free(t);
	free(up);
}

static void test_big_integer(void)
{
	struct tp_rec r;
	struct rec_list l = { 0 };
	struct scan_stats st = { 0 };
	const char *line;

	tp_rec_begin(&r, "result");
	tp_rec_uint(&r, "ticks", UINT64_MAX);
	line = tp_rec_finish(&r);
	scan_buffer(line, strlen(line), &l, &st);
	ok(l.n == 1 && json_is_real(json_object_get(l.v[0].obj, "ticks")),
	   "a uint64_t beyond int64_t is read as a real, not dropped");
	rec_list_free(&l);
}

/*
 * A line longer than SCAN_LINE_MAX is skipped and counted, however it comes
 * (one piece or many), and a record waiting for its end there was cut; the
 * next line is read. So is a line of exactly SCAN_LINE_MAX bytes.
 */
static void test_long_line(void)
{
	static const char cut[] = "TP1 {\"type\":\"end\"\n";
	char *rec = record("clocks", "x", 1), *big = xmalloc(SCAN_LINE_MAX + 1);
	struct rec_list l = { 0 };
	struct scan_stats st = { 0 };
	struct scanner *sc;
	size_t n = strlen(rec);

	memset(big, 'z', SCAN_LINE_MAX + 1);
	/* a line of SCAN_LINE_MAX bytes that ends in a record, then one byte more */
	for (size_t extra = 0; extra < 2; extra++) {
		memcpy(big + SCAN_LINE_MAX + extra - n, rec, n);
		memset(&st, 0, sizeof(st));
		scan_buffer(big, SCAN_LINE_MAX + extra, &l, &st);
		is_int(l.n, !extra, extra ? "a line one byte too long: its record is not read"
					  : "a line of SCAN_LINE_MAX bytes is read");
		is_int(st.long_lines, extra, extra ? "... and it is counted as too long"
						   : "... and it is not counted as too long");
		rec_list_free(&l);
	}
	/* a record cut at the end of a line, a long line fed in pieces, then a record */
	memset(&st, 0, sizeof(st));
	sc = scan_open(drop, NULL, &st);
	scan_feed(sc, cut, strlen(cut));
	for (size_t i = 0; i < SCAN_LINE_MAX + 1; i += 4096)
		scan_feed(sc, big + i, SCAN_LINE_MAX + 1 - i < 4096 ? SCAN_LINE_MAX + 1 - i : 4096);
	scan_feed(sc, "\r\n", 2);
	scan_feed(sc, rec, n);
	scan_close(sc);
	ok(st.long_lines == 1 && st.cut == 1 && st.lines == 3 && st.records == 1,
	   "fed in pieces: the long line counted, the record before it cut, the one after read");
	if (st.lines != 3)
		printf("#   lines %zu long %zu cut %zu records %zu\n", st.lines, st.long_lines,
		       st.cut, st.records);
	free(big);
	free(rec);
}

/* The emitter's longest record with a pad of n bytes; NULL if it does not fit. */
static const char *padded(struct tp_rec *r, const char *pad, size_t n)
{
	tp_rec_begin(r, "result");
	tp_rec_str(r, "probe", "long");
	tp_rec_strn(r, "pad", pad, n);
	return tp_rec_finish(r);
}

/*
 * Every record the emitter can write is read back whole, and a record one
 * byte longer, CRC and all, is refused as too long, not as a bad CRC.
 */
static void test_longest_record(void)
{
	static struct tp_rec r;
	static char pad[TP_REC_MAX], longer[TP_REC_MAX + 64];
	struct rec_list l = { 0 };
	struct scan_stats st = { 0 };
	const char *line = NULL, *json;
	size_t n = sizeof(pad) - 1;
	int len;

	memset(pad, 'x', sizeof(pad) - 1);
	while (n && !(line = padded(&r, pad, n)))
		n--;
	is_int(r.len, TP_REC_LINE_MAX + 1, "the emitter's longest line is TP_REC_LINE_MAX and its newline");
	scan_buffer(line, r.len, &l, &st);
	ok(l.n == 1 && st.too_long == 0 && st.bad_crc == 0, "the longest record is read");
	ok(l.n == 1 && strlen(json_string_value(json_object_get(l.v[0].obj, "pad"))) == n &&
	   strspn(json_string_value(json_object_get(l.v[0].obj, "pad")), "x") == n,
	   "the longest record arrives intact (%zu bytes of pad)", n);
	rec_list_free(&l);

	/* the same with one more byte of pad: what no emitter writes */
	pad[n + 1] = 0;
	len = snprintf(longer, sizeof(longer), "{\"type\":\"result\",\"probe\":\"long\",\"pad\":\"%s\"}",
		       pad);
	len += snprintf(longer + len, sizeof(longer) - (size_t)len, " *%08x",
			(unsigned)tp_crc32(0, longer, (size_t)len));
	memmove(longer + 4, longer, (size_t)len + 1);
	memcpy(longer, "TP1 ", 4);
	is_int(strlen(longer), TP_REC_LINE_MAX + 1, "one byte longer");
	is_int(tp_rec_check(longer, strlen(longer), &json), -2, "tp_rec_check: too long");
	memset(&st, 0, sizeof(st));
	scan_buffer(longer, strlen(longer), &l, &st);
	ok(l.n == 0 && st.too_long == 1 && st.bad_crc == 0 && scan_corrupt(&st) == 1,
	   "one byte longer is refused as too long, not a bad CRC");
	rec_list_free(&l);
	pad[n + 1] = 'x';
}

int main(void)
{
	test_clean();
	test_stamp_and_find();
	test_crc();
	test_scan();
	test_scan_lines();
	test_big_integer();
	test_longest_record();
	test_long_line();
	return tap_done();
}
