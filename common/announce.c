// SPDX-License-Identifier: MIT
/* The watcher's protocol line; see announce.h. Freestanding. */
#include "announce.h"

void tp_announce(struct tp_buf *b, const char *what, uint64_t limit_s)
{
	tp_buf_puts(b, what);
	tp_buf_puts(b, ", limit ");
	tp_buf_putu(b, limit_s);
	tp_buf_puts(b, " s");
}
