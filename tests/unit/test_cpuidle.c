// SPDX-License-Identifier: MIT
/*
 * cpuidle_read() (userland/cpuidle.h) on sysfs trees made here: the
 * driver and governor (current_governor_ro first), the deepest state not
 * disabled with its exit latency, no states at all (driver "none").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "../../userland/cpuidle.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(dir, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void state(int n, const char *name, const char *lat, const char *off)
{
	char rel[96];

	snprintf(rel, sizeof(rel), "cpu0/cpuidle/state%d/name", n);
	put(rel, name);
	snprintf(rel, sizeof(rel), "cpu0/cpuidle/state%d/latency", n);
	put(rel, lat);
	snprintf(rel, sizeof(rel), "cpu0/cpuidle/state%d/disable", n);
	put(rel, off);
}

int main(void)
{
	struct cpuidle_info ci;
	char cmd[128];

	snprintf(root, sizeof(root), "/tmp/tp-cpuidle.%d", (int)getpid());
	mkdir(root, 0755);
	cpuidle_read(root, &ci);
	ok(ci.driver_rc < 0 && ci.governor_rc < 0 && ci.states == 0 && ci.deepest_exit_us == -1,
	   "no cpuidle directory: driver and governor unread, no states");

	put("cpuidle/current_driver", "none\n");
	put("cpuidle/current_governor", "menu\n");
	cpuidle_read(root, &ci);
	ok(!strcmp(ci.driver, "none") && !strcmp(ci.governor, "menu") && ci.states == 0 &&
		   !ci.deepest[0], "driver none, governor menu (current_governor), no states");

	put("cpuidle/current_driver", "intel_idle\n");
	put("cpuidle/current_governor_ro", "teo\n");
	state(0, "POLL\n", "0\n", "0\n");
	state(1, "C1\n", "2\n", "0\n");
	state(2, "C1E\n", "10\n", "0\n");
	state(3, "C6\n", "133\n", "1\n");
	cpuidle_read(root, &ci);
	ok(!strcmp(ci.driver, "intel_idle") && !strcmp(ci.governor, "teo"),
	   "intel_idle, governor from current_governor_ro");
	ok(ci.states == 4 && !strcmp(ci.deepest, "C1E") && ci.deepest_exit_us == 10,
	   "the deepest state not disabled: C1E, 10 us (C6 disabled): %s %lld", ci.deepest,
	   (long long)ci.deepest_exit_us);
	state(3, "C6\n", "133\n", "0\n");
	cpuidle_read(root, &ci);
	ok(!strcmp(ci.deepest, "C6") && ci.deepest_exit_us == 133, "C6 enabled: C6, 133 us");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
	return tap_done();
}
