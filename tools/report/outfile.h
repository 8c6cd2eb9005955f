/* SPDX-License-Identifier: MIT */
/*
 * Every file tp-report writes under a name it was given (--datasheet,
 * --textfile, --html, --plot and their files) is written through here:
 * under a fresh name of its own beside the target (mkstemp, so nothing
 * placed there beforehand, a symlink least of all, is written through),
 * flushed, synced, closed and checked, then renamed over the name. A reader
 * of the name sees the old file or the whole new one, never half of it.
 */
#ifndef TP_REPORT_OUTFILE_H
#define TP_REPORT_OUTFILE_H

#include <stdio.h>

/* A stream writing the file that will be path; NULL after saying why on stderr. */
FILE *outfile_open(const char *path);

/*
 * Ends what outfile_open() began: 0 when the whole file is at its name;
 * -1 after saying why on stderr, the temporary removed and the name as it was.
 */
int outfile_close(FILE *f);

/* Gives up what outfile_open() began: the temporary removed, the name as it was. */
void outfile_abort(FILE *f);

#endif
