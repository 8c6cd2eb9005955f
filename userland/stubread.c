// SPDX-License-Identifier: MIT
/* The stub's file, read by PID 1; see stubread.h and docs/stub.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recread.h"
#include "sink.h"
#include "stubcpus.h"
#include "stubread.h"
#include "stubtrust.h"
#include "stubvals.h"
#include "../common/record.h"
#include "../common/stubfile.h"
#include "../common/words.h"

/* Largest file read: TP_STUB_CPUS_MAX (4 096) CPUs' records, about 1.2 KiB each, and room. */
#define STUBFILE_MAX (8u << 20)
#define STUBFILE_NAME "stub.tp1"

static void problem(struct opt_errors *errs, const char *value, const char *reason)
{
	struct opt_error *e;

	if (!errs || errs->n >= OPT_ERRORS_MAX)
		return;
	e = &errs->e[errs->n++];
	snprintf(e->name, sizeof(e->name), "%s", STUBFILE_NAME);
	snprintf(e->value, sizeof(e->value), "%s", value);
	snprintf(e->reason, sizeof(e->reason), "%s", reason);
	e->taken = 0;
	e->as_typed = 0;
}

/*
 * One member of a stub_handoff record: a row only the stub writes, once
 * (seen[] marks the rows taken), checked by its row and typed into st.
 */
static int take_member(struct stub_handoff *st, const struct rec_view *r, const struct rec_member *m,
		       struct opt_errors *errs, unsigned char *seen)
{
	static char val[TP_REC_MAX];
	char key[48], msg[160];
	const struct tp_word *w;
	const char *why;

	snprintf(key, sizeof(key), "%.*s", (int)(m->klen < 47 ? m->klen : 47), m->key);
	if (!strcmp(key, "type"))
		return 0;
	w = tp_word_find(key, strlen(key));
	if (!w || w->by != TP_BY_STUB) {
		problem(errs, key, "stub_handoff: not a value the stub hands over; ignored");
		return 0;
	}
	if (seen[w - tp_words]++) {
		problem(errs, key, "stub_handoff: a value given twice; the first kept");
		return 0;
	}
	if (m->vlen && m->val[0] == '"') {
		if (!recread_str(r, key, val, sizeof(val)))
			return 0;
	} else {
		snprintf(val, sizeof(val), "%.*s", (int)(m->vlen < 64 ? m->vlen : 64), m->val);
	}
	if ((why = stubvals_set(st, w, val, msg, sizeof(msg))) != NULL) {
		char what[64];

		snprintf(what, sizeof(what), "stub_handoff %s", key);
		problem(errs, what, why);
		return 0;
	}
	return 1;
}

static void take_handoff(struct stub_handoff *st, const struct rec_view *r, struct opt_errors *errs,
			 struct stubfile_report *rep, unsigned char *seen)
{
	struct rec_member m[TPW_COUNT + 2];
	size_t n = recread_members(r, m, sizeof(m) / sizeof(m[0]));

	for (size_t i = 0; i < n; i++)
		rep->values += (unsigned int)take_member(st, r, &m[i], errs, seen);
}

/*
 * A `calib` record into st->calib, a per-CPU record into st->cpus (when
 * there is one), or an error naming why not.
 */
static void take_record(struct stub_handoff *st, const struct rec_view *r, struct opt_errors *errs)
{
	const char *why;

	if ((why = stubvals_calib(st, r)) != NULL)
		problem(errs, "calib", why);
	if (st->cpus && (why = stubcpus_take(st->cpus, r)) != NULL)
		problem(errs, recread_is(r, "type", TP_SC_TSCSYNC) ? TP_SC_TSCSYNC : TP_SC_HWLAT, why);
}

void stubfile_apply(struct stub_handoff *st, const char *text, size_t len, struct opt_errors *errs,
		    void (*keep)(const char *line, size_t len), struct stubfile_report *rep)
{
	const char *p = text, *end = text + len;
	unsigned int handoffs = 0;
	unsigned char seen[TPW_COUNT] = { 0 };

	*rep = (struct stubfile_report){ .found = 1 };
	*st = (struct stub_handoff){ .found = 1, .cpus = st->cpus };
	if (st->cpus)
		stubcpus_init(st->cpus);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct rec_view r;
		long k = tp_rec_check(p, n, &r.json);

		if (k <= 0) {
			char at[32];

			snprintf(at, sizeof(at), "line %u", rep->records + rep->refused + 1);
			problem(errs, at, "not a whole TP1 record (its CRC, or cut): ignored");
			rep->refused++;
		} else {
			r.len = (size_t)k;
			rep->records++;
			if (keep)
				keep(p, nl ? n + 1 : n);
			if (recread_is(&r, "type", TP_STUB_HANDOFF)) {
				handoffs++;
				take_handoff(st, &r, errs, rep, seen);
			}
			take_record(st, &r, errs);
		}
		p = nl ? nl + 1 : end;
	}
	if (!handoffs)
		problem(errs, "stub_handoff", "the stub's file holds no stub_handoff record");
}

void stubfile_read(struct stub_handoff *st, struct opt_errors *errs, struct stubfile_report *rep)
{
	char *buf;
	ssize_t n;
	size_t len = 0;
	char hex[2 * TP_SHA256_LEN + 1];
	const char *why;
	int fd = open(TP_STUB_FILE_PATH, O_RDONLY | O_CLOEXEC);

	*rep = (struct stubfile_report){ 0 };
	if (fd < 0) {
		if (errno != ENOENT)
			problem(errs, TP_STUB_FILE_PATH, strerror(errno));
		return;
	}
	buf = malloc(STUBFILE_MAX);
	if (!st->cpus)
		st->cpus = calloc(1, sizeof(*st->cpus));	/* for the run: never freed */
	while (buf && len < STUBFILE_MAX && (n = read(fd, buf + len, STUBFILE_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (!buf) {
		problem(errs, TP_STUB_FILE_PATH, "out of memory");
		return;
	}
	if (!(why = stubtrust_check(buf, len, hex)))
		stubfile_apply(st, buf, len, errs, stubtrust_keep, rep);
	else
		problem(errs, hex, why);
	free(buf);
}
