// SPDX-License-Identifier: MIT
/* Writing and reading back through descriptors; see copy.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy.h"

#define CHUNK_BYTES (4u << 20)

/* n bytes at off into buf; 0, or -errno (-ENODATA when the file ends first). */
static int read_full(int fd, void *buf, size_t n, uint64_t off)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ENODATA;
		got += (size_t)r;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t n, uint64_t off)
{
	for (size_t put = 0; put < n;) {
		ssize_t w = pwrite(fd, (const char *)buf + put, n - put, (off_t)(off + put));
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -ENOSPC;
		put += (size_t)w;
	}
	return 0;
}

/* A progress line on a terminal only; a log gets the final line from the caller. */
static void progress(uint64_t done, uint64_t bytes)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\rwritten %llu of %llu MiB", (unsigned long long)(done >> 20),
			(unsigned long long)(bytes >> 20));
}

int copy_write(int img, int dev, uint64_t bytes, uint64_t *done)
{
	char *buf = malloc(CHUNK_BYTES);
	int err = buf ? 0 : -ENOMEM;
	for (*done = 0; !err && *done < bytes;) {
		size_t n = bytes - *done < CHUNK_BYTES ? (size_t)(bytes - *done) : CHUNK_BYTES;
		err = read_full(img, buf, n, *done);
		if (!err)
			err = write_full(dev, buf, n, *done);
		if (!err)
			*done += n;
		progress(*done, bytes);
	}
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);
	free(buf);
	return err;
}

/* The first offset where a and b differ (they do). */
static size_t first_difference(const char *a, const char *b, size_t n)
{
	size_t i = 0;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

int copy_verify(int img, int dev, uint64_t bytes, uint64_t *at)
{
	char *want = malloc(CHUNK_BYTES), *got = malloc(CHUNK_BYTES);
	int ret = want && got ? 0 : -ENOMEM;
	for (uint64_t off = 0; !ret && off < bytes;) {
		size_t n = bytes - off < CHUNK_BYTES ? (size_t)(bytes - off) : CHUNK_BYTES;
		ret = read_full(img, want, n, off);
		if (!ret)
			ret = read_full(dev, got, n, off);
		if (!ret && memcmp(want, got, n)) {
			*at = off + first_difference(want, got, n);
			ret = 1;
		}
		off += n;
	}
	free(want);
	free(got);
	return ret;
}
