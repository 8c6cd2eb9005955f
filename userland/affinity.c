// SPDX-License-Identifier: MIT
/*
 * The probes' one way to pin the calling thread to a CPU and to put its
 * old mask back (sched_setaffinity(2) with pid 0: this thread alone).
 */
#include <errno.h>
#include <sched.h>

#include "affinity.h"

int affinity_pin_self(int cpu, cpu_set_t *old)
{
	cpu_set_t one;

	if (cpu < 0 && (cpu = sched_getcpu()) < 0)
		return -errno;
	if (cpu >= CPU_SETSIZE)
		return -EINVAL;
	if (old && sched_getaffinity(0, sizeof(*old), old))
		return -errno;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	return cpu;
}

void affinity_unpin(const cpu_set_t *old)
{
	sched_setaffinity(0, sizeof(*old), old); /* a mask it had: best effort */
}
