// SPDX-License-Identifier: MIT
/* The kernel's build configuration; see kconfig.h. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kconfig.h"

int kconfig_word(const char *kc, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	buf[0] = 0;
	for (const char *p = kc; p && *p; p = strchr(p, ','), p = p ? p + 1 : 0) {
		if (strncmp(p, name, n) || p[n] != ':')
			continue;
		snprintf(buf, len, "%.*s", (int)strcspn(p + n + 1, ","), p + n + 1);
		return 1;
	}
	return 0;
}

/* "CONFIG_X=value" at the start of a line: a pointer to value, or NULL. */
static const char *config_line(const char *config, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *l = config; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : 0)
		if (!strncmp(l, opt, n) && l[n] == '=')
			return l + n + 1;
	return 0;
}

int kconfig_hz(const char *config, int *hz)
{
	const char *v = config_line(config, "CONFIG_HZ");

	if (!v || *v < '1' || *v > '9')
		return 0;
	*hz = atoi(v);
	return 1;
}

int kconfig_preempt(const char *config, const char **model)
{
	/* kernel/Kconfig.preempt: one of these is =y; DYNAMIC lets the boot
	 * choose, PREEMPT_RT replaces them */
	static const struct {
		const char *opt, *word;
	} order[] = {
		{ "CONFIG_PREEMPT_RT", "rt" }, { "CONFIG_PREEMPT_DYNAMIC", "dynamic" },
		{ "CONFIG_PREEMPT", "full" }, { "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
		{ "CONFIG_PREEMPT_NONE", "none" },
	};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *v = config_line(config, order[i].opt);

		if (v && *v == 'y') {
			*model = order[i].word;
			return 1;
		}
	}
	return 0;
}

#define CONFIG_MAX (1 << 20)

/* Up to CONFIG_MAX - 1 bytes of fd, NUL-terminated (the rest read and
 * dropped, so a writer at the other end never blocks); NULL: no memory. */
static char *read_fd_text(int fd)
{
	char *text = malloc(CONFIG_MAX), sink[4096];
	size_t n = 0;
	ssize_t got;

	if (!text)
		return 0;
	while ((got = read(fd, n < CONFIG_MAX - 1 ? text + n : sink,
			   n < CONFIG_MAX - 1 ? CONFIG_MAX - 1 - n : sizeof(sink))) > 0 ||
	       (got < 0 && errno == EINTR))
		if (got > 0 && n < CONFIG_MAX - 1)
			n += (size_t)got;
	text[n] = 0;
	return text;
}

/* The kernel's .config on a host (/boot/config-RELEASE); NULL if unreadable. */
static char *boot_config(const char *release, int *rc)
{
	char path[320], *text;
	int fd;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		*rc = -errno;
		return 0;
	}
	text = read_fd_text(fd);
	*rc = text ? 0 : -ENOMEM;
	close(fd);
	return text;
}

/*
 * The running kernel's .config from /proc/config.gz (CONFIG_IKCONFIG_PROC),
 * decompressed by `gzip -dc` (no shell, a fixed argv): the static musl build
 * links no zlib. NULL if unreadable, *rc says why.
 */
static char *proc_config(int *rc)
{
	static char *const argv[] = { "gzip", "-dc", "/proc/config.gz", 0 };
	posix_spawn_file_actions_t fa;
	char *text = 0;
	int fd[2], st = 0;
	pid_t pid;

	if (access(argv[2], R_OK) || pipe2(fd, O_CLOEXEC)) {
		*rc = -errno;
		return 0;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	*rc = -posix_spawnp(&pid, argv[0], &fa, 0, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (!*rc) {
		text = read_fd_text(fd[0]);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*rc = !text ? -ENOMEM : WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
	}
	close(fd[0]);
	if (*rc) {
		free(text);
		text = 0;
	}
	return text;
}

char *kconfig_host(const char *release, const char **from, int *rc)
{
	static char why[160];
	char *text = proc_config(rc);
	int rc_proc = *rc;

	*from = "/proc/config.gz";
	if (text || (text = boot_config(release, rc))) {
		*from = text && rc_proc ? "/boot/config-RELEASE" : *from;
		return text;
	}
	snprintf(why, sizeof(why), "/proc/config.gz (gzip -dc): %s; /boot/config-RELEASE: %s",
		 strerror(-rc_proc), strerror(-*rc));
	*from = why;
	return 0;
}
