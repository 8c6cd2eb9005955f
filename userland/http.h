/* SPDX-License-Identifier: MIT */
/*
 * A small HTTP/1.1 client: one request (PUT, POST or HEAD) with a body of
 * known length (Content-Length), "Connection: close", to an IPv4 address
 * of the URL's host, within a connect limit and a total deadline. It reads
 * the status line and the headers, nothing more. See docs/lab.md.
 */
#ifndef TP_HTTP_H
#define TP_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include "../common/url.h"

struct http_reply {
	int status;		/* the status code; 0: no answer (why says what happened) */
	char text[64];		/* the reason phrase, printable ASCII only */
	char why[320];		/* when status is 0: resolve, connect, send or read failure */
};

/* CLOCK_MONOTONIC in ns. */
int64_t http_now_ns(void);

/*
 * Sends METHOD PATH to u's host and port with body[0..len) (none for
 * HEAD), content type ctype. Gives up connecting after connect_ms, and
 * everything at deadline_ns (http_now_ns()). Returns r->status.
 */
int http_request(const struct tp_url *u, const char *method, const char *path, const char *ctype,
		 const void *body, size_t len, int connect_ms, int64_t deadline_ns,
		 struct http_reply *r);

/* Parses "HTTP/1.x NNN text" at the start of buf[0..n) into r; 0, or -1 if it is not one. */
int http_status_parse(const char *buf, size_t n, struct http_reply *r);

/* 0 when host (a name or an IPv4 address) resolves to an IPv4 address, else why not. */
const char *http_resolve_check(const char *host);

#endif
