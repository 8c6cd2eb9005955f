// SPDX-License-Identifier: MIT
/* SMBIOS OEM strings (type 11) as command-line words: userland/smbios.c. */
#include <string.h>

#include "../../userland/smbios.h"
#include "tap.h"

/* Appends one structure: a 4-byte header (+extra formatted bytes), strings. */
static size_t put(unsigned char *t, size_t off, int type, int extra, const char *const *s, int n)
{
	unsigned char *p = t + off;
	size_t i = 4 + (size_t)extra;

	p[0] = (unsigned char)type;
	p[1] = (unsigned char)(4 + extra);
	p[2] = p[3] = 0;
	memset(p + 4, n, (size_t)extra);	/* type 11: byte 4 is the count */
	for (int k = 0; k < n; k++) {
		memcpy(p + i, s[k], strlen(s[k]) + 1);
		i += strlen(s[k]) + 1;
	}
	if (!n)
		p[i++] = 0;
	p[i++] = 0;
	return off + i;
}

int main(void)
{
	static const char *const bios[] = { "EDK II", "0.0.0" };
	static const char *const oem[] = { "timeprobe.accel=kvm:host,-arch-capabilities",
		"other=1", "timeprobe.bad word", "timeprobe.profile=quick" };
	static const char *const oem2[] = { "timeprobe.hold=0" };
	unsigned char t[1024];
	char out[256];
	size_t n = 0;

	n = put(t, n, 0, 1, bios, 2);
	n = put(t, n, 11, 1, oem, 4);
	n = put(t, n, 1, 0, 0, 0);
	n = put(t, n, 11, 1, oem2, 1);
	n = put(t, n, SMBIOS_TYPE_END, 0, 0, 0);

	is_int(smbios_oem_words(t, n, out, sizeof(out)), 3, "three timeprobe words in two OEM structures");
	is_str(out, "timeprobe.accel=kvm:host,-arch-capabilities timeprobe.profile=quick timeprobe.hold=0",
	       "in table order; other words and words with spaces left out");

	is_int(smbios_oem_words(t, n - 4, out, sizeof(out)), 3, "no end structure: the walk stops at the table's end");

	/* The table cut in the middle of the first OEM string. */
	is_int(smbios_oem_words(t, 20, out, sizeof(out)), 0, "a string cut short is not taken");
	is_str(out, "", "nothing taken from a cut table");

	/* A damaged header (length < 4) ends the walk, keeping what came before. */
	{
		unsigned char d[1024];
		size_t m = put(d, 0, 11, 1, oem2, 1);

		d[m] = 1;
		d[m + 1] = 2;	/* length 2: impossible */
		is_int(smbios_oem_words(d, m + 8, out, sizeof(out)), 1, "a damaged header keeps the words before it");
	}

	is_int(smbios_oem_words(t, n, out, 50), -1, "an output too small for a word says so");
	is_str(out, "timeprobe.accel=kvm:host,-arch-capabilities", "and keeps the whole words before");
	is_int(smbios_oem_words(t, 0, out, sizeof(out)), 0, "an empty table has no words");

	return tap_done();
}
