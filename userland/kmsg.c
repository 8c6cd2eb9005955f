// SPDX-License-Identifier: MIT
/*
 * The kernel log from its start, for probes that compare their figures with
 * the kernel's (tsc). /dev/kmsg is the structured interface
 * (Documentation/ABI/testing/dev-kmsg): each read() returns one record, a
 * reader opening it starts at the oldest record still buffered, EAGAIN with
 * O_NONBLOCK marks the end, EPIPE says records were overwritten under us.
 * klogctl() is the older interface (syslog(2)), kept as the fallback for
 * kernels built without CONFIG_PRINTK's /dev/kmsg device node in the image.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kmsg.h"

#define KMSG_RECORD_MAX 8192	 /* a record never exceeds this (printk's LOG_LINE_MAX is 1 KiB) */
#define SYSLOG_ACTION_READ_ALL 3 /* syslog(2) */
#define SYSLOG_ACTION_SIZE_BUFFER 10

static int append(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 2 > *cap) {
		size_t c = *cap ? *cap : 65536;
		char *q;

		while (c < *len + n + 2)
			c *= 2;
		q = realloc(*buf, c);
		if (!q)
			return -ENOMEM;
		*buf = q;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = 0;
	return 0;
}

static int read_dev_kmsg(char **text, size_t *len)
{
	char rec[KMSG_RECORD_MAX];
	size_t cap = 0;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int rc = 0;

	*text = 0;
	*len = 0;
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue; /* overwritten while we read: take the next */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != EAGAIN)
				rc = -errno;
			break;
		}
		if (n == 0)
			break;
		if (rec[n - 1] != '\n')
			rec[n++] = '\n';
		rc = append(text, len, &cap, rec, (size_t)n);
		if (rc)
			break;
	}
	close(fd);
	if (!rc && !*text)
		rc = append(text, len, &cap, "", 0);
	return rc;
}

static int read_klogctl(char **text, size_t *len)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, 0, 0);
	int n;

	*text = 0;
	*len = 0;
	if (size <= 0)
		size = 1 << 20;
	*text = malloc((size_t)size + 1);
	if (!*text)
		return -ENOMEM;
	n = klogctl(SYSLOG_ACTION_READ_ALL, *text, size);
	if (n < 0) {
		int e = errno;

		free(*text);
		*text = 0;
		return -e;
	}
	(*text)[n] = 0;
	*len = (size_t)n;
	return 0;
}

int kmsg_read_all(char **text, size_t *len, const char **how)
{
	int rc = read_dev_kmsg(text, len);

	*how = "/dev/kmsg";
	if (!rc)
		return 0;
	*how = "klogctl";
	return read_klogctl(text, len);
}

const char *kmsg_message(const char *line, long long *usec)
{
	const char *p = line, *semi;

	*usec = -1;
	if (*p == ' ')
		return 0; /* dictionary continuation of the previous record */
	/* klogctl / dmesg: "<6>[    0.000263] msg" or "[    0.000263] msg" */
	if (*p == '<') {
		const char *gt = strchr(p, '>');

		if (gt)
			p = gt + 1;
	}
	if (*p == '[') {
		char *end;
		long long s = strtoll(p + 1 + strspn(p + 1, " "), &end, 10), us = 0;
		const char *q = end;

		if (*q == '.') {
			int digits = 0;

			for (q++; isdigit((unsigned char)*q); q++, digits++)
				if (digits < 6)
					us = us * 10 + (*q - '0');
			while (digits++ < 6)
				us *= 10;
		}
		if (*q == ']') {
			*usec = s * 1000000 + us;
			p = q + 1;
			if (*p == ' ')
				p++;
		}
		return p;
	}
	/* /dev/kmsg: "PRIO,SEQ,USEC,FLAGS[,...];msg" */
	semi = strchr(p, ';');
	if (semi && isdigit((unsigned char)*p)) {
		const char *c = p;
		int commas = 0;

		for (; c < semi; c++) {
			if (*c == ',' && ++commas == 2)
				*usec = strtoll(c + 1, 0, 10);
			else if (*c != ',' && !isdigit((unsigned char)*c) && commas < 3)
				break;
		}
		if (c == semi || commas >= 3)
			return semi + 1;
	}
	return p;
}
