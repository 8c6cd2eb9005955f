// SPDX-License-Identifier: MIT
/* SMBIOS OEM strings as command-line words; see smbios.h. */
#include <string.h>

#include "smbios.h"

static const char oem_prefix[] = "timeprobe.";

/* One string of a structure's string set: printable, no space, our prefix. */
static int word_ok(const char *s, size_t n)
{
	if (n <= sizeof(oem_prefix) - 1 || strncmp(s, oem_prefix, sizeof(oem_prefix) - 1))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return 0;
	return 1;
}

static int append(char *out, size_t outlen, const char *s, size_t n)
{
	size_t used = strlen(out), sep = used ? 1 : 0;

	if (used + sep + n + 1 > outlen)
		return -1;
	if (sep)
		out[used++] = ' ';
	memcpy(out + used, s, n);
	out[used + n] = 0;
	return 0;
}

/*
 * The string set of the structure at p (formatted length hdr_len): calls
 * take() for each string; returns the offset just past the set, or 0 when
 * the set runs past end.
 */
static size_t string_set(const unsigned char *p, size_t avail, size_t hdr_len,
			 int is_oem, char *out, size_t outlen, int *taken)
{
	size_t i = hdr_len;

	if (i + 2 > avail)
		return 0;
	if (!p[i] && !p[i + 1])
		return i + 2;	/* no strings */
	while (i < avail) {
		const char *s = (const char *)p + i;
		size_t n = strnlen(s, avail - i);

		if (i + n >= avail)
			return 0;	/* unterminated */
		if (is_oem && word_ok(s, n) && *taken >= 0) {
			if (append(out, outlen, s, n))
				*taken = -1;
			else
				(*taken)++;
		}
		i += n + 1;
		if (i < avail && !p[i])
			return i + 1;
	}
	return 0;
}

int smbios_oem_words(const unsigned char *tbl, size_t len, char *out, size_t outlen)
{
	size_t off = 0;
	int taken = 0;

	if (!outlen)
		return -1;
	out[0] = 0;
	while (off + 4 <= len) {
		const unsigned char *p = tbl + off;
		size_t next;

		if (p[1] < 4)
			break;	/* a header shorter than itself: damaged */
		next = string_set(p, len - off, p[1], p[0] == SMBIOS_TYPE_OEM_STRINGS,
				  out, outlen, &taken);
		if (!next || p[0] == SMBIOS_TYPE_END)
			break;
		off += next;
	}
	return taken;
}
