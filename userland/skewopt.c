// SPDX-License-Identifier: MIT
/* The injected skew from the suite's options; see skewopt.h. */
#include <string.h>

#include "skewopt.h"

int skewopt_get(const struct options *o, struct tp_skew *k)
{
	int found = 0;

	memset(k, 0, sizeof(*k));
	for (size_t i = 0; o && i < o->inject.n; i++)
		found |= !tp_skew_parse(o->inject.v[i], strlen(o->inject.v[i]), k);
	return found;
}

int skewopt_is_item(const char *item)
{
	struct tp_skew k;

	return !tp_skew_parse(item, strlen(item), &k);
}
