// SPDX-License-Identifier: MIT
/* The TP1 record builder: CRC against zlib, escaping checked by a real JSON parser (jansson). */
#include <jansson.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "tap.h"
#include "../../common/record.h"

static json_t *parse(const struct tp_rec *r, const char *line)
{
	const char *js;
	long n = tp_rec_check(line, strlen(line) - 1, &js);	/* without '\n' */

	if (n <= 0)
		return 0;
	return json_loadb(js, (size_t)n, 0, 0);
}

int main(void)
{
	struct tp_rec r;
	const char *line;
	json_t *j;
	static const char *samples[] = { "", "a", "123456789", "TP1 {\"type\":\"end\"}",
		"\xff\x00", "The quick brown fox jumps over the lazy dog" };

	/* CRC-32 against zlib on fixed inputs, including the standard check value */
	is_int(tp_crc32(0, "123456789", 9), 0xCBF43926u, "crc32 check value 123456789");
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		size_t n = strlen(samples[i]);

		ok(tp_crc32(0, samples[i], n) == crc32(0, (const Bytef *)samples[i], (uInt)n),
		   "crc32 equals zlib for sample %zu", i);
	}
	ok(tp_crc32(tp_crc32(0, "1234", 4), "56789", 5) == 0xCBF43926u, "crc32 can be continued");

	/* A record with every kind of value parses back to what was written */
	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "name", "quote\" backslash\\ newline\n tab\t ctl\x01 high\xc3\xa9");
	tp_rec_int(&r, "neg", -9223372036854775807LL - 1);
	tp_rec_uint(&r, "big", (uint64_t)INT64_MAX);	/* jansson refuses integers beyond int64 */
	tp_rec_fixed(&r, "fixed", -12345, 3);
	tp_rec_fixed(&r, "small", 5, 3);
	tp_rec_bool(&r, "yes", 1);
	tp_rec_null(&r, "nothing");
	tp_rec_number(&r, "g", "1.5e+09");
	tp_rec_obj_begin(&r, "obj");
	tp_rec_arr_begin(&r, "arr");
	tp_rec_int(&r, 0, 1);
	tp_rec_int(&r, 0, 2);
	tp_rec_arr_end(&r);
	tp_rec_obj_end(&r);
	line = tp_rec_finish(&r);
	ok(line != 0, "record finishes");
	ok(line && !strncmp(line, "TP1 {\"type\":\"result\",", 21), "starts with TP1 and type first");
	ok(line && line[strlen(line) - 1] == '\n' && line[strlen(line) - 11] == ' ' && line[strlen(line) - 10] == '*',
	   "ends with ' *crc\\n'");
	j = line ? parse(&r, line) : 0;
	ok(j != 0, "jansson parses the record");
	is_str(json_string_value(json_object_get(j, "name")),
	       "quote\" backslash\\ newline\n tab\t ctl\x01 high\xc3\x83\xc2\xa9", "strings escaped and round-trip (high bytes as \\u00XX)");
	ok(json_integer_value(json_object_get(j, "neg")) == INT64_MIN, "INT64_MIN");
	is_near(json_number_value(json_object_get(j, "fixed")), -12.345, 1e-9, "fixed point negative");
	is_near(json_number_value(json_object_get(j, "small")), 0.005, 1e-12, "fixed point leading zeros");
	ok(json_is_true(json_object_get(j, "yes")), "bool");
	ok(json_is_null(json_object_get(j, "nothing")), "null");
	is_near(json_number_value(json_object_get(j, "g")), 1.5e9, 0, "preformatted number");
	is_int(json_array_size(json_object_get(json_object_get(j, "obj"), "arr")), 2, "nested array");
	json_decref(j);

	/* the CRC covers exactly the JSON bytes */
	{
		char copy[TP_REC_MAX];
		const char *js;
		size_t n;

		tp_rec_begin(&r, "end");
		tp_rec_int(&r, "records", 3);
		line = tp_rec_finish(&r);
		snprintf(copy, sizeof(copy), "%s", line);
		n = strlen(copy) - 1;
		ok(tp_rec_check(copy, n, &js) > 0, "check accepts a good record");
		copy[10] ^= 1;
		is_int(tp_rec_check(copy, n, &js), -1, "check rejects a flipped bit");
		is_int(tp_rec_check("TP1 {\"type\":\"end\"", 18, &js), -1, "check rejects a cut record");
		is_int(tp_rec_check("[ 1.0] hello", 12, &js), 0, "a kernel line is not a record");
		is_int(tp_rec_check("TP1 {\"type\":\"end\"} *ABCDEF01", 28, &js), -1, "upper-case hex is not accepted");
	}

	/* the one tail parser, shared by tp_rec_check and the report's scanner */
	{
		uint32_t crc = 0;

		is_int(tp_rec_tail(" *0a1b2c3d", 10, &crc), 1, "tail: lower-case hex is a tail");
		ok(crc == 0x0a1b2c3d, "tail: its value");
		is_int(tp_rec_tail(" *0A1b2c3d", 10, &crc), 2, "tail: a mixed case is a tail that cannot match");
		is_int(tp_rec_tail(" *0a1b2c3", 9, &crc), 0, "tail: seven digits are none");
		is_int(tp_rec_tail(" *0a1b2c3g", 10, &crc), 0, "tail: a non-hex digit is none");
		is_int(tp_rec_tail("  0a1b2c3d", 10, &crc), 0, "tail: no '*' is none");
	}

	/* overflow is reported, not truncated silently */
	tp_rec_begin(&r, "result");
	for (int i = 0; i < 2000; i++)
		tp_rec_str(&r, "k", "0123456789");
	ok(tp_rec_finish(&r) == 0, "overflowing record is refused");
	tp_rec_begin(&r, "result");
	tp_rec_obj_begin(&r, "open");
	ok(tp_rec_finish(&r) == 0, "unbalanced record is refused");
	return tap_done();
}
