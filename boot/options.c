// SPDX-License-Identifier: MIT
/* The stub's own options from the user's line; see options.h. */
#include "../common/buf.h"
#include "cmdline.h"
#include "options.h"

/*
 * One of the stub's own options from cmdline.txt, with the contract's bounds
 * (common/words.c; the suite checks the same word the same way). An absent
 * or bad word gives the row's default; a bad one is said.
 */
uint32_t tp_opt_u32(struct tp_console *con, const char *line, enum tp_word_id id)
{
	const struct tp_word *w = &tp_words[id];
	char key[48], m[200];
	struct tp_buf k, b;
	enum tp_word_err e;
	const char *v;
	size_t n = 0;
	int64_t x;

	tp_buf_init(&k, key, sizeof(key));
	tp_buf_puts(&k, TP_WORD_PREFIX);
	tp_buf_puts(&k, w->name);
	v = tp_cmdline_find(line, key, &n);
	if (!v)
		return (uint32_t)w->def;
	e = tp_word_int(w, v, n, &x);
	if (e == TP_WE_OK)
		return (uint32_t)x;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, key);
	tp_buf_putc(&b, '=');
	tp_buf_putn(&b, v, n < 32 ? n : 32);
	tp_buf_puts(&b, ": ");
	tp_word_why(&b, w, e, 0);
	tp_buf_puts(&b, "; default kept");
	tp_con_msg(con, m);
	return (uint32_t)w->def;
}

/*
 * The stub's one reader of timeprobe.inject=: a skew:REF:PPM item of the
 * user's line (common/skew.h) skews REF in the calibration (tsc.c). Only
 * the last timeprobe.inject= word counts, as for the suite (the last
 * value wins, userland/options.c). Nothing but the line sets it; it is said.
 */
void tp_opt_skew(struct tp_console *con, const char *line, struct tp_skew *k)
{
	char m[80];
	struct tp_buf b;
	size_t n;
	const char *v = tp_cmdline_find(line, TP_WORD_PREFIX "inject", &n);

	if (v)
		tp_skew_from_list(v, n, k);
	if (!k->ref[0])
		return;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "fault injection: ");
	tp_buf_puts(&b, k->ref);
	tp_buf_puts(&b, " read ");
	tp_buf_puti(&b, k->ppm);
	tp_buf_puts(&b, " ppm fast in the calibration");
	tp_con_msg(con, m);
}

/* The profile the suite takes: the last valid timeprobe.profile=; 1 when it is quick. */
int tp_opt_quick(const char *line)
{
	size_t n, pos = 0;
	const char *v;
	int64_t quick = 0, x;

	while ((v = tp_cmdline_next(line, TP_WORD_PREFIX "profile", &pos, &n)) != NULL)
		if (tp_word_choice(&tp_words[TPW_PROFILE], v, n, &x) == TP_WE_OK)
			quick = x;
	return quick == 1;
}
