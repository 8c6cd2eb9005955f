/* SPDX-License-Identifier: MIT */
/*
 * The kernel's build configuration, for the fingerprint's kernel_hz and
 * kernel_preempt: in the appliance the build's kconfig word
 * ("hz:250,preempt:none", tools/kconfig-words.sh); on a host the running
 * kernel's .config, from /proc/config.gz (through `gzip -dc`) or
 * /boot/config-RELEASE, and its CONFIG_HZ and preemption model.
 */
#ifndef TP_KCONFIG_H
#define TP_KCONFIG_H

#include <stddef.h>

/* The value of NAME in the build's kconfig word "hz:250,preempt:none". */
int kconfig_word(const char *kc, const char *name, char *buf, size_t len);

/* From a kernel .config text (/proc/config.gz, /boot/config-RELEASE): CONFIG_HZ, and the
 * preemption model as the kconfig word names it (none, voluntary, full,
 * dynamic, rt); 1 found, 0 not. */
int kconfig_hz(const char *config, int *hz);
int kconfig_preempt(const char *config, const char **model);

/*
 * The host kernel's .config (malloc'd, at most 1 MiB): /proc/config.gz,
 * else /boot/config-RELEASE; *from names the one read, or both tried and
 * why they failed (then NULL, *rc the last -errno).
 */
char *kconfig_host(const char *release, const char **from, int *rc);

#endif
