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

size_t tp_ucs2_to_utf8(char *out, size_t cap, const uint16_t *in)
{
	size_t n = 0;

	if (!cap)
		return 0;
	for (; *in; in++) {
		uint32_t u = *in;
		size_t need = u < 0x80 ? 1 : u < 0x800 ? 2 : 3;

		if (n + need >= cap)
			break;
		if (need == 1) {
			out[n++] = (char)u;
		} else if (need == 2) {
			out[n++] = (char)(0xc0 | u >> 6);
			out[n++] = (char)(0x80 | (u & 0x3f));
		} else {
			out[n++] = (char)(0xe0 | u >> 12);
			out[n++] = (char)(0x80 | ((u >> 6) & 0x3f));
			out[n++] = (char)(0x80 | (u & 0x3f));
		}
	}
	out[n] = 0;
	return n;
}

int tp_ucs2_is_line(const uint16_t *u, const char *line)
{
	char back[4 * 2048];
	size_t i;

	for (i = 0; u[i]; i++)
		if (u[i] < 0x20 || u[i] == 0x7f || (u[i] >= 0xd800 && u[i] < 0xe000))
			return 0;
	tp_ucs2_to_utf8(back, sizeof(back), u);
	for (i = 0; back[i] && back[i] == line[i]; i++)
		;
	return back[i] == line[i];
}
