/* SPDX-License-Identifier: MIT */
/* The calling thread pinned to one CPU, and put back; see affinity.c. */
#ifndef TP_AFFINITY_H
#define TP_AFFINITY_H

#include <sched.h>

/*
 * Pins the calling thread to CPU (cpu < 0: the CPU it runs on now). When
 * old is not NULL, the mask it had is saved there first, for
 * affinity_unpin(). Returns the CPU it is pinned to, or -errno (nothing
 * changed).
 */
int affinity_pin_self(int cpu, cpu_set_t *old);

/* Gives the calling thread the mask affinity_pin_self() saved in old. */
void affinity_unpin(const cpu_set_t *old);

#endif
