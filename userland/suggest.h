// SPDX-License-Identifier: MIT
/*
 * Near misses: a name a person mistyped, and the known name it was meant to
 * be. Options and probe names both use it (options.c, selection.c).
 */
#ifndef TP_SUGGEST_H
#define TP_SUGGEST_H

#include <stddef.h>

/*
 * The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of two neighbours, each 1), with '-' and '_' counted as the same
 * letter. Names longer than SUGGEST_MAX_LEN are SUGGEST_FAR from everything.
 */
#define SUGGEST_MAX_LEN 63
#define SUGGEST_FAR 99
int suggest_distance(const char *a, const char *b);

/* Whether typed is a near miss of known: not equal, and within 1 edit for
 * names of up to 4 letters, 2 for longer ones, or known is typed with a
 * "<probe>-" before it (priority: wakeup-priority). */
int suggest_near(const char *typed, const char *known);

/*
 * "; did you mean X?" or "; did you mean X or Y?" appended to out[len]
 * (always terminated) for the nearest of the n names that name(i, ctx)
 * gives (NULL names skipped), at most two; nothing when none is near.
 */
void suggest_append(char *out, size_t len, const char *typed,
		    const char *(*name)(size_t i, const void *ctx), size_t n, const void *ctx);

/*
 * Whether the name[0..n) of a word (Linux's param, no value) was meant to
 * begin with prefix, a word ending in '.' ("timeprobe."): its lead, up to
 * and with its first '.' (with none: its first '-' or '_'; with none: the
 * whole name), is not prefix but within 2 edits of it ("timeprob.",
 * "timeprobe_", "tmeprobe."). The rest of the name starts at name + *lead.
 */
int suggest_prefix_typo(const char *name, size_t n, const char *prefix, size_t *lead);

#endif
