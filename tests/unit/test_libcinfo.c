// SPDX-License-Identifier: MIT
/*
 * libcinfo_read() (userland/libcinfo.h), built here against glibc: the
 * name is glibc's own version, and the rseq answer follows what glibc
 * did: registered by default (glibc 2.35 and later), not registered when
 * the tunable glibc.pthread.rseq=0 turns it off (this test runs itself
 * again with it). The suite's musl build answers "not registered"
 * (tests/host/fingerprint.t).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "../../userland/libcinfo.h"

int main(int argc, char **argv)
{
	struct libc_info li;
	pid_t pid;
	int st = 0;

	libcinfo_read(&li);
	if (argc > 1 && !strcmp(argv[1], "--rseq"))
		return li.rseq == 0 ? 0 : 10 + li.rseq;
	ok(li.name && !strncmp(li.name, "glibc 2.", 8), "glibc names itself: %s (%s)",
	   li.name ? li.name : "-", li.from);
	if (li.rseq < 0) {
		printf("# %s\n", li.rseq_how);
		return tap_done();
	}
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35)
	is_int(li.rseq, 1, "glibc registered rseq for this thread");
#endif
	pid = fork();
	if (pid == 0) {
		char *args[] = { argv[0], "--rseq", 0 };

		setenv("GLIBC_TUNABLES", "glibc.pthread.rseq=0", 1);
		execv(argv[0], args);
		_exit(99);
	}
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "with glibc.pthread.rseq=0: not registered (status %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return tap_done();
}
