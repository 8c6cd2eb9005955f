// SPDX-License-Identifier: MIT
/* Unit tests of affinity.c: pinning the calling thread, and putting it back. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "../../userland/affinity.h"
#include "tap.h"

/* A CPU outside mask, or -1 when every CPU is in it. */
static int cpu_outside(const cpu_set_t *mask)
{
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (!CPU_ISSET(c, mask))
			return c;
	return -1;
}

int main(void)
{
	cpu_set_t before, old, now;
	int cpu, out;

	ok(!sched_getaffinity(0, sizeof(before), &before), "the mask before is readable");
	cpu = affinity_pin_self(-1, &old);
	ok(cpu >= 0, "pinned to the CPU it runs on: %d", cpu);
	ok(CPU_EQUAL(&old, &before), "the old mask is saved");
	ok(!sched_getaffinity(0, sizeof(now), &now) && CPU_COUNT(&now) == 1 &&
		   CPU_ISSET(cpu, &now),
	   "the mask is that one CPU");
	affinity_unpin(&old);
	ok(!sched_getaffinity(0, sizeof(now), &now) && CPU_EQUAL(&now, &before),
	   "unpin puts the old mask back");

	is_int(affinity_pin_self(CPU_SETSIZE, 0), -EINVAL, "a CPU past CPU_SETSIZE: -EINVAL");
	out = cpu_outside(&before);
	if (out >= 0)
		is_int(affinity_pin_self(out, 0), -EINVAL, "a CPU not ours: -EINVAL");
	else
		printf("# every CPU is ours: no CPU to refuse\n");
	ok(!sched_getaffinity(0, sizeof(now), &now) && CPU_EQUAL(&now, &before),
	   "a refused pin leaves the mask alone");
	return tap_done();
}
