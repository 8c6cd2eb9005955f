/* SPDX-License-Identifier: MIT */
/*
 * Log scanning: bytes of a serial capture or a saved result file in, a list
 * of TP1 records out (docs/records.md). A serial console mixes the records
 * with kernel messages, firmware escape sequences, CR LF line ends and the
 * odd garbled byte; this is the one place that knows about any of it.
 */
#ifndef TP_REPORT_SCAN_H
#define TP_REPORT_SCAN_H

#include <stddef.h>
#include <jansson.h>

#include "../../common/record.h"

/* A record split by a kernel message is looked for this many lines on. */
#define SCAN_JOIN_LINES 4

/*
 * A line longer than this (1 MiB), before its escapes are removed, is
 * skipped and counted: what is kept of a line stays bounded whatever the
 * input, and a capture that lost its line ends still holds a hundred
 * records of the longest kind in one line.
 */
#define SCAN_LINE_MAX (1 << 20)

/* How much of one file is read unless told otherwise (--max-input): 1 GiB. */
#define SCAN_INPUT_MAX (1ULL << 30)

struct scan_stats {
	size_t lines;
	size_t records;		/* CRC matched and the JSON parsed */
	size_t joined;		/* of those, put back together across a kernel message */
	size_t bad_crc;		/* complete (ends in " *" and 8 hex digits), but the CRC does not match */
	size_t too_long;	/* complete, but longer than TP_REC_LINE_MAX: no emitter writes it */
	size_t cut;		/* cut short: no CRC at the end, nothing to join */
	size_t unparsable;	/* CRC matched, but not a JSON object with a "type" */
	size_t damaged_tag;	/* a record's end (a '{' ... " *" and 8 hex digits) without its "TP1 {" */
	size_t long_lines;	/* longer than SCAN_LINE_MAX: skipped */
	unsigned long long bytes;	/* read by scan_file() */
	int capped;		/* scan_file() stopped at its limit with more to read */
	int full;		/* set by the reader: scan_file() stops at the next chunk */
};

struct rec {
	json_t *obj;		/* owned */
	const char *type;	/* inside obj */
	size_t line;		/* 1-based line of the file where it starts */
};

struct rec_list {
	struct rec *v;
	size_t n;
	size_t cap;
};

/* Records skipped as unreadable: the figure the user is told about. */
static inline size_t scan_corrupt(const struct scan_stats *st)
{
	return st->bad_crc + st->too_long + st->cut + st->unparsable + st->damaged_tag;
}

/*
 * Lines end in LF, CR LF or a lone CR (some terminal programs save those).
 * Cleans one line in place, as a terminal would have shown it: removes ANSI
 * CSI and OSC/DCS sequences (ECMA-48, 5.4 and 8.3.89), other escapes, CR and
 * the remaining C0 controls but TAB. Returns the new length.
 */
size_t scan_clean_line(char *s, size_t n);

/* Where "TP1 {" begins in s[0..n), or NULL. */
const char *scan_find_record(const char *s, size_t n);

/* 1 if s begins with a kernel timestamp "[   12.345678]", 0 if not. */
int scan_is_kernel_stamp(const char *s, size_t n);

/*
 * Gets each record as it is read, and with it the reference to r->obj: it
 * keeps what it needs and drops the rest.
 */
typedef void scan_fn(void *ctx, const struct rec *r);

/*
 * A scanner reads a log in pieces of any size: scan_feed() as bytes come,
 * scan_close() at the end. It passes each record to fn and counts what it
 * saw in st, in one pass: each byte is read a bounded number of times, and
 * it keeps one line (SCAN_LINE_MAX) and one waiting record, whatever the
 * input.
 */
struct scanner;
struct scanner *scan_open(scan_fn *fn, void *ctx, struct scan_stats *st);
void scan_feed(struct scanner *sc, const char *buf, size_t len);
/* Ends the last line and frees sc. */
void scan_close(struct scanner *sc);

/* Appends every record of buf to out (a scanner fed once). */
void scan_buffer(const char *buf, size_t len, struct rec_list *out, struct scan_stats *st);

/*
 * Scans a file ("-": stdin) in pieces, its first max_bytes at most: a
 * device that never ends (/dev/zero, a serial line) stops there, with
 * st->capped set when there was more. Returns 0 or -errno.
 */
int scan_file(const char *path, unsigned long long max_bytes, scan_fn *fn, void *ctx,
	      struct scan_stats *st);

void rec_list_free(struct rec_list *l);

#endif
