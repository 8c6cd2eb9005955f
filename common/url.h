/* SPDX-License-Identifier: MIT */
/*
 * The one URL form the appliance sends to (timeprobe.upload=, timeprobe.push=,
 * docs/lab.md): http://HOST[:PORT][/PATH]. HOST is a DNS name or an IPv4
 * address (letters, digits, '.', '-'); PORT 1..65535, 80 when absent; PATH
 * '/' when absent, of URL path characters only, no "." or ".." segment, no
 * query or fragment. Anything else (https://, user@, [IPv6], spaces,
 * controls, non-ASCII) is refused with a reason. Freestanding: the stub's
 * word check and the suite's HTTP client read the same rules.
 */
#ifndef TP_COMMON_URL_H
#define TP_COMMON_URL_H

#include <stddef.h>

#define TP_URL_MAX 200		/* longest URL in bytes */
#define TP_URL_HOST_MAX 253	/* a DNS name's longest text form */
#define TP_URL_PORT_MAX 65535	/* a TCP port's largest number (RFC 793) */

struct tp_url {
	char host[TP_URL_HOST_MAX + 1];
	unsigned port;
	char path[TP_URL_MAX + 1];	/* starts with '/' */
};

/* Parses s[0..n) into u; NULL, or why it is refused (u is then undefined). */
const char *tp_url_parse(const char *s, size_t n, struct tp_url *u);
/* The word check of timeprobe.upload= and timeprobe.push= (common/words.c). */
const char *tp_url_check(const char *s, size_t n);

#endif
