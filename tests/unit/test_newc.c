// SPDX-License-Identifier: MIT
/*
 * common/newc.c: the stub's check of a user initrd= file (the forgeries of
 * issue 50: an entry whose c_filesize swallows the stub's archive, a stray
 * byte after TRAILER!!!, a file under run/timeprobe/), and the lookup
 * PID 1's tests use; common/stubfile.c's GUID and record types.
 */
#include <stdio.h>
#include <string.h>

#include "newc.h"
#include "stubfile.h"
#include "tap.h"

static unsigned char a[4096];

/* An archive of its entries' names (directories when they end in '/'), then the trailer. */
static size_t build(const char *const *names, size_t nul_pad)
{
	struct tp_cpio c;

	tp_cpio_init(&c, a, sizeof(a));
	for (size_t i = 0; names[i]; i++) {
		size_t n = strlen(names[i]);
		char nm[128];

		snprintf(nm, sizeof(nm), "%.*s", (int)(n && names[i][n - 1] == '/' ? n - 1 : n), names[i]);
		if (n && names[i][n - 1] == '/')
			tp_cpio_dir(&c, nm);
		else
			tp_cpio_file(&c, nm, "data\n", 5);
	}
	tp_cpio_end(&c);
	memset(a + c.len, 0, nul_pad);
	return c.len + nul_pad;
}

static enum tp_initrd_check check(size_t n, const char **why)
{
	const char *name;
	size_t nlen;

	return tp_initrd_check(a, n, why, &name, &nlen);
}

static void good(void)
{
	const char *const names[] = { "bin/", "bin/init", "runner", "run/", "run/other/x", 0 };
	const char *why;
	size_t n = build(names, 0), len;

	is_int(check(n, &why), TP_INITRD_OK, "a good archive is accepted");
	is_int(check(build(names, 509), &why), TP_INITRD_OK, "NUL padding after TRAILER!!! accepted");
	build(names, 0);
	ok(tp_cpio_find(a, n, "bin/init", &len) && len == 5, "find: a file's data");
	ok(!tp_cpio_find(a, n, "bin", &len), "find: a directory is no file");
	is_int(check(0, &why), TP_INITRD_MALFORMED, "an empty file: no TRAILER!!!");
}

static void forged(void)
{
	const char *const stub[] = { "run/", "run/timeprobe/", "run/timeprobe/stub.tp1", 0 };
	const char *const spelt[][3] = {
		{ "/run/timeprobe/stub.tp1", 0 }, { "./run//./timeprobe/x", 0 },
		{ "run/timeprobe", 0 }, { "bin/../run/x", 0 },
	};
	const char *why, *name;
	size_t n = build(stub, 0), nlen;

	is_int(tp_initrd_check(a, n, &why, &name, &nlen), TP_INITRD_STUB_PATH,
	       "an entry under run/timeprobe/ is refused");
	ok(name && nlen == strlen("run/timeprobe") && !strncmp(name, "run/timeprobe", nlen),
	   "the entry is named: %.*s", (int)nlen, name ? name : "");
	for (size_t i = 0; i < sizeof(spelt) / sizeof(spelt[0]); i++)
		is_int(check(build(spelt[i], 0), &why), TP_INITRD_STUB_PATH, spelt[i][0]);
	{
		struct tp_cpio c;

		tp_cpio_init(&c, a, sizeof(a));
		tp_cpio_file(&c, "run", "x", 1);	/* "run" as no directory: a file or symlink */
		tp_cpio_end(&c);
		is_int(check(c.len, &why), TP_INITRD_STUB_PATH, "\"run\" that is no directory");
	}
}

/* The forgeries: c_filesize past the end, and a stray byte after the trailer. */
static void malformed(void)
{
	const char *const names[] = { "bin/init", 0 };
	const char *why;
	size_t n = build(names, 0);
	char f[9];

	a[n] = 'x';
	is_int(check(n + 1, &why), TP_INITRD_MALFORMED, "TRAILER!!! and one stray byte");
	is_str(why, "bytes other than NUL padding after its TRAILER!!!", "said why");
	/* bin/init's c_filesize (field 6) made larger than the archive */
	snprintf(f, sizeof(f), "%08x", 100000u);
	memcpy(a + 6 + 8 * 6, f, 8);
	is_int(check(n, &why), TP_INITRD_MALFORMED, "an entry whose c_filesize runs past the end");
	is_str(why, "an entry's c_filesize runs past the end", "said why");
	n = build(names, 0);
	is_int(check(n - 124, &why), TP_INITRD_MALFORMED, "cut before its TRAILER!!!");
	a[0] = 'X';
	is_int(check(n, &why), TP_INITRD_MALFORMED, "no newc magic");
}

static void compressed(void)
{
	static const unsigned char gz[] = { 0x1f, 0x8b, 8, 0 }, zst[] = { 0x28, 0xb5, 0x2f, 0xfd },
				   xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	const char *why;

	memcpy(a, gz, sizeof(gz));
	is_int(check(64, &why), TP_INITRD_COMPRESSED, "gzip magic");
	is_str(why, "gzip", "named");
	memcpy(a, zst, sizeof(zst));
	is_int(check(64, &why), TP_INITRD_COMPRESSED, "zstd magic");
	memcpy(a, xz, sizeof(xz));
	is_int(check(64, &why), TP_INITRD_COMPRESSED, "xz magic");
}

static void shared(void)
{
	char s[40];
	const struct tp_guid *g = &tp_vendor_guid;

	snprintf(s, sizeof(s), "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", g->d1, g->d2, g->d3,
		 g->d4[0], g->d4[1], g->d4[2], g->d4[3], g->d4[4], g->d4[5], g->d4[6], g->d4[7]);
	is_str(s, TP_VENDOR_GUID_STR, "the vendor GUID and its efivarfs spelling agree");
	ok(tp_stub_type("calib_summary", 13) && tp_stub_type(TP_STUB_HANDOFF, strlen(TP_STUB_HANDOFF)),
	   "the stub's types are the stub's");
	ok(!tp_stub_type("verdict", 7) && !tp_stub_type("stub_", 5), "others are not");
}

int main(void)
{
	good();
	forged();
	malformed();
	compressed();
	shared();
	return tap_done();
}
