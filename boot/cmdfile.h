/* SPDX-License-Identifier: MIT */
/*
 * cmdline.txt to one clean line, EFI-free (docs/stub.md, "cmdline.txt").
 * The file is hostile: any encoding a text editor may save, any length.
 * Tested by tests/unit/test_bootcmd.c.
 */
#ifndef TP_BOOT_CMDFILE_H
#define TP_BOOT_CMDFILE_H

#include <stddef.h>
#include <stdint.h>

/* Largest cmdline.txt read; the rest of a bigger file is ignored. */
#define TP_CMDLINE_FILE_MAX 16384

enum tp_encoding { TP_ENC_UTF8, TP_ENC_UTF16LE, TP_ENC_UTF16BE };

/* Refused sequences the report names by offset; more are only counted. */
#define TP_CLEAN_BAD_MAX 8

struct tp_clean_report {
	enum tp_encoding encoding;
	int bom;			/* the file began with a byte-order mark */
	unsigned int long_words;	/* single words longer than the line: dropped */
	unsigned int cut_words;		/* words past the end of the line: dropped */
	size_t long_word_bytes;		/* the first long word's length */
	unsigned int closed_quotes;	/* lines that ended inside quotes: closed */
	unsigned int bad_words;		/* words holding a refused character: dropped */
	unsigned int refused;		/* refused sequences in all */
	unsigned int n_bad;		/* entries of bad[] used */
	struct {
		size_t offset;		/* byte offset in the file of the refused sequence */
		const char *why;	/* "overlong form", "surrogate", ... */
	} bad[TP_CLEAN_BAD_MAX];	/* the first refused sequences */
	size_t len;			/* of the clean line */
};

/* The file's encoding from its BOM or, without one, from where its NUL bytes are. */
enum tp_encoding tp_cmdfile_encoding(const uint8_t *p, size_t n, int *bom);

/* "UTF-8", "UTF-16LE", "UTF-16BE" */
const char *tp_encoding_name(enum tp_encoding e);

/*
 * Cleans cmdline.txt: decodes UTF-16LE/BE (with or without a BOM, see
 * tp_cmdfile_encoding) to UTF-8, drops a UTF-8 BOM, skips lines whose first
 * non-blank character is '#' (LF, CRLF and CR alone end a line), turns
 * newlines and runs of blanks outside double quotes into one space, trims
 * both ends. A U+0000 is refused like a control character: its word is
 * dropped, the rest of the file read. Words end where Linux ends them
 * (common/words.h): a byte 0xA0 outside quotes (of U+00A0, `Р`, ...) ends
 * one and is kept as it is. Text is
 * checked as Unicode (RFC 3629, 3; Unicode 15, Table 3-7): an ill-formed
 * UTF-8 sequence (overlong forms such as C0 80 for U+0000 or C0 8A for a
 * newline, surrogates, stray or missing continuation bytes), a lone UTF-16
 * surrogate, a character outside the BMP (LoadOptions are UCS-2) and a
 * control character other than tab, newline, CR, VT and FF (U+0001-U+001F,
 * U+007F-U+009F) are refused: the word holding it is dropped whole, the
 * other words kept, and rep->bad[] names where (Linux's EFI stub would end
 * the line at a U+0000 or newline, so that a forged word would be last). A line that ends inside double quotes gets its
 * closing quote there (the kernel would otherwise take the rest of the
 * command line into that word). Writes a NUL-terminated line of at most cap - 1
 * bytes and returns its length. A word longer than cap - 1 bytes alone is
 * dropped and the next words kept; when the words stop fitting, the line
 * ends at the last word that fit. rep may be NULL.
 */
size_t tp_cmdline_clean(char *out, size_t cap, const void *in, size_t in_len,
			struct tp_clean_report *rep);

#endif
