// SPDX-License-Identifier: MIT
/*
 * common/url.c: the one URL form of timeprobe.upload= and timeprobe.push=,
 * hostile input refused with its reason; userland/http.c's status line
 * parser on good and broken answers. TAP.
 */
#include <string.h>

#include "tap.h"
#include "../../common/url.h"
#include "../../common/words.h"
#include "../../userland/http.h"

static const char *parse(const char *s, struct tp_url *u)
{
	return tp_url_parse(s, strlen(s), u);
}

static void good(void)
{
	struct tp_url u;

	ok(!parse("http://10.0.2.100/results/", &u), "an address and a path");
	is_str(u.host, "10.0.2.100", "its host");
	is_int(u.port, 80, "port 80 when absent");
	is_str(u.path, "/results/", "its path");
	ok(!parse("http://lab-server.example:9091", &u), "a name and a port, no path");
	is_int(u.port, 9091, "its port");
	is_str(u.path, "/", "path / when absent");
	ok(!parse("http://h:65535/a%20b/c~d", &u), "port 65535, an escape");
}

static void bad(void)
{
	static const struct {
		const char *url, *why;
	} cases[] = {
		{ "https://h/x", "https:// is not supported yet" },
		{ "ftp://h/x", "not an http://" },
		{ "http://", "no host" },
		{ "http:///x", "no host" },
		{ "http://u:p@h/x", "user name" },
		{ "http://[::1]/x", "IPv6" },
		{ "http://h:0/x", "1..65535" },
		{ "http://h:65536/x", "1..65535" },
		{ "http://h:99999999/x", "1..65535" },
		{ "http://h:/x", "not a number" },
		{ "http://h:8x/x", "not a number" },
		{ "http://h x/x", "letters, digits" },
		{ "http://h\x01/x", "letters, digits" },
		{ "http://-h/x", "starts or ends" },
		{ "http://a..b/x", "empty label" },
		{ "http://h/a b", "not allowed" },
		{ "http://h/a\tX: y", "not allowed" },
		{ "http://h/\xc3\xa9", "not allowed" },
		{ "http://h/x?y=1", "query" },
		{ "http://h/x#f", "query" },
		{ "http://h/%zz", "two hex" },
		{ "http://h/%2", "two hex" },
		{ "http://h/a/../b", "'..' segment" },
		{ "http://h/a/.", "'..' segment" },
	};
	struct tp_url u;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = parse(cases[i].url, &u);

		ok(why && strstr(why, cases[i].why), "refused: %s (%s)", cases[i].url, why ? why : "taken");
	}
	char longer[TP_URL_MAX + 16] = "http://h/";

	memset(longer + 9, 'a', TP_URL_MAX);
	longer[TP_URL_MAX + 1] = 0;
	ok(parse(longer, &u) && strstr(parse(longer, &u), "longer"), "a URL over 200 bytes");
}

/* The contract's rows check with the same function: the word check refuses what the client would. */
static void words(void)
{
	ok(tp_words[TPW_UPLOAD].check == tp_url_check && tp_words[TPW_PUSH].check == tp_url_check,
	   "timeprobe.upload= and timeprobe.push= are checked by tp_url_check");
	is_int(tp_words[TPW_UPLOAD].hi, TP_URL_MAX, "upload's length bound is the parser's");
}

static void status(void)
{
	struct http_reply r;

	memset(&r, 0, sizeof(r));
	ok(!http_status_parse("HTTP/1.1 201 Created\r\n", 22, &r) && r.status == 201 &&
	   !strcmp(r.text, "Created"), "201 Created");
	ok(!http_status_parse("HTTP/1.0 404\r\n", 14, &r) && r.status == 404 && !r.text[0], "404, no phrase");
	ok(!http_status_parse("HTTP/1.1 500 Bad\x1b[2J\r\n", 22, &r) && !strcmp(r.text, "Bad[2J"),
	   "controls left out of the phrase");
	ok(http_status_parse("HTTP/2 200 OK\r\n", 15, &r), "HTTP/2 refused");
	ok(http_status_parse("HTTP/1.1 20 OK\r\n", 16, &r), "two digits refused");
	ok(http_status_parse("HTTP/1.1 6", 10, &r), "short refused");
	ok(http_status_parse("", 0, &r), "empty refused");
}

int main(void)
{
	good();
	bad();
	words();
	status();
	return tap_done();
}
