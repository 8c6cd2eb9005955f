// SPDX-License-Identifier: MIT
/* Model-specific registers through /dev/cpu/N/msr (msr.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msr.h"

int msr_decode(ssize_t n, int err, const unsigned char *buf, uint64_t *val)
{
	uint64_t v = 0;

	if (n < 0)
		return err ? -err : -EIO;
	if (n != 8)
		return -EIO;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | buf[i];
	*val = v;
	return 0;
}

int msr_read(int cpu, uint32_t reg, uint64_t *val)
{
	unsigned char buf[8];
	char path[48];
	ssize_t got;
	int fd, rc;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	got = pread(fd, buf, sizeof(buf), reg);
	rc = msr_decode(got, errno, buf, val);
	close(fd);
	return rc;
}

void msr_why(int cpu, uint32_t reg, int rc, char *why, size_t len)
{
	if (rc == -ENOENT || rc == -ENXIO || rc == -ENODEV)
		snprintf(why, len, "no /dev/cpu/%d/msr (CONFIG_X86_MSR)", cpu);
	else if (rc == -EACCES || rc == -EPERM)
		snprintf(why, len, "/dev/cpu/%d/msr: %s (needs root)", cpu, strerror(-rc));
	else if (rc == -EIO)
		snprintf(why, len,
			 "/dev/cpu/%d/msr: the CPU refused rdmsr 0x%x (a hypervisor that does not offer it?)",
			 cpu, (unsigned)reg);
	else
		snprintf(why, len, "/dev/cpu/%d/msr: %s", cpu, strerror(-rc));
}
