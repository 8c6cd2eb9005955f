// SPDX-License-Identifier: MIT
/* The URL form of timeprobe.upload= and timeprobe.push=; see url.h. Freestanding. */
#include "url.h"
#include "buf.h"

static int starts(const char *s, size_t n, const char *p)
{
	size_t k = tp_strlen(p);

	return n >= k && tp_streqn(s, k, p);
}

static int host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-';
}

/* RFC 3986 pchar and '/', but '%' only before two hex digits (checked by the caller). */
static int path_char(char c)
{
	static const char extra[] = "-._~!$&'()*+,;=:@/%";

	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return 1;
	for (const char *e = extra; *e; e++)
		if (c == *e)
			return 1;
	return 0;
}

static int hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* HOST of s[0..n): its length (up to ':' or '/'), or why it is refused. */
static const char *parse_host(const char *s, size_t n, size_t *len, struct tp_url *u)
{
	size_t i = 0;

	if (n && s[0] == '[')
		return "IPv6 addresses are not supported: give a name or an IPv4 address";
	for (size_t k = 0; k < n && s[k] != '/'; k++)
		if (s[k] == '@')
			return "a user name (user@host) is not supported";
	while (i < n && s[i] != ':' && s[i] != '/') {
		if (!host_char(s[i]))
			return "the host has a character other than letters, digits, '.' and '-'";
		i++;
	}
	if (i == 0)
		return "no host after http://";
	if (i > TP_URL_HOST_MAX)
		return "the host is longer than " TP_STR(TP_URL_HOST_MAX) " characters";
	if (s[0] == '.' || s[0] == '-' || s[i - 1] == '-')
		return "the host starts or ends with '.' or '-'";
	for (size_t k = 0; k + 1 < i; k++)
		if (s[k] == '.' && s[k + 1] == '.')
			return "the host has an empty label ('..')";
	for (size_t k = 0; k < i; k++)
		u->host[k] = s[k];
	u->host[i] = 0;
	*len = i;
	return 0;
}

/* ":PORT" of s[0..n) (s[0] is ':'): its length, or why it is refused. */
static const char *parse_port(const char *s, size_t n, size_t *len, struct tp_url *u)
{
	size_t i = 1;
	unsigned v = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9') {
		if (i <= 6)
			v = v * 10 + (unsigned)(s[i] - '0');
		i++;
	}
	if (i == 1 || (i < n && s[i] != '/'))
		return "the port is not a number";
	if (i > 6 || v < 1 || v > TP_URL_PORT_MAX)
		return "the port is not in 1.." TP_STR(TP_URL_PORT_MAX);
	u->port = v;
	*len = i;
	return 0;
}

/* PATH of s[0..n) (empty, or starting with '/'), or why it is refused. */
static const char *parse_path(const char *s, size_t n, struct tp_url *u)
{
	size_t seg = 0;

	if (n == 0) {
		u->path[0] = '/';
		u->path[1] = 0;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '?' || s[i] == '#')
			return "a query or fragment ('?', '#') is not supported";
		if (!path_char(s[i]))
			return "the path has a character that is not allowed in a URL path";
		if (s[i] == '%' && (i + 2 >= n || !hex(s[i + 1]) || !hex(s[i + 2])))
			return "a '%' in the path is not followed by two hex digits";
		if (s[i] == '/' || i + 1 == n) {
			size_t end = s[i] == '/' ? i : i + 1, l = end - seg;

			if (i > 0 && ((l == 1 && s[seg] == '.') || (l == 2 && s[seg] == '.' && s[seg + 1] == '.')))
				return "the path has a '.' or '..' segment";
			seg = i + 1;
		}
		u->path[i] = s[i];
	}
	u->path[n] = 0;
	return 0;
}

const char *tp_url_parse(const char *s, size_t n, struct tp_url *u)
{
	const char *why;
	size_t k;

	if (starts(s, n, "https://"))
		return "https:// is not supported yet: give http://HOST[:PORT]/PATH";
	if (!starts(s, n, "http://"))
		return "not an http://HOST[:PORT]/PATH URL";
	if (n > TP_URL_MAX)
		return "the URL is longer than " TP_STR(TP_URL_MAX) " characters";
	s += 7, n -= 7;
	u->port = 80;
	if ((why = parse_host(s, n, &k, u)))
		return why;
	s += k, n -= k;
	if (n && s[0] == ':') {
		if ((why = parse_port(s, n, &k, u)))
			return why;
		s += k, n -= k;
	}
	return parse_path(s, n, u);
}

const char *tp_url_check(const char *s, size_t n)
{
	struct tp_url u;

	return tp_url_parse(s, n, &u);
}
