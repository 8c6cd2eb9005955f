/* SPDX-License-Identifier: MIT */
/*
 * The machine's CPU idle setup, from sysfs (Documentation/admin-guide/pm/
 * cpuidle.rst): the driver and governor, and the deepest idle state CPU 0
 * may enter with its exit latency. A wake-up from a deeper state takes
 * longer, so wake-up figures depend on it (and on a latency request held,
 * dmalat.h). The fingerprint carries it.
 */
#ifndef TP_CPUIDLE_H
#define TP_CPUIDLE_H

#include <stdint.h>

#define CPUIDLE_SYS "/sys/devices/system/cpu"

struct cpuidle_info {
	char driver[32], governor[32];	/* "none": no driver bound; "" unread */
	int driver_rc, governor_rc;	/* 0, or -errno */
	char deepest[32];		/* the deepest enabled state's name; "": none */
	int64_t deepest_exit_us;	/* its exit latency; -1: none */
	int states;			/* states CPU 0 has, enabled or not */
};

/* Reads under SYS (CPUIDLE_SYS, or a copy of its tree in the tests). */
void cpuidle_read(const char *sys, struct cpuidle_info *ci);

#endif
