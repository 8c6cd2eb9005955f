/* SPDX-License-Identifier: MIT */
/*
 * The joint between the stub and PID 1, for tests: the stub's values go
 * into its stub_handoff record by the stub's code (common/stubfile.c), after
 * whatever other records of the stub a test gives (`calib`, the per-CPU
 * records of common/stubcpu.h), into the newc cpio the stub appends to the
 * initramfs, and back out through PID 1's reader (userland/stubread.c) into
 * one struct stub_handoff, as in a boot.
 */
#ifndef TP_TEST_STUBJOINT_H
#define TP_TEST_STUBJOINT_H

#include <stdint.h>
#include <string.h>

#include "../../common/record.h"
#include "../../common/stubfile.h"
#include "../../userland/stubcpus.h"
#include "../../userland/stubread.h"

/*
 * The stub's archive holding its file: the records of before (whole TP1
 * lines, NULL: none), then v's stub_handoff record; its length.
 */
static __attribute__((unused)) size_t stub_archive_with(const char *before,
							const struct tp_stub_values *v,
							uint8_t *out, size_t cap)
{
	static struct tp_rec r;
	static char text[1u << 16];
	size_t n = before ? strlen(before) : 0;
	const char *line;
	struct tp_cpio c;

	if (n + TP_REC_MAX > sizeof(text))
		return 0;
	memcpy(text, before ? before : "", n);
	tp_rec_begin(&r, TP_STUB_HANDOFF);
	tp_stub_handoff(&r, v);
	if ((line = tp_rec_finish(&r)) != NULL) {
		memcpy(text + n, line, r.len);
		n += r.len;
	}
	tp_cpio_init(&c, out, cap);
	tp_cpio_stub(&c, text, n);
	return c.overflow ? 0 : c.len;
}

static __attribute__((unused)) size_t stub_archive(const struct tp_stub_values *v, uint8_t *out,
						   size_t cap)
{
	return stub_archive_with(NULL, v, out, cap);
}

/* PID 1's side: the file out of the archive into *st (with room for its CPUs); values taken. */
static __attribute__((unused)) unsigned int suite_archive(const uint8_t *a, size_t n,
							  struct stub_handoff *st,
							  struct opt_errors *errs)
{
	static struct stubcpus cpus;
	struct stubfile_report rep = { 0 };
	size_t len = 0;
	const char *t = tp_cpio_find(a, n, TP_STUB_FILE, &len);

	*st = (struct stub_handoff){ .cpus = &cpus };
	if (t)
		stubfile_apply(st, t, len, errs, 0, &rep);
	return rep.values;
}

/* Both: the records of before and v sent across into *st. */
static __attribute__((unused)) unsigned int through_stub_file_with(const char *before,
								   const struct tp_stub_values *v,
								   struct stub_handoff *st,
								   struct opt_errors *errs)
{
	static uint8_t a[1u << 17];

	return suite_archive(a, stub_archive_with(before, v, a, sizeof(a)), st, errs);
}

static __attribute__((unused)) unsigned int through_stub_file(const struct tp_stub_values *v,
							      struct stub_handoff *st,
							      struct opt_errors *errs)
{
	return through_stub_file_with(NULL, v, st, errs);
}

#endif
