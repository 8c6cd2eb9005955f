// SPDX-License-Identifier: MIT
/* Pure helpers of save.c: partition identity and result file sequence. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "save.h"

int bootpart_to_partuuid(const char *bp, char *out, size_t len)
{
	unsigned sig, part;
	char tail;

	if (!strncmp(bp, "gpt:", 4)) {
		const char *g = bp + 4;

		/* 8-4-4-4-12 hex digits */
		if (strlen(g) != 36)
			return -1;
		for (int i = 0; i < 36; i++) {
			int dash = i == 8 || i == 13 || i == 18 || i == 23;

			if (dash ? g[i] != '-' : !isxdigit((unsigned char)g[i]))
				return -1;
		}
		snprintf(out, len, "%s", g);
		for (char *p = out; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		return 0;
	}
	if (!strncmp(bp, "mbr:", 4) && sscanf(bp + 4, "%8x:%u%c", &sig, &part, &tail) == 2 &&
	    part >= 1 && part <= 255) {
		snprintf(out, len, "%08x-%02x", sig, part);
		return 0;
	}
	return -1;
}

unsigned next_sequence(const char *const *names, size_t n)
{
	unsigned max = 0;

	for (size_t i = 0; i < n; i++) {
		char *end;
		unsigned long v = strtoul(names[i], &end, 10);

		if (end != names[i] && *end == '-' && v > max && v < 100000000)
			max = (unsigned)v;
	}
	return max + 1;
}
