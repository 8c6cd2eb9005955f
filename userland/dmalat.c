// SPDX-License-Identifier: MIT
/* The run's CPU latency request; see dmalat.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "dmalat.h"

static int held_fd = -1;
static int asked_us = -1;	/* -1: none asked for */
static int hold_rc;

int dmalat_hold(int us)
{
	int32_t v = us;

	asked_us = us;
	if (us < 0)
		return hold_rc = 0;
	held_fd = open(DMALAT_DEV, O_RDWR | O_CLOEXEC);
	if (held_fd < 0)
		return hold_rc = -errno;
	if (write(held_fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		hold_rc = errno ? -errno : -EIO;
		close(held_fd);
		held_fd = -1;
	}
	return hold_rc;
}

/* Reading through our own descriptor adds no request of its own; another
 * open adds one at the default (no limit) until it closes. */
int dmalat_limit_us(int32_t *v)
{
	int fd = held_fd >= 0 ? held_fd : open(DMALAT_DEV, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return -errno;
	got = pread(fd, v, sizeof(*v), 0);
	if (got < 0 && errno == ESPIPE)
		got = read(fd, v, sizeof(*v));
	if (fd != held_fd)
		close(fd);
	return got == (ssize_t)sizeof(*v) ? 0 : -EIO;
}

void dmalat_emit(struct tp_rec *r)
{
	if (held_fd >= 0)
		tp_rec_int(r, "cpu_dma_latency_us", asked_us);
	else
		tp_rec_null(r, "cpu_dma_latency_us");
	if (asked_us >= 0 && held_fd < 0) {
		tp_rec_int(r, "cpu_dma_latency_asked_us", asked_us);
		tp_rec_str(r, "cpu_dma_latency_error", dmalat_why(hold_rc));
	}
}

const char *dmalat_why(int rc)
{
	switch (-rc) {
	case 0:
		return "held";
	case ENOENT:
		return DMALAT_DEV " missing (a kernel without CONFIG_CPU_IDLE, whose PM QoS device it is)";
	case EACCES:
	case EPERM:
		return DMALAT_DEV " refused: not root";
	default:
		return strerror(-rc);
	}
}
