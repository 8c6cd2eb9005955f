// SPDX-License-Identifier: MIT
/* The stub's seal over its own words; see seal.h. Freestanding. */
#include "seal.h"
#include "record.h"
#include "words.h"

#define SEAL_LEN (sizeof(TP_SEAL_WORD) - 1)

/* Blank-separated words in s[0..n); the stub's words hold no quotes. */
static unsigned int count_words(const char *s, size_t n)
{
	unsigned int words = 0;

	for (size_t i = 0; i < n; i++)
		if (!tp_line_blank(s[i]) && (i == 0 || tp_line_blank(s[i - 1])))
			words++;
	return words;
}

unsigned int tp_seal_add(struct tp_buf *b, size_t from)
{
	size_t start = from, end = b->len;
	unsigned int words;

	while (start < end && tp_line_blank(b->s[start]))
		start++;
	while (end > start && tp_line_blank(b->s[end - 1]))
		end--;
	words = count_words(b->s + start, end - start);
	tp_buf_putc(b, ' ');
	tp_buf_puts(b, TP_SEAL_WORD);
	tp_buf_putu(b, words);
	tp_buf_putc(b, ':');
	tp_buf_puthex(b, tp_crc32(0, b->s + start, end - start), 8);
	return words;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* <count>:<8 lowercase hex> into *words and *crc; 0, or -1 when malformed. */
static int seal_parse(const char *v, size_t n, unsigned int *words, uint32_t *crc)
{
	size_t i = 0;

	*words = 0;
	*crc = 0;
	for (; i < n && i < 3 && v[i] >= '0' && v[i] <= '9'; i++)
		*words = *words * 10 + (unsigned int)(v[i] - '0');
	if (!i || *words > TP_SEAL_WORDS_MAX || i + 9 != n || v[i] != ':')
		return -1;
	for (i++; i < n; i++) {
		int d = hex_digit(v[i]);

		if (d < 0)
			return -1;
		*crc = *crc << 4 | (uint32_t)d;
	}
	return 0;
}

const char *tp_seal_check(const char *v, size_t n)
{
	unsigned int words;
	uint32_t crc;

	return seal_parse(v, n, &words, &crc) ? "not <words>:<crc32, 8 lowercase hex>" : 0;
}

/* Where the last word of line starts (quotes respected) and its length. */
static size_t last_word(const char *line, size_t *at)
{
	size_t pos = 0, n, last = 0;
	const char *w;

	*at = 0;
	while ((n = tp_line_word(line, &pos, &w)) != 0) {
		*at = (size_t)(w - line);
		last = n;
	}
	return last;
}

/* Start of the word `words` words back from at (blank-separated), or -1. */
static long words_back(const char *line, size_t at, unsigned int words)
{
	size_t i = at;

	while (words--) {
		while (i > 0 && tp_line_blank(line[i - 1]))
			i--;
		if (i == 0)
			return -1;
		while (i > 0 && !tp_line_blank(line[i - 1])) {
			if (line[i - 1] == '"')
				return -1;
			i--;
		}
	}
	return (long)i;
}

enum tp_seal_err tp_seal_span(const char *line, size_t *start, size_t *end)
{
	size_t at, n = last_word(line, &at), stop;
	unsigned int words;
	uint32_t crc;
	long from;

	if (n <= SEAL_LEN || !tp_streqn(line + at, SEAL_LEN, TP_SEAL_WORD))
		return TP_SEAL_NONE;
	if (seal_parse(line + at + SEAL_LEN, n - SEAL_LEN, &words, &crc))
		return TP_SEAL_MALFORMED;
	from = words_back(line, at, words);
	if (from < 0)
		return TP_SEAL_SHORT;
	for (stop = at; stop > (size_t)from && tp_line_blank(line[stop - 1]); stop--)
		;
	if (tp_crc32(0, line + from, stop - (size_t)from) != crc)
		return TP_SEAL_CRC;
	*start = (size_t)from;
	*end = stop;
	return TP_SEAL_OK;
}

const char *tp_seal_why(enum tp_seal_err e)
{
	switch (e) {
	case TP_SEAL_OK:
		return "sealed";
	case TP_SEAL_NONE:
		return "no timeprobe.seal= at the end of the line (no timeprobe stub started this kernel)";
	case TP_SEAL_MALFORMED:
		return "timeprobe.seal= is not <words>:<crc32>";
	case TP_SEAL_SHORT:
		return "timeprobe.seal= counts more words than the line has";
	case TP_SEAL_CRC:
		return "the words before timeprobe.seal= are not the ones the stub sealed";
	}
	return "?";
}
