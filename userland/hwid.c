// SPDX-License-Identifier: MIT
/* Linux CPUs and the stub's hardware IDs; see hwid.h. */
#include <string.h>

#include "emit.h"
#include "hwid.h"

void hwid_names_read(struct cpu_names *names)
{
	memset(names, 0, sizeof(*names));
	if (sysinfo_cpu_map_read(&names->cpuinfo))
		emit_human("  /proc/cpuinfo unreadable: the CPUs' %s unknown\n",
			   TP_HAVE_TSC ? "APIC IDs and tsc_adjust flags" : "list");
	if (TP_HAVE_TSC)
		return;
	if (mpidr_map_read(&names->mpidr))
		emit_human("  kernel log unreadable: the CPUs' MPIDRs unknown\n");
	else if (names->mpidr.garbled || names->mpidr.dropped)
		emit_human("  kernel log: %d garbled CPU boot line(s) left out, %d CPU(s) past the table\n",
			   names->mpidr.garbled, names->mpidr.dropped);
}

int hwid_cpu_of(const struct cpu_names *names, uint32_t hw)
{
	return TP_HAVE_TSC ? sysinfo_cpu_of_apic(&names->cpuinfo, hw) :
			     mpidr_map_cpu_of(&names->mpidr, hw);
}

int64_t hwid_of_cpu(const struct cpu_names *names, int cpu)
{
	if (!TP_HAVE_TSC)
		return mpidr_map_packed_of(&names->mpidr, cpu);
	for (int i = 0; i < names->cpuinfo.n; i++)
		if (names->cpuinfo.c[i].cpu == cpu)
			return names->cpuinfo.c[i].apic;
	return -1;
}
