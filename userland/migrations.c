// SPDX-License-Identifier: MIT
/* The CPU migrations of the suite and the probes it forks; see migrations.h. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "migrations.h"

static int fd = -1;
static int open_rc = 1;	/* 1: not tried yet */

int migrations_open(void)
{
	struct perf_event_attr pa;

	if (open_rc != 1)
		return open_rc;
	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_SOFTWARE;
	pa.size = sizeof(pa);
	pa.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	pa.inherit = 1;		/* every child from now on, added here as it exits */
	/* not exclude_kernel: the scheduler raises the event in kernel mode,
	 * so excluding the kernel counts none (perf_sw_event_sched()); an
	 * unprivileged process under perf_event_paranoid 2 is refused instead */
	fd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	open_rc = fd < 0 ? -errno : 0;
	return open_rc;
}

int migrations_read(uint64_t *n)
{
	ssize_t got;

	if (fd < 0)
		return open_rc == 1 ? -EBADF : open_rc;
	got = read(fd, n, sizeof(*n));
	if (got == (ssize_t)sizeof(*n))
		return 0;
	return got < 0 ? -errno : -EIO;
}

const char *migrations_why(int rc)
{
	switch (-rc) {
	case ENOENT:
	case ENOSYS:
	case EOPNOTSUPP:
		return "the kernel counts no software perf events (CONFIG_PERF_EVENTS)";
	case EACCES:
	case EPERM:
		return "perf_event_open refused (kernel.perf_event_paranoid, or a seccomp filter)";
	default:
		return strerror(-rc);
	}
}
