/* SPDX-License-Identifier: MIT */
/*
 * TP1 record builder: the one emitter of every machine record.
 *
 * A record is one line:  "TP1 " JSON " *" crc32(JSON) as 8 lowercase hex "\n".
 * See docs/records.md. This file is freestanding C (no libc), shared by the
 * UEFI stub and the userland suite, and tested on the host.
 */
#ifndef TP_RECORD_H
#define TP_RECORD_H

#include <stddef.h>
#include <stdint.h>

/*
 * The longest record line the emitter writes, "TP1 " to the CRC's last
 * digit, without its newline: the one limit of the format. A reader
 * accepts every line up to it and no longer one (docs/records.md).
 */
#define TP_REC_LINE_MAX 8190
#define TP_REC_TAIL_LEN 10	/* " *" and the CRC's eight hex digits */
#define TP_REC_MAX (TP_REC_LINE_MAX + 2)	/* the builder's buffer: line, newline, NUL */
#define TP_REC_DEPTH 8		/* nesting of objects and arrays */
/*
 * A figure's 95 % interval rides beside it as KEY TP_REC_CI_SUFFIX:
 * [lo, hi, n] (userland/ci.h writes it, tools/report/model.c reads it).
 */
#define TP_REC_CI_SUFFIX "_ci95"

struct tp_rec {
	char buf[TP_REC_MAX];
	size_t len;
	int depth;
	unsigned char need_comma[TP_REC_DEPTH];
	int overflow;		/* set when something did not fit; finish() fails */
};

/* IEEE 802.3 CRC-32, the same as zlib's crc32(): start with crc = 0. */
uint32_t tp_crc32(uint32_t crc, const void *data, size_t len);

/* Decimal digits of v into out (room for 20), no NUL; returns their count. */
size_t tp_fmt_u64(char *out, uint64_t v);

/* Starts {"type":TYPE ... */
void tp_rec_begin(struct tp_rec *r, const char *type);
void tp_rec_str(struct tp_rec *r, const char *key, const char *val);
void tp_rec_strn(struct tp_rec *r, const char *key, const char *val, size_t n);
void tp_rec_int(struct tp_rec *r, const char *key, int64_t v);
void tp_rec_uint(struct tp_rec *r, const char *key, uint64_t v);
void tp_rec_bool(struct tp_rec *r, const char *key, int v);
void tp_rec_null(struct tp_rec *r, const char *key);
/* v / 10^decimals printed exactly, e.g. (12345, 3) -> 12.345: no floating point. */
void tp_rec_fixed(struct tp_rec *r, const char *key, int64_t v, int decimals);
/* A number already formatted as JSON (e.g. by printf "%.9g"); not checked. */
void tp_rec_number(struct tp_rec *r, const char *key, const char *text);
/* Nested values; key is NULL inside arrays. */
void tp_rec_obj_begin(struct tp_rec *r, const char *key);
void tp_rec_obj_end(struct tp_rec *r);
void tp_rec_arr_begin(struct tp_rec *r, const char *key);
void tp_rec_arr_end(struct tp_rec *r);
/*
 * Closes the object and appends " *crc\n". Returns the line (NUL-terminated,
 * r->len bytes, at most TP_REC_LINE_MAX + 1 with the newline), or NULL if the
 * record did not fit or is unbalanced.
 */
const char *tp_rec_finish(struct tp_rec *r);

/*
 * The one parser of a record's tail: s[0..n) begins with " *" and eight hex
 * digits. Returns 1 for lower case (the format, docs/records.md) with the
 * value in *crc, 2 for any other case mix (a record, but its CRC cannot
 * match), 0 if it is not a tail.
 */
int tp_rec_tail(const char *s, size_t n, uint32_t *crc);

/*
 * Checks one line (without its newline): returns the JSON's length and sets
 * *json to it when the line is a TP1 record whose CRC matches; 0 when the line
 * is not a record; -1 when it is a record with a bad or missing CRC; -2 when
 * it is longer than TP_REC_LINE_MAX, which no emitter writes.
 */
long tp_rec_check(const char *line, size_t len, const char **json);

#endif
