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

struct tp_clean_report {
	enum tp_encoding encoding;
	int bom;			/* the file began with a byte-order mark */
	unsigned int long_words;	/* single words longer than the line: dropped */
	unsigned int cut_words;		/* words past the end of the line: dropped */
	size_t long_word_bytes;		/* the first long word's length */
	unsigned int closed_quotes;	/* lines that ended inside quotes: closed */
	size_t len;			/* of the clean line */
};

/* The file's encoding from its BOM or, without one, from where its NUL bytes are. */
enum tp_encoding tp_cmdfile_encoding(const uint8_t *p, size_t n, int *bom);

/* "UTF-8", "UTF-16LE", "UTF-16BE" */
const char *tp_encoding_name(enum tp_encoding e);

/*
 * Cleans cmdline.txt: decodes UTF-16LE/BE (with or without a BOM, see
 * tp_cmdfile_encoding) to UTF-8, drops a UTF-8 BOM, skips lines whose first
 * non-blank character is '#', turns newlines and runs of blanks outside
 * double quotes into one space, drops other control characters, trims both
 * ends, stops at a NUL. A line that ends inside double quotes gets its
 * closing quote there (the kernel would otherwise take the rest of the
 * command line into that word). Writes a NUL-terminated line of at most cap - 1
 * bytes and returns its length. A word longer than cap - 1 bytes alone is
 * dropped and the next words kept; when the words stop fitting, the line
 * ends at the last word that fit. rep may be NULL.
 */
size_t tp_cmdline_clean(char *out, size_t cap, const void *in, size_t in_len,
			struct tp_clean_report *rep);

#endif
