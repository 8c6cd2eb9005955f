// SPDX-License-Identifier: MIT
/*
 * mpidr.h: the Linux CPU of each arm64 MPIDR from the kernel's boot lines,
 * fed lines in the three forms the suite reads (/dev/kmsg, klogctl, a
 * serial console) as QEMU virt logged them (tests/data/serial-arm64-virt-quick.log)
 * and as Linux 6.1's format strings give them for other MPIDRs, and garbled
 * or hostile ones.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/stubcpu.h"
#include "../../userland/mpidr.h"
#include "tap.h"

static struct mpidr_map map;

static void real_lines(void)
{
	char text[] =
		"6,0,0,-;Booting Linux on physical CPU 0x0000000000 [0x410fd083]\n"
		"6,1,0,-;Linux version 6.1.0 (gcc) #1 SMP\n"
		" SUBSYSTEM=cpu\n"
		"6,150,41989,-;CPU1: Booted secondary processor 0x0000000001 [0x410fd083]\n"
		"<6>[    0.052000] CPU2: Booted secondary processor 0x0000000100 [0x410fd083]\n"
		"[    0.060000] CPU3: Booted secondary processor 0x0100000200 [0x410fd083]\n"
		"6,160,70000,-;smp: Brought up 1 node, 4 CPUs\n";

	memset(&map, 0, sizeof(map));
	mpidr_map_text(&map, text);
	is_int(map.n, 4, "four CPUs named: the boot CPU and three secondaries");
	is_int(map.garbled, 0, "no line garbled");
	is_int(mpidr_map_cpu_of(&map, 0), 0, "MPIDR 0: the boot CPU is Linux CPU 0");
	is_int(mpidr_map_cpu_of(&map, 1), 1, "MPIDR 0x1 (/dev/kmsg line) is cpu1");
	is_int(mpidr_map_cpu_of(&map, 0x100), 2, "MPIDR 0x100, Aff1 1 (klogctl line) is cpu2");
	is_int(mpidr_map_cpu_of(&map, tp_mpidr_pack(0x0100000200ULL)), 3,
	       "MPIDR with Aff3 1 (serial line) is cpu3, by its packed value");
	is_int(mpidr_map_cpu_of(&map, 0x01000200), 3, "packed: Aff3 moved to bits 31:24");
	is_int(mpidr_map_cpu_of(&map, 0x200), -1, "Aff3 is not dropped: 0x200 is nobody");
	is_int(mpidr_map_packed_of(&map, 2), 0x100, "cpu2's packed MPIDR");
	is_int(mpidr_map_packed_of(&map, 7), -1, "a CPU the log did not name has none");
}

static void one(const char *line, int want, const char *name)
{
	is_int(mpidr_map_line(&map, line), want, name);
}

static void hostile_lines(void)
{
	char long_cpu[80];

	memset(&map, 0, sizeof(map));
	one("[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x000f0510]", 1, "the boot line");
	one("CPU1: Booted secondary processor 0x00ff000001 [0x000f0510]", -1,
	    "bits outside MPIDR_HWID_BITMASK (31:24): garbled");
	one("CPU1: Booted secondary processor 0x10000000000 [0x0]", -1, "bit 40: garbled");
	one("CPU1: Booted secondary processor 0x", -1, "no hex digit: garbled");
	one("CPU1: Booted secondary processor 0x00000000000000001", -1, "17 hex digits: garbled");
	one("CPU1: Booted secondary processor 0x0000000001junk", -1, "junk after the value: garbled");
	one("CPU1: Booted secondary processor 1", -1, "no 0x: garbled");
	one("CPU: Booted secondary processor 0x0000000001", -1, "no CPU number: garbled");
	one("CPU-1: Booted secondary processor 0x0000000001", -1, "a signed CPU number: garbled");
	one("CPUfreq: Booted secondary processor 0x0000000001", -1, "letters for a number: garbled");
	snprintf(long_cpu, sizeof(long_cpu), "CPU%s: Booted secondary processor 0x1", "99999999");
	one(long_cpu, -1, "an 8-digit CPU number: garbled");
	one("Booting Linux on physical CPU", 0, "the boot line cut before its value: not the line");
	one("Booting Linux on physical CPU 0xq", -1, "the boot line with a bad value: garbled");
	one("audit: CPU1: Booted secondary processor 0x1", 0, "the words inside another message: not the line");
	one("", 0, "an empty line");
	one(" SUBSYSTEM=cpu", 0, "a /dev/kmsg continuation");
	is_int(map.n, 1, "the garbled lines named nobody");
	is_int(map.garbled, 11, "and were counted");
	is_int(mpidr_map_cpu_of(&map, 1), -1, "no cpu1 from a garbled line");

	one("CPU1: Booted secondary processor 0x0000000001 [0x000f0510]", 1, "cpu1");
	one("CPU1: Booted secondary processor 0x0000000001 [0x000f0510]", 1, "cpu1 again (back online)");
	is_int(map.n, 2, "a CPU logged twice is one entry");
	is_int(mpidr_map_cpu_of(&map, 1), 1, "MPIDR 1 is still cpu1");
	one("CPU5: Booted secondary processor 0x0000000001", 1, "a second CPU claims MPIDR 1");
	is_int(mpidr_map_cpu_of(&map, 1), -1, "two CPUs claim MPIDR 1: neither is named by it");
	one("CPU1: Booted secondary processor 0x0000000002", 1, "cpu1 logged with another value");
	is_int(mpidr_map_cpu_of(&map, 1), 5, "the latest line wins: MPIDR 1 is cpu5 alone now");
	is_int(mpidr_map_cpu_of(&map, 2), 1, "and MPIDR 2 is cpu1");
}

static void full_table(void)
{
	char l[96];

	memset(&map, 0, sizeof(map));
	for (int i = 0; i <= MPIDR_MAP_MAX; i++) {
		snprintf(l, sizeof(l), "CPU%d: Booted secondary processor 0x%010x [0x410fd083]", i, i);
		mpidr_map_line(&map, l);
	}
	is_int(map.n, MPIDR_MAP_MAX, "the table holds MPIDR_MAP_MAX CPUs");
	is_int(map.dropped, 1, "the one past it is counted as dropped");
	is_int(mpidr_map_cpu_of(&map, MPIDR_MAP_MAX - 1), MPIDR_MAP_MAX - 1, "the last one kept");
	is_int(mpidr_map_cpu_of(&map, MPIDR_MAP_MAX), -1, "the dropped one is nobody");
}

int main(void)
{
	real_lines();
	hostile_lines();
	full_table();
	return tap_done();
}
