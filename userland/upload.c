// SPDX-License-Identifier: MIT
/* The results file and the headline figures to the lab's servers; see upload.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/announce.h"
#include "../common/buf.h"
#include "http.h"
#include "recread.h"
#include "sink.h"
#include "upload.h"

#define CONNECT_MS 3000
#define TRY_MS 10000
#define SEQ_MAX 9999

/* The run record's machine_id (8 hex digits, summary.c), or "unknown". */
static void machine_id_of(const char *data, size_t len, char *id, size_t n)
{
	const char *pos = data;
	struct rec_view r;

	snprintf(id, n, "unknown");
	while (recread_next(&pos, data + len, &r))
		if (recread_is(&r, "type", "run") && recread_str(&r, "machine_id", id, n)) {
			if (strlen(id) != 8 || strspn(id, "0123456789abcdef") != 8)
				snprintf(id, n, "unknown");
			return;
		}
}

/* The `upload` record of one transfer. */
static void record(const char *what, const char *url, const struct http_reply *r, size_t bytes,
		   int tries, int64_t start_ns)
{
	struct tp_rec rec;
	int ok = r->status >= 200 && r->status < 300;

	tp_rec_begin(&rec, "upload");
	tp_rec_str(&rec, "what", what);
	tp_rec_str(&rec, "url", url);
	tp_rec_bool(&rec, "ok", ok);
	if (r->status)
		tp_rec_int(&rec, "status", r->status);
	else
		tp_rec_null(&rec, "status");
	tp_rec_str(&rec, "status_text", r->status ? r->text : "");
	if (!ok)
		tp_rec_str(&rec, "reason", r->status ? "the server refused it" : r->why);
	tp_rec_uint(&rec, "bytes", bytes);
	tp_rec_int(&rec, "tries", tries);
	tp_rec_int(&rec, "elapsed_ms", (http_now_ns() - start_ns) / 1000000);
	sink_emit(&rec);
}

/* An `error` record for a URL that cannot be used at all (it does not resolve). */
static void error_record(const char *option, const char *url, const char *why)
{
	struct tp_rec rec;

	tp_rec_begin(&rec, "error");
	tp_rec_str(&rec, "option", option);
	tp_rec_str(&rec, "value", url);
	tp_rec_str(&rec, "reason", why);
	sink_emit(&rec);
	sink_human("upload: %s: %s\n", url, why);
}

/* Up to UPLOAD_TRIES attempts with backoff (1 s, 2 s) before deadline; 4xx is final. */
static int send_tries(const struct tp_url *u, const char *path, const char *ctype, const char *body,
		      size_t len, int64_t deadline, struct http_reply *r)
{
	int tries = 0;

	for (;;) {
		int64_t end = http_now_ns() + (int64_t)TRY_MS * 1000000;

		tries++;
		http_request(u, "PUT", path, ctype, body, len, CONNECT_MS, end < deadline ? end : deadline, r);
		if (r->status)
			sink_human("upload: %d %s http://%s:%u%s\n", r->status, r->text, u->host, u->port, path);
		else
			sink_human("upload: failed (%s) http://%s:%u%s\n", r->why, u->host, u->port, path);
		if ((r->status && r->status < 500) || tries == UPLOAD_TRIES)
			return tries;
		if (http_now_ns() + ((int64_t)1000000000 << (tries - 1)) >= deadline)
			return tries;
		sleep(1u << (tries - 1));
	}
}

/* The first NNNN with no file under dir (HEAD answers other than 200), 1 when the server says nothing. */
static unsigned next_free(const struct tp_url *u, const char *dir, int64_t deadline)
{
	char path[TP_URL_MAX + 128];
	struct http_reply r;

	for (unsigned seq = 1; seq <= SEQ_MAX; seq++) {
		int64_t end = http_now_ns() + (int64_t)TRY_MS * 1000000;

		snprintf(path, sizeof(path), "%s%04u.tp1", dir, seq);
		if (http_request(u, "HEAD", path, "application/octet-stream", 0, 0, CONNECT_MS,
				 end < deadline ? end : deadline, &r) != 200)
			return seq;
	}
	return SEQ_MAX;
}

static void announce(const char *what)
{
	char line[128];
	struct tp_buf b;

	tp_buf_init(&b, line, sizeof(line));
	tp_announce(&b, what, UPLOAD_LIMIT_S);
	sink_human("timeprobe: %s\n", line);
}

/* Parses url; an `error` record and -1 when it does not resolve (its form the word check passed). */
static int usable(const char *option, const char *url, struct tp_url *u)
{
	const char *why = tp_url_parse(url, strlen(url), u);

	if (!why)
		why = http_resolve_check(u->host);
	if (why)
		error_record(option, url, why);
	return why ? -1 : 0;
}

/* The PUT of one transfer and its `upload` record; 0 when stored (2xx). */
static int put(const char *what, const struct tp_url *u, const char *path, const char *ctype,
	       const char *body, size_t len, int64_t start)
{
	char full[TP_URL_MAX + TP_URL_HOST_MAX + 160];
	struct http_reply r;
	int tries = send_tries(u, path, ctype, body, len, start + (int64_t)UPLOAD_LIMIT_S * 1000000000, &r);

	snprintf(full, sizeof(full), "http://%s:%u%s", u->host, u->port, path);
	record(what, full, &r, len, tries, start);
	return r.status >= 200 && r.status < 300 ? 0 : -1;
}

/* u's path with one '/' after it. */
static const char *slash(const struct tp_url *u)
{
	return u->path[strlen(u->path) - 1] == '/' ? "" : "/";
}

int upload_results(const char *url, const char *data, size_t len)
{
	int64_t start = http_now_ns();
	char id[64], dir[TP_URL_MAX + 80], path[TP_URL_MAX + 128];
	struct tp_url u;

	if (usable("upload", url, &u))
		return -1;
	announce("uploading the results");
	machine_id_of(data, len, id, sizeof(id));
	snprintf(dir, sizeof(dir), "%s%s%s/", u.path, slash(&u), id);
	snprintf(path, sizeof(path), "%s%04u.tp1", dir,
		 next_free(&u, dir, start + (int64_t)UPLOAD_LIMIT_S * 1000000000));
	return put("results", &u, path, "application/octet-stream", data, len, start);
}

int upload_push(const char *url, const char *records, size_t rlen, const char *text, size_t len)
{
	int64_t start = http_now_ns();
	char id[64], path[TP_URL_MAX + 128];
	struct tp_url u;

	if (usable("push", url, &u))
		return -1;
	announce("pushing the headline figures");
	machine_id_of(records, rlen, id, sizeof(id));
	snprintf(path, sizeof(path), "%s%smetrics/job/timeprobe/instance/%s", u.path, slash(&u), id);
	return put("figures", &u, path, "text/plain; version=0.0.4", text, len, start);
}

/* What the keys of an upload record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key upload_rec_keys[] = {
	{ "upload", "*", TP_KEY_CONTEXT, "the results file or the figures sent to a server after the run: URL, status, bytes, tries" },
	TP_REC_KEYS_END,
};
