/* SPDX-License-Identifier: MIT */
/* Facts about the machine, read from /proc and /sys; absent files give "". */
#ifndef TP_SYSINFO_H
#define TP_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

/* Reads a small text file, strips the trailing newline; -errno or length. */
int sysinfo_read_text(const char *path, char *buf, size_t len);
/* Writes a string to a file (sysfs); 0 or -errno. */
int sysinfo_write_text(const char *path, const char *s);

int sysinfo_cpu_count(void);
/*
 * A short machine id, 8 hex digits: stable across runs on one machine,
 * different between machines (name, CPU model, SMBIOS UUID, /etc/machine-id
 * hashed). The results file's name and the run record's machine_id.
 */
void sysinfo_machine_id(char *id, size_t len);
void sysinfo_cpu_model(char *buf, size_t len);
/* The value of the first "key<tabs>: value" line of /proc/cpuinfo text,
 * the key matched whole ("model" is not "model name"); 1 found, 0 not. */
int sysinfo_cpuinfo_value(const char *text, const char *key, char *buf, size_t len);
/* 1 when WORD is one of the space-separated words of LIST. */
int sysinfo_word_in_list(const char *list, const char *word);
/* 1 if /proc/cpuinfo's flags contain FLAG. */
int sysinfo_cpu_has_flag(const char *flag);
/*
 * What /proc/cpuinfo says of each CPU by number: its local APIC ID
 * (`apicid`, the ID the firmware's MP services name a CPU by; x2APIC ID
 * where enabled) and whether its flags list `tsc_adjust`
 * (CPUID.(EAX=07H,ECX=0):EBX[1], IA32_TSC_ADJUST present). The lines are
 * read with sysinfo_cpuinfo_value() and sysinfo_word_in_list().
 */
#define CPU_MAP_MAX 1024
struct cpu_entry {
	int cpu;		/* "processor" */
	int64_t apic;		/* "apicid"; -1: not listed */
	int tsc_adjust;		/* -1: no flags line; else 0 or 1 */
};
struct cpu_map {
	int n;
	int open;		/* the last "processor" line was good: lines belong to c[n - 1] */
	struct cpu_entry c[CPU_MAP_MAX];
};
/* Feeds one line of /proc/cpuinfo (start with n = 0); CPUs past the table are dropped. */
void sysinfo_cpu_map_line(struct cpu_map *m, const char *line);
/* /proc/cpuinfo into m: 0, or -errno when it cannot be read (m then empty). */
int sysinfo_cpu_map_read(struct cpu_map *m);
/* The Linux CPU whose APIC ID is apic, or -1. */
int sysinfo_cpu_of_apic(const struct cpu_map *m, uint32_t apic);
/* The entry of Linux CPU cpu, or NULL. */
const struct cpu_entry *sysinfo_cpu_map_find(const struct cpu_map *m, int cpu);
void sysinfo_machine_name(char *buf, size_t len);
/* 1 when DMI or CPUID says QEMU. */
int sysinfo_running_in_qemu(void);

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"
int sysinfo_current_clocksource(char *buf, size_t len);
int sysinfo_set_clocksource(const char *name);

#endif
