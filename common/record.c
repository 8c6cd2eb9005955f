// SPDX-License-Identifier: MIT
/* TP1 record builder; see record.h and docs/records.md. Freestanding. */
#include "record.h"

static const char hex[] = "0123456789abcdef";

/*
 * The CRC of each 4-bit value, reflected polynomial 0xEDB88320 (IEEE 802.3,
 * zlib): two lookups a byte, four times the speed of a bit at a time (a
 * report reads millions of records) for 64 bytes of table.
 */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t tp_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}

static void put(struct tp_rec *r, char c)
{
	/* the line ends in the CRC's tail within TP_REC_LINE_MAX; room for "\n\0" after */
	if (r->len + 1 + TP_REC_TAIL_LEN > TP_REC_LINE_MAX) {
		r->overflow = 1;
		return;
	}
	r->buf[r->len++] = c;
}

static void puts_raw(struct tp_rec *r, const char *s)
{
	while (*s)
		put(r, *s++);
}

static void put_json_string(struct tp_rec *r, const char *s, size_t n)
{
	put(r, '"');
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': puts_raw(r, "\\\""); break;
		case '\\': puts_raw(r, "\\\\"); break;
		case '\n': puts_raw(r, "\\n"); break;
		case '\r': puts_raw(r, "\\r"); break;
		case '\t': puts_raw(r, "\\t"); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				puts_raw(r, "\\u00");
				put(r, hex[c >> 4]);
				put(r, hex[c & 15]);
			} else if (c >= 0x80) {
				/* Keep the line ASCII and valid whatever the input
				 * (firmware strings are not always UTF-8). */
				puts_raw(r, "\\u00");
				put(r, hex[c >> 4]);
				put(r, hex[c & 15]);
			} else {
				put(r, (char)c);
			}
		}
	}
	put(r, '"');
}

static void key(struct tp_rec *r, const char *k)
{
	if (r->depth < 1) {
		r->overflow = 1;
		return;
	}
	if (r->need_comma[r->depth - 1])
		put(r, ',');
	r->need_comma[r->depth - 1] = 1;
	if (k) {
		size_t n = 0;

		while (k[n])
			n++;
		put_json_string(r, k, n);
		put(r, ':');
	}
}

size_t tp_fmt_u64(char *out, uint64_t v)
{
	char tmp[20];
	size_t n = 0, len;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	len = n;
	for (size_t i = 0; i < len; i++)
		out[i] = tmp[--n];
	return len;
}

static void put_u64(struct tp_rec *r, uint64_t v)
{
	char tmp[20];
	size_t n = tp_fmt_u64(tmp, v);

	for (size_t i = 0; i < n; i++)
		put(r, tmp[i]);
}

static void push(struct tp_rec *r, char c)
{
	put(r, c);
	if (r->depth >= TP_REC_DEPTH) {
		r->overflow = 1;
		return;
	}
	r->need_comma[r->depth++] = 0;
}

void tp_rec_begin(struct tp_rec *r, const char *type)
{
	r->len = 0;
	r->depth = 0;
	r->overflow = 0;
	puts_raw(r, "TP1 ");
	push(r, '{');
	tp_rec_str(r, "type", type);
}

void tp_rec_strn(struct tp_rec *r, const char *k, const char *val, size_t n)
{
	key(r, k);
	put_json_string(r, val ? val : "", val ? n : 0);
}

void tp_rec_str(struct tp_rec *r, const char *k, const char *val)
{
	size_t n = 0;

	while (val && val[n])
		n++;
	tp_rec_strn(r, k, val, n);
}

void tp_rec_uint(struct tp_rec *r, const char *k, uint64_t v)
{
	key(r, k);
	put_u64(r, v);
}

void tp_rec_int(struct tp_rec *r, const char *k, int64_t v)
{
	key(r, k);
	if (v < 0) {
		put(r, '-');
		put_u64(r, (uint64_t)0 - (uint64_t)v);
	} else {
		put_u64(r, (uint64_t)v);
	}
}

void tp_rec_bool(struct tp_rec *r, const char *k, int v)
{
	key(r, k);
	puts_raw(r, v ? "true" : "false");
}

void tp_rec_null(struct tp_rec *r, const char *k)
{
	key(r, k);
	puts_raw(r, "null");
}

void tp_rec_fixed(struct tp_rec *r, const char *k, int64_t v, int decimals)
{
	uint64_t mag, scale = 1;

	key(r, k);
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	if (v < 0) {
		put(r, '-');
		mag = (uint64_t)0 - (uint64_t)v;
	} else {
		mag = (uint64_t)v;
	}
	put_u64(r, mag / scale);
	if (decimals > 0) {
		uint64_t frac = mag % scale;
		char tmp[20];

		put(r, '.');
		for (int i = decimals - 1; i >= 0; i--) {
			tmp[i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		for (int i = 0; i < decimals; i++)
			put(r, tmp[i]);
	}
}

void tp_rec_number(struct tp_rec *r, const char *k, const char *text)
{
	key(r, k);
	puts_raw(r, text);
}

void tp_rec_obj_begin(struct tp_rec *r, const char *k)
{
	key(r, k);
	push(r, '{');
}

void tp_rec_arr_begin(struct tp_rec *r, const char *k)
{
	key(r, k);
	push(r, '[');
}

void tp_rec_obj_end(struct tp_rec *r)
{
	put(r, '}');
	r->depth--;
}

void tp_rec_arr_end(struct tp_rec *r)
{
	put(r, ']');
	r->depth--;
}

const char *tp_rec_finish(struct tp_rec *r)
{
	uint32_t crc;

	if (r->depth != 1)
		r->overflow = 1;
	put(r, '}');
	r->depth = 0;
	if (r->overflow)
		return 0;
	crc = tp_crc32(0, r->buf + 4, r->len - 4);
	/* put() reserved the room for this tail */
	r->buf[r->len++] = ' ';
	r->buf[r->len++] = '*';
	for (int i = 7; i >= 0; i--)
		r->buf[r->len++] = hex[(crc >> (4 * i)) & 15];
	r->buf[r->len++] = '\n';
	r->buf[r->len] = 0;
	return r->buf;
}

/* A hex digit's value; upper case adds 16 (not what the emitter writes). */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10 + 16;
	return -1;
}

int tp_rec_tail(const char *s, size_t n, uint32_t *crc)
{
	uint32_t v = 0;
	int upper = 0;

	if (n < TP_REC_TAIL_LEN || s[0] != ' ' || s[1] != '*')
		return 0;
	for (size_t i = 2; i < TP_REC_TAIL_LEN; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return 0;
		upper |= d >= 16;
		v = v << 4 | (uint32_t)(d & 15);
	}
	*crc = v;
	return upper ? 2 : 1;
}

long tp_rec_check(const char *line, size_t len, const char **json)
{
	uint32_t want, got;

	if (len < 4 || line[0] != 'T' || line[1] != 'P' || line[2] != '1' || line[3] != ' ')
		return 0;
	if (len > TP_REC_LINE_MAX)
		return -2;
	/* "TP1 " + at least "{}" + " *" + 8 lower-case hex digits */
	if (len < 4 + 2 + TP_REC_TAIL_LEN ||
	    tp_rec_tail(line + len - TP_REC_TAIL_LEN, TP_REC_TAIL_LEN, &want) != 1)
		return -1;
	got = tp_crc32(0, line + 4, len - 14);
	if (got != want)
		return -1;
	*json = line + 4;
	return (long)(len - 14);
}
