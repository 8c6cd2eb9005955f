// SPDX-License-Identifier: MIT
/*
 * userland/recread.c: the suite's kept records read back. Only whole
 * records with their CRC count; a key is found at the object's top level
 * only, past nested objects, arrays and strings holding quotes, commas and
 * braces; a value of another type, or a broken object, reads as absent.
 */
#include <string.h>

#include "tap.h"
#include "../../common/record.h"
#include "../../userland/recread.h"

static struct rec_view view(const char *json)
{
	return (struct rec_view){ json, strlen(json) };
}

static void values(void)
{
	struct rec_view r = view("{\"type\":\"result\",\"nest\":{\"x\":1,\"s\":\"},\\\"x\\\":\"},"
				 "\"arr\":[1,{\"x\":[2]},\"]\"],\"a\\\"b\":3, \"x\" : 42.5 ,"
				 "\"t\":true,\"f\":false,\"n\":null,\"s\":\"a\\\"b\\\\c\\/d\\n\"}");
	double d = 0;
	int b = -1;
	char s[64];
	size_t n;

	ok(recread_num(&r, "x", &d) && d == 42.5, "x at the top level, not the nested ones: %g", d);
	ok(recread_bool(&r, "t", &b) && b == 1, "true");
	ok(recread_bool(&r, "f", &b) && b == 0, "false");
	ok(!recread_num(&r, "n", &d) && !recread_bool(&r, "n", &b) && !recread_str(&r, "n", s, 8),
	   "null: no number, yes/no or string");
	ok(!recread_num(&r, "type", &d), "a string is no number");
	ok(!recread_num(&r, "missing", &d), "a missing key: absent");
	ok(recread_str(&r, "s", s, sizeof(s)) && !strcmp(s, "a\"b\\c/d\\n"),
	   "escapes \\\" \\\\ \\/ undone, others kept: %s", s);
	ok(recread_str(&r, "s", s, 3) && !strcmp(s, "a\""), "cut to fit: %s", s);
	ok(recread_is(&r, "type", "result") && !recread_is(&r, "type", "resul"), "is");
	ok(!recread_raw(&r, "a", &n) && !recread_raw(&r, "b", &n), "a key with a quote is no other key");
	ok(recread_raw(&r, "nest", &n) && n == strlen("{\"x\":1,\"s\":\"},\\\"x\\\":\"}"),
	   "an object's raw text");
}

static void broken(void)
{
	static const char *const bad[] = {
		"", "[1]", "{", "{\"x\"", "{\"x\":", "{\"x\" 1}", "{\"a\":\"unterminated,\"x\":1}",
		"{\"a\":[1,2,\"x\":1}", "{\"a\":1 \"x\":1}", "{x:1}",
	};
	double d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rec_view r = view(bad[i]);

		ok(!recread_num(&r, "x", &d), "broken object %zu (%s): x absent", i, bad[i]);
	}
}

static void lines(void)
{
	char buf[512];
	const char *json = "{\"type\":\"end\"}", *pos = buf;
	struct rec_view r;
	int n = snprintf(buf, sizeof(buf), "human line\nTP1 %s *00000000\nTP1 %s *%08x\nTP1 {\"cut\"",
			 json, json, tp_crc32(0, json, strlen(json)));

	ok(recread_next(&pos, buf + n, &r) && r.len == strlen(json) && !memcmp(r.json, json, r.len),
	   "the one record with its CRC, past a human line and a bad CRC");
	ok(!recread_next(&pos, buf + n, &r), "a cut line at the end: none left");
}

/* A round's record (docs/records.md, "Rounds") is passed over; the run's follows. */
static void rounds(void)
{
	char buf[512];
	const char *rnd = "{\"type\":\"result\",\"round\":2,\"x\":1}", *run = "{\"type\":\"result\",\"x\":3}";
	const char *pos = buf;
	struct rec_view r;
	double d = 0;
	int n = snprintf(buf, sizeof(buf), "TP1 %s *%08x\nTP1 %s *%08x\n", rnd, tp_crc32(0, rnd, strlen(rnd)),
			 run, tp_crc32(0, run, strlen(run)));

	ok(recread_next(&pos, buf + n, &r) && recread_num(&r, "x", &d) && d == 3,
	   "a round's record passed over, the run's read (x 3)");
	ok(!recread_next(&pos, buf + n, &r), "then none left");
}

int main(void)
{
	values();
	broken();
	lines();
	rounds();
	return tap_done();
}
