/* SPDX-License-Identifier: MIT */
/*
 * The joint between the stub and PID 1, for tests: the stub's values go
 * into its stub_handoff record by the stub's code (common/stubfile.c), into
 * the newc cpio the stub appends to the initramfs, and back out through
 * PID 1's reader (userland/stubread.c), as in a boot.
 */
#ifndef TP_TEST_STUBJOINT_H
#define TP_TEST_STUBJOINT_H

#include <stdint.h>
#include <string.h>

#include "../../common/record.h"
#include "../../common/stubfile.h"
#include "../../userland/stubread.h"

/* The stub's archive holding its file with v's stub_handoff records; its length. */
static __attribute__((unused)) size_t stub_archive(const struct tp_stub_values *v, uint8_t *out, size_t cap)
{
	static struct tp_rec r;
	static char text[4 * TP_REC_MAX];
	size_t n = 0;
	struct tp_cpio c;

	for (int part = 0; part < TP_STUB_HANDOFF_PARTS; part++) {
		const char *line;

		tp_rec_begin(&r, TP_STUB_HANDOFF);
		if (!tp_stub_handoff(&r, v, part) || !(line = tp_rec_finish(&r)))
			continue;
		memcpy(text + n, line, r.len);
		n += r.len;
	}
	tp_cpio_init(&c, out, cap);
	tp_cpio_stub(&c, text, n);
	return c.overflow ? 0 : c.len;
}

/* PID 1's side: the file out of the archive, its values into o; how many taken. */
static __attribute__((unused)) unsigned int suite_archive(const uint8_t *a, size_t n, struct options *o,
				  struct opt_errors *errs)
{
	struct stubfile_report rep = { 0 };
	size_t len = 0;
	const char *t = tp_cpio_find(a, n, TP_STUB_FILE, &len);

	if (t)
		stubfile_apply(o, t, len, errs, 0, &rep);
	return rep.values;
}

/* Both: v sent across into o. */
static __attribute__((unused)) unsigned int through_stub_file(const struct tp_stub_values *v, struct options *o,
				      struct opt_errors *errs)
{
	static uint8_t a[65536];

	return suite_archive(a, stub_archive(v, a, sizeof(a)), o, errs);
}

#endif
