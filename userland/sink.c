// SPDX-License-Identifier: MIT
/* The suite's output sink; see sink.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sink.h"
#include "timeutil.h"

#define MAX_OUTPUTS 4
#define RESULT_HEAD "TP1 {\"type\":\"result\""

static struct {
	int fd[MAX_OUTPUTS];
	unsigned what[MAX_OUTPUTS];	/* SINK_HUMAN, SINK_RECORDS or both */
	size_t n;
	int progress_fd, inplace;	/* -1: progress goes to every output */
	int shown;			/* an in-place line is on progress_fd */
	int fatal, write_err;
	size_t probe_cap, run_cap;
	char *saved;
	size_t len, cap;
	size_t probe_bytes;		/* kept for the current probe */
	unsigned long records, dropped, probe_dropped;
	uint64_t first_result_tsc;
} s = { .fd = { 1 }, .what = { SINK_HUMAN | SINK_RECORDS }, .n = 1, .progress_fd = -1,
	.probe_cap = SINK_PROBE_CAP, .run_cap = SINK_RUN_CAP };

void sink_set_outputs(const int *fds, size_t n, int fatal)
{
	s.n = 0;
	for (size_t i = 0; i < n && i < MAX_OUTPUTS; i++) {
		s.what[s.n] = SINK_HUMAN | SINK_RECORDS;
		s.fd[s.n++] = fds[i];
	}
	if (!s.n) {
		s.what[s.n] = SINK_HUMAN | SINK_RECORDS;
		s.fd[s.n++] = 1;
	}
	s.fatal = fatal;
}

void sink_set_output_kinds(int fd, unsigned what)
{
	for (size_t i = 0; i < s.n; i++)
		if (s.fd[i] == fd)
			s.what[i] = what;
}

int sink_add_output(int fd, unsigned what)
{
	if (s.n >= MAX_OUTPUTS)
		return -1;
	s.what[s.n] = what;
	s.fd[s.n++] = fd;
	return 0;
}

void sink_set_progress(int fd, int inplace)
{
	s.progress_fd = fd;
	s.inplace = fd >= 0 && inplace;
}

void sink_set_caps(size_t probe_bytes, size_t run_bytes)
{
	s.probe_cap = probe_bytes;
	s.run_cap = run_bytes;
}

/* fatal: a failed write is the run's write error (not for progress: a
 * terminal or stderr that fails stops nothing). */
static void write_all(int fd, const char *p, size_t n, int fatal)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (fatal && !s.write_err)
				s.write_err = w < 0 ? errno : EIO;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

/*
 * Keeps one record line; 0, or -1 when a cap or memory says no. The
 * parent's own records (a few per probe) are not capped: the results file
 * always has its run, error and end records.
 */
static int keep(const char *line, size_t len, int capped)
{
	if (capped && (s.probe_bytes + len > s.probe_cap || s.len + len > s.run_cap))
		return -1;
	if (s.len + len > s.cap) {
		size_t cap = s.cap ? s.cap : 65536;
		char *p;

		while (cap < s.len + len)
			cap *= 2;
		p = realloc(s.saved, cap);
		if (!p)
			return -1;
		s.saved = p;
		s.cap = cap;
	}
	memcpy(s.saved + s.len, line, len);
	s.len += len;
	s.probe_bytes += capped ? len : 0;
	return 0;
}

/* The in-place progress line, wiped before anything else is written. */
static void clear_progress(void)
{
	static const char wipe[] = "\r\033[K";

	if (!s.shown)
		return;
	s.shown = 0;
	write_all(s.progress_fd, wipe, sizeof(wipe) - 1, 0);
}

static void put(const char *line, size_t len, int capped)
{
	int rec = len >= 4 && !memcmp(line, "TP1 ", 4);

	clear_progress();
	for (size_t i = 0; i < s.n; i++)
		if (s.what[i] & (rec ? SINK_RECORDS : SINK_HUMAN))
			write_all(s.fd[i], line, len, s.fatal);
	if (!rec)
		return;
	s.records++;
	/* the boot timeline's first result (boottime.h): the emitter writes "type" first */
#if TP_HAVE_COUNTER
	if (!s.first_result_tsc && len > sizeof(RESULT_HEAD) &&
	    !memcmp(line, RESULT_HEAD, sizeof(RESULT_HEAD) - 1))
		s.first_result_tsc = tp_counter_ordered();
#endif
	if (keep(line, len, capped)) {
		s.dropped++;
		s.probe_dropped++;
	}
}

void sink_line(const char *line, size_t len)
{
	put(line, len, 1);
}

void sink_keep(const char *line, size_t len)
{
	if (keep(line, len, 0))
		s.dropped++;
}

void sink_emit(struct tp_rec *r)
{
	const char *line = tp_rec_finish(r);

	if (line)
		put(line, r->len, 0);
}

void sink_human(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	sink_line(buf, (size_t)n);
}

void sink_progress(const char *text, int keep)
{
	char line[256];
	int n;

	if (s.progress_fd < 0) {
		sink_human("%s\n", text);
		return;
	}
	clear_progress();
	n = snprintf(line, sizeof(line), s.inplace && !keep ? "\r%s\033[K" : "%s\n", text);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	write_all(s.progress_fd, line, (size_t)n, 0);
	s.shown = s.inplace && !keep;
}

void sink_progress_done(void)
{
	clear_progress();
}

int sink_progress_inplace(void)
{
	return s.inplace;
}

void sink_probe_begin(void)
{
	s.probe_bytes = 0;
	s.probe_dropped = 0;
}

unsigned long sink_probe_dropped(void)
{
	return s.probe_dropped;
}

int sink_write_error(void)
{
	return s.write_err;
}

uint64_t sink_first_result_tsc(void)
{
	return s.first_result_tsc;
}

unsigned long sink_records(void)
{
	return s.records;
}

unsigned long sink_dropped(void)
{
	return s.dropped;
}

const char *sink_saved(size_t *len)
{
	*len = s.len;
	return s.saved ? s.saved : "";
}
