// SPDX-License-Identifier: MIT
/* The machine's CPU migrations, per-CPU counters; see migrations.h. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "irqstat.h"
#include "migrations.h"
#include "sysinfo.h"

static int fd[IRQSTAT_CPUS];
static int nfd;
static int open_rc = 1;	/* 1: not tried yet */

static int open_on(int cpu)
{
	struct perf_event_attr pa;

	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_SOFTWARE;
	pa.size = sizeof(pa);
	pa.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	/* no inherit, no task: pid -1 counts every task on this CPU. Not
	 * exclude_kernel: the scheduler raises the event in kernel mode
	 * (perf_sw_event_sched()), so excluding the kernel counts none. */
	return (int)syscall(SYS_perf_event_open, &pa, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int open_all(void)
{
	char list[256];
	int cpus[IRQSTAT_CPUS], n;

	if (sysinfo_read_text("/sys/devices/system/cpu/online", list, sizeof(list)) <= 0 ||
	    (n = irqstat_parse_cpulist(list, cpus, IRQSTAT_CPUS)) <= 0)
		return -ENODATA;
	for (int i = 0; i < n; i++) {
		int f = open_on(cpus[i]);

		if (f < 0) {
			int rc = -errno;

			migrations_close_inherited();
			return rc;
		}
		fd[nfd++] = f;
	}
	return 0;
}

int migrations_open(void)
{
	if (open_rc == 1)
		open_rc = open_all();
	return open_rc;
}

int migrations_read(uint64_t *n)
{
	uint64_t v;

	if (open_rc)
		return open_rc == 1 ? -EBADF : open_rc;
	if (!nfd)
		return -EBADF;
	*n = 0;
	for (int i = 0; i < nfd; i++) {
		ssize_t got = read(fd[i], &v, sizeof(v));

		if (got != (ssize_t)sizeof(v))
			return got < 0 ? -errno : -EIO;
		*n += v;
	}
	return 0;
}

void migrations_close_inherited(void)
{
	for (int i = 0; i < nfd; i++)
		close(fd[i]);
	nfd = 0;
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
		return "a CPU-wide perf counter refused (not root: kernel.perf_event_paranoid > 0, "
		       "or a seccomp filter)";
	case ENODATA:
		return "no list of online CPUs (/sys/devices/system/cpu/online)";
	case EBADF:
		return "counters closed in this process";
	default:
		return strerror(-rc);
	}
}
