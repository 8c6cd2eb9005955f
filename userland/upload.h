/* SPDX-License-Identifier: MIT */
/*
 * After the run: the results file PUT to the lab's HTTP server
 * (timeprobe.upload=, --upload=) and the headline figures to its
 * Pushgateway (timeprobe.push=, --push=), through http.c. Each attempt is a
 * console line, each transfer an `upload` record (docs/records.md); a
 * failure loses nothing (the records are on the consoles and saved where
 * they can be) and ends within the limit it announced. docs/lab.md.
 */
#ifndef TP_UPLOAD_H
#define TP_UPLOAD_H

#include <stddef.h>
#include "../common/recdecl.h"

/* The announced limit of one transfer, its tries and their backoff included. */
#define UPLOAD_LIMIT_S 60
#define UPLOAD_TRIES 3

/*
 * PUTs data[0..len) (the results file, its records' CRCs intact) to
 * URL's PATH/<machine id>/<NNNN>.tp1: the machine id is the run record's
 * own, NNNN the first number the server has no file for. 0 when stored.
 */
int upload_results(const char *url, const char *data, size_t len);
/*
 * PUTs an OpenMetrics text (no timestamps) to URL's
 * /metrics/job/timeprobe/instance/<machine id>, the machine id read from
 * the run record in records[0..rlen). 0 when stored.
 */
int upload_push(const char *url, const char *records, size_t rlen, const char *text, size_t len);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key upload_rec_keys[];

#endif
