/* SPDX-License-Identifier: MIT */
/*
 * A bounded string builder: never overflows, remembers that it would have.
 * Freestanding C (no libc), shared by the UEFI stub and the suite; every
 * formatter of the values the stub hands over in its file (common/handoff.h)
 * and of the command line (common/words.h) writes into one.
 */
#ifndef TP_COMMON_BUF_H
#define TP_COMMON_BUF_H

#include <stddef.h>
#include <stdint.h>

/*
 * The text of a constant, for a message that names it: "longer than "
 * TP_STR(TP_URL_MAX) " bytes" cannot go stale when the limit moves
 * (tests/build/error-limits.t). The constant must be a plain decimal.
 */
#define TP_STR_(x) #x
#define TP_STR(x) TP_STR_(x)

struct tp_buf {
	char *s;
	size_t cap;		/* bytes at s, including the NUL */
	size_t len;
	int overflow;
};

void tp_buf_init(struct tp_buf *b, char *s, size_t cap);
void tp_buf_puts(struct tp_buf *b, const char *str);
void tp_buf_putn(struct tp_buf *b, const char *str, size_t n);
void tp_buf_putc(struct tp_buf *b, char c);
void tp_buf_putu(struct tp_buf *b, uint64_t v);
void tp_buf_puti(struct tp_buf *b, int64_t v);
/* Lowercase hex, zero-padded to at least `digits`. */
void tp_buf_puthex(struct tp_buf *b, uint64_t v, int digits);

/* Length of a NUL-terminated string; 0 for NULL. */
size_t tp_strlen(const char *s);
/* 1 when s[0..n) equals the NUL-terminated t. */
int tp_streqn(const char *s, size_t n, const char *t);

#endif
