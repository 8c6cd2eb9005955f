// SPDX-License-Identifier: MIT
/*
 * sysinfo.h's pure part: the map of Linux CPUs to their APIC IDs and
 * tsc_adjust flags, fed /proc/cpuinfo lines written by hand.
 */
#include <stddef.h>
#include <stdio.h>

#include "../../userland/sysinfo.h"
#include "tap.h"

int main(void)
{
	/* APIC IDs to Linux CPUs, and the tsc_adjust flag */
	static const char *const lines[] = {
		"processor\t: 0\n", "vendor_id\t: GenuineIntel\n", "apicid\t\t: 6\n",
		"initial apicid\t: 99\n", "flags\t\t: fpu tsc tsc_adjust_x tsc_adjust\n", "\n",
		"processor\t: 1\n", "initial apicid\t: 7\n", "apicid\t\t: 7\n",
		"flags\t\t: fpu tsc_adjustx tsc\n", "\n",
		"processor\t: 3\n", "apicid\t\t: banana\n", "\n",
		"processor\t: x\n", "apicid\t\t: 8\n",
	};
	static struct cpu_map map;
	const struct cpu_entry *c;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		sysinfo_cpu_map_line(&map, lines[i]);
	is_int(map.n, 3, "cpuinfo: three processors (a bad number starts none)");
	is_int(sysinfo_cpu_of_apic(&map, 6), 0, "APIC 6 is cpu0 (not its initial apicid 99)");
	is_int(sysinfo_cpu_of_apic(&map, 7), 1, "APIC 7 is cpu1");
	is_int(sysinfo_cpu_of_apic(&map, 99), -1, "initial apicid is not apicid");
	is_int(sysinfo_cpu_of_apic(&map, 8), -1,
	       "a line after a bad processor number is not given to the one before");
	c = sysinfo_cpu_map_find(&map, 0);
	ok(c && c->tsc_adjust == 1, "cpu0 has tsc_adjust (a whole word)");
	c = sysinfo_cpu_map_find(&map, 1);
	ok(c && c->tsc_adjust == 0, "cpu1: tsc_adjustx is not tsc_adjust");
	c = sysinfo_cpu_map_find(&map, 3);
	ok(c && c->apic == -1 && c->tsc_adjust == -1, "cpu3: apicid unreadable, no flags line");
	ok(!sysinfo_cpu_map_find(&map, 2), "no cpu2");

	/* a line before any processor belongs to none; CPUs past the table are dropped */
	map.n = map.open = 0;
	sysinfo_cpu_map_line(&map, "apicid\t\t: 5\n");
	sysinfo_cpu_map_line(&map, "processor\t: 0\n");
	c = sysinfo_cpu_map_find(&map, 0);
	ok(c && c->apic == -1, "an apicid before the first processor line is nobody's");
	for (int i = 1; i <= CPU_MAP_MAX; i++) {
		char l[40];

		snprintf(l, sizeof(l), "processor\t: %d\n", i);
		sysinfo_cpu_map_line(&map, l);
		snprintf(l, sizeof(l), "apicid\t\t: %d\n", 2 * i);
		sysinfo_cpu_map_line(&map, l);
	}
	is_int(map.n, CPU_MAP_MAX, "the table holds CPU_MAP_MAX CPUs");
	is_int(sysinfo_cpu_of_apic(&map, 2 * (CPU_MAP_MAX - 1)), CPU_MAP_MAX - 1, "the last one kept has its APIC ID");
	is_int(sysinfo_cpu_of_apic(&map, 2 * CPU_MAP_MAX), -1,
	       "the one past the table is dropped, and its apicid not given to the last");
	return tap_done();
}
