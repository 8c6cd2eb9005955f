// SPDX-License-Identifier: MIT
/* A small HTTP/1.1 client; see http.h. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"

int64_t http_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* ms left until deadline_ns, at most cap (cap < 0: no cap), never below 0. */
static int left_ms(int64_t deadline_ns, int cap)
{
	int64_t ms = (deadline_ns - http_now_ns()) / 1000000;

	if (ms < 0)
		ms = 0;
	return cap >= 0 && ms > cap ? cap : (int)ms;
}

static int fail(struct http_reply *r, const char *what, const char *detail)
{
	snprintf(r->why, sizeof(r->why), "%s: %s", what, detail);
	r->status = 0;
	return 0;
}

/* The host's first IPv4 address; 0, or a message in why. */
static int resolve(const char *host, unsigned port, struct sockaddr_in *sa, char *why, size_t n)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res = 0;
	int rc = getaddrinfo(host, 0, &hints, &res);

	if (rc || !res) {
		snprintf(why, n, "%s does not resolve (%s)", host, rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	memcpy(sa, res->ai_addr, sizeof(*sa));
	sa->sin_port = htons((uint16_t)port);
	freeaddrinfo(res);
	return 0;
}

const char *http_resolve_check(const char *host)
{
	static char why[320];
	struct sockaddr_in sa;

	return resolve(host, 80, &sa, why, sizeof(why)) ? why : 0;
}

/* A non-blocking socket connected to sa within connect_ms; -1 with r->why set. */
static int connect_to(const struct sockaddr_in *sa, int connect_ms, int64_t deadline_ns,
		      struct http_reply *r)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), err = 0;
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t el = sizeof(err);

	if (fd < 0)
		return fail(r, "socket", errno == ENOSYS || errno == EAFNOSUPPORT ?
			    "this kernel has no network (the `net` variant has: make efi KVARIANT=net)" :
			    strerror(errno)), -1;
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) && errno != EINPROGRESS) {
		fail(r, "connect", strerror(errno));
		close(fd);
		return -1;
	}
	if (poll(&p, 1, left_ms(deadline_ns, connect_ms)) != 1 ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) || err) {
		fail(r, "connect", err ? strerror(err) : "no answer within the limit");
		close(fd);
		return -1;
	}
	return fd;
}

/* Writes all of buf before the deadline; 0 or -1 with r->why set. */
static int send_all(int fd, const char *buf, size_t len, int64_t deadline_ns, struct http_reply *r)
{
	while (len) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		ssize_t w;

		if (poll(&p, 1, left_ms(deadline_ns, -1)) != 1)
			return fail(r, "send", "the server took nothing more within the limit"), -1;
		w = send(fd, buf, len, MSG_NOSIGNAL);
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return fail(r, "send", strerror(errno)), -1;
		if (w > 0)
			buf += w, len -= (size_t)w;
	}
	return 0;
}

int http_status_parse(const char *buf, size_t n, struct http_reply *r)
{
	size_t i = 13, k = 0;

	if (n < 12 || memcmp(buf, "HTTP/1.", 7) || (buf[7] != '0' && buf[7] != '1') || buf[8] != ' ' ||
	    buf[9] < '1' || buf[9] > '5' || buf[10] < '0' || buf[10] > '9' || buf[11] < '0' ||
	    buf[11] > '9' || (buf[12] != ' ' && buf[12] != '\r'))
		return -1;
	r->status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
	while (buf[12] == ' ' && i < n && buf[i] != '\r' && buf[i] != '\n' && k + 1 < sizeof(r->text)) {
		if (buf[i] >= 0x20 && buf[i] < 0x7f)
			r->text[k++] = buf[i];
		i++;
	}
	r->text[k] = 0;
	return 0;
}

/* Reads until the end of the headers (or EOF) and parses the status line. */
static int read_reply(int fd, int64_t deadline_ns, struct http_reply *r)
{
	char buf[2048];
	size_t n = 0;

	while (n < sizeof(buf) - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t got;

		if (poll(&p, 1, left_ms(deadline_ns, -1)) != 1)
			return fail(r, "read", "no answer within the limit");
		got = recv(fd, buf + n, sizeof(buf) - 1 - n, 0);
		if (got < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		buf[n] = 0;
		if (strstr(buf, "\r\n\r\n"))
			break;
	}
	if (http_status_parse(buf, n, r))
		return fail(r, "read", n ? "the answer is not HTTP/1.x" : "the server closed without an answer");
	return r->status;
}

int http_request(const struct tp_url *u, const char *method, const char *path, const char *ctype,
		 const void *body, size_t len, int connect_ms, int64_t deadline_ns,
		 struct http_reply *r)
{
	struct sockaddr_in sa;
	char head[TP_URL_MAX + TP_URL_HOST_MAX + 256];
	int fd, n;

	memset(r, 0, sizeof(*r));
	if (resolve(u->host, u->port, &sa, r->why, sizeof(r->why)))
		return 0;
	if ((fd = connect_to(&sa, connect_ms, deadline_ns, r)) < 0)
		return 0;
	n = snprintf(head, sizeof(head),
		     "%s %s HTTP/1.1\r\nHost: %s:%u\r\nUser-Agent: timeprobe\r\nContent-Type: %s\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		     method, path, u->host, u->port, ctype, strcmp(method, "HEAD") ? len : 0);
	if (n > 0 && (size_t)n < sizeof(head) && !send_all(fd, head, (size_t)n, deadline_ns, r) &&
	    (!strcmp(method, "HEAD") || !send_all(fd, body, len, deadline_ns, r)))
		read_reply(fd, deadline_ns, r);
	else if (!r->why[0])
		fail(r, "send", "the request line is too long");
	close(fd);
	return r->status;
}
