/* SPDX-License-Identifier: MIT */
/* Facts about the machine, read from /proc and /sys; absent files give "". */
#ifndef TP_SYSINFO_H
#define TP_SYSINFO_H

#include <stddef.h>

/* Reads a small text file, strips the trailing newline; -errno or length. */
int read_text(const char *path, char *buf, size_t len);
/* Writes a string to a file (sysfs); 0 or -errno. */
int write_text(const char *path, const char *s);

int cpu_count(void);
void cpu_model(char *buf, size_t len);
/* 1 if /proc/cpuinfo's flags contain FLAG. */
int cpu_has_flag(const char *flag);
void machine_name(char *buf, size_t len);
/* 1 when DMI or CPUID says QEMU. */
int running_in_qemu(void);

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"
int current_clocksource(char *buf, size_t len);
int set_clocksource(const char *name);

#endif
