// SPDX-License-Identifier: MIT
/* CPU-burning background processes; see load.h. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load.h"

/* User-mode work only: no system calls, so the burner competes for CPU time
 * the way the seed's parallel copies of timer-perf did. */
static __attribute__((noreturn)) void burn(pid_t parent)
{
	volatile uint64_t x = 0;

	/* PR_SET_PDEATHSIG fires when the parent dies (prctl(2)); if it died
	 * before the call, getppid() has already changed. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	/* Hold no pipe the suite waits on (the probe's stdout). */
	close(STDOUT_FILENO);
	for (;;)
		x++;
}

int load_start(struct load *l, int n)
{
	pid_t self = getpid();

	l->n = 0;
	l->pid = 0;
	if (n <= 0)
		return 0;
	l->pid = calloc((size_t)n, sizeof(*l->pid));
	if (!l->pid)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			burn(self);
		if (p < 0) {
			int err = errno;

			load_stop(l);
			return -err;
		}
		l->pid[l->n++] = p;
	}
	return 0;
}

void load_stop(struct load *l)
{
	for (int i = 0; i < l->n; i++)
		kill(l->pid[i], SIGKILL);
	for (int i = 0; i < l->n; i++)
		while (waitpid(l->pid[i], 0, 0) < 0 && errno == EINTR)
			;
	free(l->pid);
	l->pid = 0;
	l->n = 0;
}
