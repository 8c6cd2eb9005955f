/* SPDX-License-Identifier: MIT */
/* A kernel command line as the stub writes it, for tests: the user's words,
 * the stub's words, and the stub's seal over them (common/seal.h). */
#ifndef TP_TEST_SEALED_H
#define TP_TEST_SEALED_H

#include "../../common/buf.h"
#include "../../common/seal.h"

static const char *sealed(const char *user, const char *stub)
{
	static char line[4096];
	struct tp_buf b;
	size_t from;

	tp_buf_init(&b, line, sizeof(line));
	tp_buf_puts(&b, user);
	from = b.len;
	tp_buf_putc(&b, ' ');
	tp_buf_puts(&b, stub);
	tp_seal_add(&b, from);
	return line;
}

#endif
