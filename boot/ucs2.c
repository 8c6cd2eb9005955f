// SPDX-License-Identifier: MIT
/* UTF-8 to UCS-2 for LoadOptions; see ucs2.h. EFI-free. */
#include "ucs2.h"

size_t tp_utf8_to_ucs2(uint16_t *out, size_t cap_units, const char *in)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = 0;

	if (!cap_units)
		return 0;
	while (*p && n + 1 < cap_units) {
		uint32_t cp;
		int extra;

		if (p[0] < 0x80) {
			cp = p[0];
			extra = 0;
		} else if ((p[0] & 0xe0) == 0xc0) {
			cp = p[0] & 0x1f;
			extra = 1;
		} else if ((p[0] & 0xf0) == 0xe0) {
			cp = p[0] & 0x0f;
			extra = 2;
		} else if ((p[0] & 0xf8) == 0xf0) {
			cp = p[0] & 0x07;
			extra = 3;
		} else {
			out[n++] = '?';
			p++;
			continue;
		}
		p++;
		for (int i = 0; i < extra; i++) {
			if ((*p & 0xc0) != 0x80) {
				cp = '?';
				extra = -1;
				break;
			}
			cp = cp << 6 | (*p++ & 0x3f);
		}
		if (extra == 3 || (cp >= 0xd800 && cp < 0xe000))
			cp = 0xfffd;
		out[n++] = (uint16_t)cp;
	}
	out[n] = 0;
	return n;
}
