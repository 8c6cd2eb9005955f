// SPDX-License-Identifier: MIT
/* The bounded string builder; see buf.h. Freestanding. */
#include "buf.h"
#include "record.h"

size_t tp_strlen(const char *s)
{
	size_t n = 0;

	while (s && s[n])
		n++;
	return n;
}

int tp_streqn(const char *s, size_t n, const char *t)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!t[i] || s[i] != t[i])
			return 0;
	return t[i] == 0;
}

void tp_buf_init(struct tp_buf *b, char *s, size_t cap)
{
	b->s = s;
	b->cap = cap;
	b->len = 0;
	b->overflow = 0;
	if (cap)
		s[0] = 0;
}

void tp_buf_putc(struct tp_buf *b, char c)
{
	if (b->len + 1 >= b->cap) {
		b->overflow = 1;
		return;
	}
	b->s[b->len++] = c;
	b->s[b->len] = 0;
}

void tp_buf_putn(struct tp_buf *b, const char *str, size_t n)
{
	for (size_t i = 0; i < n && str[i]; i++)
		tp_buf_putc(b, str[i]);
}

void tp_buf_puts(struct tp_buf *b, const char *str)
{
	tp_buf_putn(b, str, tp_strlen(str));
}

void tp_buf_putu(struct tp_buf *b, uint64_t v)
{
	char tmp[20];

	tp_buf_putn(b, tmp, tp_fmt_u64(tmp, v));
}

void tp_buf_puti(struct tp_buf *b, int64_t v)
{
	if (v < 0) {
		tp_buf_putc(b, '-');
		tp_buf_putu(b, (uint64_t)0 - (uint64_t)v);
		return;
	}
	tp_buf_putu(b, (uint64_t)v);
}

void tp_buf_puthex(struct tp_buf *b, uint64_t v, int digits)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = hex[v & 15];
		v >>= 4;
	} while (v && n < 16);
	while (n < digits && n < 16)
		tmp[n++] = '0';
	while (n)
		tp_buf_putc(b, tmp[--n]);
}
