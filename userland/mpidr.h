/* SPDX-License-Identifier: MIT */
/*
 * Which Linux CPU each arm64 CPU is, by its MPIDR_EL1 (the hardware name
 * the stub hands CPUs over by: tp_mpidr_pack(), common/stubcpu.h). The
 * kernel says it once per CPU in its log (Linux 6.1):
 *
 *   Booting Linux on physical CPU 0x0000000000 [0x410fd083]
 *	(arch/arm64/kernel/setup.c: the boot CPU, always Linux CPU 0)
 *   CPU1: Booted secondary processor 0x0000000001 [0x410fd083]
 *	(arch/arm64/kernel/smp.c: each secondary as it comes up)
 *
 * the hex being mpidr & MPIDR_HWID_BITMASK (0xff00ffffff). /proc/cpuinfo
 * does not show it on arm64. The lines are hostile text: a value with bits
 * outside the mask, a number that does not parse, or two CPUs claiming one
 * MPIDR leave those CPUs unnamed. Pure but for mpidr_map_read():
 * tests/unit/test_mpidr.c.
 */
#ifndef TP_MPIDR_H
#define TP_MPIDR_H

#include <stdint.h>

#define MPIDR_HWID_MASK 0xff00ffffffULL	/* Linux's MPIDR_HWID_BITMASK */
#define MPIDR_MAP_MAX 1024

struct mpidr_entry {
	int cpu;		/* Linux CPU number */
	uint64_t mpidr;		/* as logged: mpidr & MPIDR_HWID_MASK */
};

struct mpidr_map {
	int n;
	int garbled;		/* lines that began like one of the two but did not parse */
	int dropped;		/* CPUs past the table */
	struct mpidr_entry c[MPIDR_MAP_MAX];
};

/*
 * Feeds one kernel log line (a /dev/kmsg or klogctl prefix is stripped;
 * start with a zeroed map). A CPU logged again (brought back online) keeps
 * its latest value. Returns 1 when the line named a CPU, 0 when it is not
 * one of the two lines, -1 when it began like one but was garbled.
 */
int mpidr_map_line(struct mpidr_map *m, const char *line);
/* Every line of a NUL-terminated log text (modified: split at newlines). */
void mpidr_map_text(struct mpidr_map *m, char *text);
/* The kernel log into m (kmsg.h): 0, or -errno when it cannot be read (m then empty). */
int mpidr_map_read(struct mpidr_map *m);

/* The Linux CPU whose packed MPIDR (tp_mpidr_pack()) is packed; -1: none, or two claim it. */
int mpidr_map_cpu_of(const struct mpidr_map *m, uint32_t packed);
/* Linux CPU cpu's packed MPIDR, or -1 when the log did not name it. */
int64_t mpidr_map_packed_of(const struct mpidr_map *m, int cpu);

#endif
