// SPDX-License-Identifier: MIT
/* The CPU idle driver, governor and deepest state; see cpuidle.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuidle.h"
#include "sysinfo.h"

#define STATES_MAX 16	/* CPUIDLE_STATE_MAX, include/linux/cpuidle.h (10) and room */

/* stateN's file WHAT of CPU 0 into buf; its length or -errno. */
static int state_file(const char *sys, int n, const char *what, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/cpu0/cpuidle/state%d/%s", sys, n, what);
	return sysinfo_read_text(path, buf, len);
}

/* States are numbered from the shallowest (state0, polling) down: the last
 * one not disabled is the deepest the governor may pick. */
static void deepest(const char *sys, struct cpuidle_info *ci)
{
	char name[32], lat[32], off[8];

	for (int n = 0; n < STATES_MAX; n++) {
		if (state_file(sys, n, "name", name, sizeof(name)) <= 0)
			break;
		ci->states++;
		if (state_file(sys, n, "disable", off, sizeof(off)) > 0 && atoi(off))
			continue;
		if (state_file(sys, n, "latency", lat, sizeof(lat)) <= 0)
			continue;
		snprintf(ci->deepest, sizeof(ci->deepest), "%s", name);
		ci->deepest_exit_us = strtoll(lat, 0, 10);
	}
}

void cpuidle_read(const char *sys, struct cpuidle_info *ci)
{
	char path[512];
	int rc;

	memset(ci, 0, sizeof(*ci));
	ci->deepest_exit_us = -1;
	snprintf(path, sizeof(path), "%s/cpuidle/current_driver", sys);
	rc = sysinfo_read_text(path, ci->driver, sizeof(ci->driver));
	ci->driver_rc = rc < 0 ? rc : 0;
	snprintf(path, sizeof(path), "%s/cpuidle/current_governor_ro", sys);
	rc = sysinfo_read_text(path, ci->governor, sizeof(ci->governor));
	if (rc < 0) {
		snprintf(path, sizeof(path), "%s/cpuidle/current_governor", sys);
		rc = sysinfo_read_text(path, ci->governor, sizeof(ci->governor));
	}
	ci->governor_rc = rc < 0 ? rc : 0;
	deepest(sys, ci);
}
