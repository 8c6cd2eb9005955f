/* SPDX-License-Identifier: MIT */
/*
 * Which Linux CPU each hardware CPU ID names: the IDs the stub names CPUs
 * by in its per-CPU records (common/stubcpu.h). On x86 the local APIC ID, from /proc/cpuinfo's
 * `apicid` (sysinfo.h); on arm64 MPIDR_EL1 packed by tp_mpidr_pack(), from
 * the kernel's boot lines (mpidr.h). Used by the probes tscsync and hwlat.
 */
#ifndef TP_HWID_H
#define TP_HWID_H

#include <stdint.h>

#include "mpidr.h"
#include "sysinfo.h"
#include "timeutil.h"

/* The records' key for the ID (and the prefix of apic_a, mpidr_a), and its name for people. */
#if TP_HAVE_TSC
#define HWID_KEY "apic"
#define HWID_NAME "APIC"
#define HWID_WHAT "the local APIC ID"
#else
#define HWID_KEY "mpidr"
#define HWID_NAME "MPIDR"
#define HWID_WHAT "MPIDR_EL1 packed by tp_mpidr_pack()"
#endif

struct cpu_names {
	struct cpu_map cpuinfo;		/* every architecture: the CPUs; x86: their APIC IDs */
	struct mpidr_map mpidr;		/* arm64 */
};

/* Reads names; a human line says what could not be read. */
void hwid_names_read(struct cpu_names *names);
/* The Linux CPU the stub's hardware ID hw names, or -1. */
int hwid_cpu_of(const struct cpu_names *names, uint32_t hw);
/* Linux CPU cpu's hardware ID, or -1 when not known. */
int64_t hwid_of_cpu(const struct cpu_names *names, int cpu);

#endif
