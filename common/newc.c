// SPDX-License-Identifier: MIT
/* newc cpio archives read: the walk, one file's lookup, a user initrd's check; see newc.h. */
#include "newc.h"
#include "buf.h"
#include "stubfile.h"

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* A header field: 8 hex digits, either case; -1 when not. */
static long field(const uint8_t *h, int i)
{
	uint32_t v = 0;

	for (int k = 0; k < 8; k++) {
		uint8_t d = h[6 + 8 * i + k];
		int x = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10 :
			d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;

		if (x < 0)
			return -1;
		v = v << 4 | (uint32_t)x;
	}
	return (long)v;
}

int tp_cpio_next(const void *p, size_t n, size_t *at, struct tp_cpio_entry *e, const char **why)
{
	const uint8_t *h = (const uint8_t *)p + *at;
	long mode, size, nsz;
	size_t data;

	if (*at > n || n - *at < TP_CPIO_HEADER)
		return 0;
	mode = field(h, 1), size = field(h, 6), nsz = field(h, 11);
	*why = "an entry without the newc magic 070701";
	if (!tp_streqn((const char *)h, 6, "070701") && !tp_streqn((const char *)h, 6, "070702"))
		return -1;
	*why = "an entry's header field is not hexadecimal";
	if (mode < 0 || size < 0 || nsz < 0 || field(h, 0) < 0)
		return -1;
	*why = "an entry's name runs past the end";
	if (nsz < 1 || (size_t)nsz > n - *at - TP_CPIO_HEADER)
		return -1;
	*why = "an entry's name has no NUL at its end";
	if (h[TP_CPIO_HEADER + nsz - 1])
		return -1;
	e->name = (const char *)h + TP_CPIO_HEADER;
	for (e->name_len = 0; e->name[e->name_len]; e->name_len++)
		;
	/* an empty entry may end the file before its name's padding */
	data = align4(*at + TP_CPIO_HEADER + (size_t)nsz);
	*why = "an entry's c_filesize runs past the end";
	if (size && (data > n || (size_t)size > n - data))
		return -1;
	e->mode = (uint32_t)mode;
	e->data = (const uint8_t *)p + (data < n ? data : n);
	e->size = (size_t)size;
	*at = align4(data + (size_t)size);
	return 1;
}

int tp_cpio_is_trailer(const struct tp_cpio_entry *e)
{
	return tp_streqn(e->name, e->name_len, "TRAILER!!!");
}

const void *tp_cpio_find(const void *p, size_t n, const char *name, size_t *len)
{
	struct tp_cpio_entry e;
	const char *why;
	size_t at = 0;

	while (tp_cpio_next(p, n, &at, &e, &why) == 1 && !tp_cpio_is_trailer(&e)) {
		if (tp_streqn(e.name, e.name_len, name) && (e.mode & 0170000) == 0100000) {
			*len = e.size;
			return e.data;
		}
	}
	return 0;
}

/* A compressor's magic, as Linux's decompress_method() knows them (lib/decompress.c). */
static const char *compressed(const uint8_t *p, size_t n)
{
	static const struct {
		uint8_t magic[6];
		size_t len;
		const char *name;
	} m[] = {
		{ { 0x1f, 0x8b }, 2, "gzip" },		{ { 0x1f, 0x9e }, 2, "gzip" },
		{ { 'B', 'Z', 'h' }, 3, "bzip2" },	{ { 0x5d, 0, 0 }, 3, "lzma" },
		{ { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, "xz" }, { { 0x89, 'L', 'Z', 'O' }, 4, "lzo" },
		{ { 0x02, 0x21, 0x4c, 0x18 }, 4, "lz4" },	{ { 0x28, 0xb5, 0x2f, 0xfd }, 4, "zstd" },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		size_t k = 0;

		while (k < m[i].len && k < n && p[k] == m[i].magic[k])
			k++;
		if (k == m[i].len)
			return m[i].name;
	}
	return 0;
}

/*
 * 1 when a name reaches into TP_STUB_DIR: its components (empty ones and
 * "." skipped, as a path lookup does) begin "run", "timeprobe", or are "run"
 * alone on an entry that is no directory (a symlink would move the stub's
 * file), or hold ".." (where it leads is not read here).
 */
static int stub_path(const struct tp_cpio_entry *e)
{
	const char *want[2] = { "run", "timeprobe" };
	size_t i = 0, k = 0, matched = 0, comps = 0;

	while (i < e->name_len) {
		for (k = i; k < e->name_len && e->name[k] != '/'; k++)
			;
		if (k - i == 2 && tp_streqn(e->name + i, 2, ".."))
			return 1;
		if (k > i && !(k - i == 1 && e->name[i] == '.')) {
			if (comps < 2 && tp_streqn(e->name + i, k - i, want[comps]))
				matched++;
			comps++;
		}
		i = k + 1;
	}
	if (matched == 2 && comps >= 2)
		return 1;
	return matched == 1 && comps == 1 && (e->mode & 0170000) != 0040000;
}

enum tp_initrd_check tp_initrd_check(const void *p, size_t n, const char **why, const char **name,
				     size_t *name_len)
{
	const uint8_t *b = p;
	struct tp_cpio_entry e;
	size_t at = 0;
	int r;

	*name = 0;
	*name_len = 0;
	if ((*why = compressed(b, n)) != 0)
		return TP_INITRD_COMPRESSED;
	while ((r = tp_cpio_next(p, n, &at, &e, why)) == 1) {
		*name = e.name;
		*name_len = e.name_len;
		if (tp_cpio_is_trailer(&e))
			break;
		*why = "an entry names the stub's directory " TP_STUB_DIR;
		if (stub_path(&e))
			return TP_INITRD_STUB_PATH;
	}
	if (r < 0)
		return TP_INITRD_MALFORMED;
	*name = 0;
	*name_len = 0;
	*why = "no TRAILER!!! at its end";
	if (r == 0)
		return TP_INITRD_MALFORMED;
	*why = "bytes other than NUL padding after its TRAILER!!!";
	for (; at < n; at++)
		if (b[at])
			return TP_INITRD_MALFORMED;
	*why = "a newc archive";
	return TP_INITRD_OK;
}
