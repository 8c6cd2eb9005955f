// SPDX-License-Identifier: MIT
/* Machine facts from /proc and /sys; see sysinfo.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/record.h"
#include "sysinfo.h"

int sysinfo_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return (int)n;
}

int sysinfo_write_text(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		e = -errno;
	close(fd);
	return e;
}

int sysinfo_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* Value of the first "key\t: value" line of /proc/cpuinfo. */
int sysinfo_cpuinfo_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	buf[0] = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : 0) {
		const char *p = l + klen;
		size_t n;

		if (strncmp(l, key, klen))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		n = strcspn(p, "\n");
		snprintf(buf, len, "%.*s", (int)n, p);
		return 1;
	}
	return 0;
}

int sysinfo_word_in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; n && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0 || p[n] == '\n'))
			return 1;
	return 0;
}

/* The first CPU's KEY from /proc/cpuinfo (its first block is enough). */
static int cpuinfo_field(const char *key, char *buf, size_t len)
{
	static char text[16384];

	buf[0] = 0;
	return sysinfo_read_text("/proc/cpuinfo", text, sizeof(text)) > 0 &&
	       sysinfo_cpuinfo_value(text, key, buf, len);
}

void sysinfo_cpu_model(char *buf, size_t len)
{
	if (!cpuinfo_field("model name", buf, len))
		snprintf(buf, len, "unknown");
}

int sysinfo_cpu_has_flag(const char *flag)
{
	char flags[4096];

	return cpuinfo_field("flags", flags, sizeof(flags)) && sysinfo_word_in_list(flags, flag);
}

void sysinfo_cpu_map_line(struct cpu_map *m, const char *line)
{
	struct cpu_entry *c = m->n && m->open ? &m->c[m->n - 1] : NULL;
	char v[8192];	/* a flags line is ~1.5 KB; sysinfo_cpu_map_read()'s lines are no longer */
	char *end;
	long x;

	if (sysinfo_cpuinfo_value(line, "processor", v, sizeof(v))) {
		x = strtol(v, &end, 10);
		m->open = end != v && x >= 0 && x <= INT32_MAX && m->n < CPU_MAP_MAX;
		if (m->open)
			m->c[m->n++] = (struct cpu_entry){ .cpu = (int)x, .apic = -1, .tsc_adjust = -1 };
	} else if (c && sysinfo_cpuinfo_value(line, "apicid", v, sizeof(v))) {
		x = strtol(v, &end, 10);
		if (end != v && x >= 0 && x <= 0xffffffffL)
			c->apic = x;
	} else if (c && sysinfo_cpuinfo_value(line, "flags", v, sizeof(v))) {
		c->tsc_adjust = sysinfo_word_in_list(v, "tsc_adjust");
	}
}

int sysinfo_cpu_map_read(struct cpu_map *m)
{
	static char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "re");

	m->n = m->open = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		sysinfo_cpu_map_line(m, line);
	fclose(f);
	return 0;
}

int sysinfo_cpu_of_apic(const struct cpu_map *m, uint32_t apic)
{
	for (int i = 0; i < m->n; i++)
		if (m->c[i].apic == (int64_t)apic)
			return m->c[i].cpu;
	return -1;
}

const struct cpu_entry *sysinfo_cpu_map_find(const struct cpu_map *m, int cpu)
{
	for (int i = 0; i < m->n; i++)
		if (m->c[i].cpu == cpu)
			return &m->c[i];
	return NULL;
}

void sysinfo_machine_name(char *buf, size_t len)
{
	char vendor[128], product[128];

	sysinfo_read_text("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	sysinfo_read_text("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (vendor[0] || product[0]) {
		snprintf(buf, len, "%s%s%s", vendor, vendor[0] && product[0] ? " " : "", product);
		return;
	}
	/* no DMI (a board with a device tree, a VM without SMBIOS): the board's
	 * model, else the CPU's, rather than "unknown" */
	if (sysinfo_read_text("/sys/firmware/devicetree/base/model", buf, len) > 0 && buf[0])
		return;
	sysinfo_cpu_model(buf, len);
}

void sysinfo_machine_id(char *id, size_t len)
{
	char machine[256], uuid[128] = "", model[256], etc_id[64] = "";

	sysinfo_machine_name(machine, sizeof(machine));
	sysinfo_cpu_model(model, sizeof(model));
	sysinfo_read_text("/sys/class/dmi/id/product_uuid", uuid, sizeof(uuid));
	/* a host's own id (systemd's); the appliance has none, its SMBIOS UUID names it */
	sysinfo_read_text("/etc/machine-id", etc_id, sizeof(etc_id));
	snprintf(id, len, "%08x", tp_crc32(tp_crc32(tp_crc32(tp_crc32(0, machine, strlen(machine)), model,
						  strlen(model)), uuid, strlen(uuid)), etc_id, strlen(etc_id)));
}

int sysinfo_running_in_qemu(void)
{
	char vendor[128];

	sysinfo_read_text("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	return !strncmp(vendor, "QEMU", 4);
}

int sysinfo_current_clocksource(char *buf, size_t len)
{
	return sysinfo_read_text(CLOCKSOURCE_DIR "/current_clocksource", buf, len);
}

int sysinfo_set_clocksource(const char *name)
{
	char now[64];
	int rc = sysinfo_write_text(CLOCKSOURCE_DIR "/current_clocksource", name);

	if (rc)
		return rc;
	/* The kernel accepts the write and may still refuse the switch
	 * (e.g. an unstable TSC): read it back. */
	if (sysinfo_current_clocksource(now, sizeof(now)) < 0 || strcmp(now, name))
		return -EINVAL;
	return 0;
}
