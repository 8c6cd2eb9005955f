// SPDX-License-Identifier: MIT
/* Linux CPUs by their MPIDR_EL1, from the kernel's boot lines; see mpidr.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/stubcpu.h"
#include "kmsg.h"
#include "mpidr.h"

#define BOOT_LINE "Booting Linux on physical CPU "
#define SECONDARY_LINE ": Booted secondary processor "
#define CPU_DIGITS_MAX 7	/* Linux's NR_CPUS is at most 8192 on arm64 */

/* "0x" and 1..16 hex digits, then the end or a space; within the mask. 0 or -1. */
static int parse_mpidr(const char *p, uint64_t *v)
{
	int digits = 0;

	*v = 0;
	if (p[0] != '0' || p[1] != 'x')
		return -1;
	for (p += 2; isxdigit((unsigned char)*p); p++) {
		if (++digits > 16)
			return -1;
		*v = *v << 4 | (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' :
					  tolower((unsigned char)*p) - 'a' + 10);
	}
	if (!digits || (*p && *p != ' ' && *p != '\n' && *p != '\r'))
		return -1;
	return *v & ~MPIDR_HWID_MASK ? -1 : 0;
}

/* "CPU<n>" up to SECONDARY_LINE: n, or -1 when the number does not parse. */
static long parse_cpu(const char *p, const char *marker)
{
	long cpu = 0;
	int digits = 0;

	for (p += 3; p < marker; p++) {
		if (!isdigit((unsigned char)*p) || ++digits > CPU_DIGITS_MAX)
			return -1;
		cpu = cpu * 10 + (*p - '0');
	}
	return digits ? cpu : -1;
}

/* Linux CPU cpu is mpidr: its entry set, or added. */
static void put(struct mpidr_map *m, int cpu, uint64_t mpidr)
{
	for (int i = 0; i < m->n; i++)
		if (m->c[i].cpu == cpu) {
			m->c[i].mpidr = mpidr;
			return;
		}
	if (m->n >= MPIDR_MAP_MAX) {
		m->dropped++;
		return;
	}
	m->c[m->n++] = (struct mpidr_entry){ .cpu = cpu, .mpidr = mpidr };
}

int mpidr_map_line(struct mpidr_map *m, const char *line)
{
	long long usec;
	const char *s = kmsg_message(line, &usec), *marker;
	uint64_t v;
	long cpu;

	if (!s)
		return 0;
	if (!strncmp(s, BOOT_LINE, strlen(BOOT_LINE))) {
		cpu = 0;
		s += strlen(BOOT_LINE);
	} else if (!strncmp(s, "CPU", 3) && (marker = strstr(s, SECONDARY_LINE)) != NULL) {
		cpu = parse_cpu(s, marker);
		s = marker + strlen(SECONDARY_LINE);
	} else {
		return 0;
	}
	if (cpu < 0 || parse_mpidr(s, &v)) {
		m->garbled++;
		return -1;
	}
	put(m, (int)cpu, v);
	return 1;
}

void mpidr_map_text(struct mpidr_map *m, char *text)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		mpidr_map_line(m, l);
}

int mpidr_map_read(struct mpidr_map *m)
{
	char *text = NULL;
	const char *how;
	size_t len;
	int rc = kmsg_read_all(&text, &len, &how);

	memset(m, 0, sizeof(*m));
	if (!rc && text)
		mpidr_map_text(m, text);
	free(text);
	return rc;
}

int mpidr_map_cpu_of(const struct mpidr_map *m, uint32_t packed)
{
	int cpu = -1, found = 0;

	for (int i = 0; i < m->n; i++)
		if (tp_mpidr_pack(m->c[i].mpidr) == packed) {
			cpu = m->c[i].cpu;
			found++;
		}
	return found == 1 ? cpu : -1;
}

int64_t mpidr_map_packed_of(const struct mpidr_map *m, int cpu)
{
	for (int i = 0; i < m->n; i++)
		if (m->c[i].cpu == cpu)
			return tp_mpidr_pack(m->c[i].mpidr);
	return -1;
}
