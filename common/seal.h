/* SPDX-License-Identifier: MIT */
/*
 * The stub's seal over its own words. The stub appends its words after the
 * user's part of the kernel command line and then, last,
 *   timeprobe.seal=<words>:<crc32, 8 hex>
 * where <words> counts the blank-separated words before the seal that the
 * stub wrote and the CRC-32 (common/record.c) covers their bytes exactly as
 * they stand on the line, from the first byte of the first to the last byte
 * of the last. PID 1 accepts a word that the contract says only the stub
 * writes (common/words.c) only from inside that span, so a user's
 * `timeprobe.tsc_hz=` in cmdline.txt, an SMBIOS string or a copied line is
 * never taken for the stub's figure. The seal tells words apart; it is not
 * a signature (anyone can compute a CRC). Freestanding C, built by both.
 */
#ifndef TP_COMMON_SEAL_H
#define TP_COMMON_SEAL_H

#include <stddef.h>

#include "buf.h"

#define TP_SEAL_WORD "timeprobe.seal="
#define TP_SEAL_WORDS_MAX 64	/* the stub writes at most a dozen words */

/*
 * Appends " timeprobe.seal=N:CRC" to b, sealing the words in
 * b->s[from..b->len) (blanks around them ignored). Returns the number of
 * words sealed; b->overflow is set when the seal did not fit.
 */
unsigned int tp_seal_add(struct tp_buf *b, size_t from);

/* Why a line's seal was not accepted. */
enum tp_seal_err {
	TP_SEAL_OK = 0,
	TP_SEAL_NONE,		/* the last word is not timeprobe.seal= */
	TP_SEAL_MALFORMED,	/* not <count>:<8 hex>, or count out of range */
	TP_SEAL_SHORT,		/* fewer words before the seal than it counts */
	TP_SEAL_CRC,		/* the words before it are not the ones sealed */
};

/*
 * Checks the seal of line, which must be its last word: on TP_SEAL_OK,
 * [*start, *end) is the stub's span (the sealed words; the seal itself
 * begins after *end).
 */
enum tp_seal_err tp_seal_span(const char *line, size_t *start, size_t *end);

/* The reason in words, for an error record. */
const char *tp_seal_why(enum tp_seal_err e);

/* The check of the contract's row timeprobe.seal: NULL, or why malformed. */
const char *tp_seal_check(const char *v, size_t n);

#endif
