/* SPDX-License-Identifier: MIT */
/*
 * Background load: N child processes that burn CPU in user mode until they
 * are stopped, the seed's "4 and 9 parallel runs in background" without
 * starting 9 copies of the probe. Any probe may use it.
 *
 * The burners die with their parent: load_stop() kills them, each one also
 * asks for SIGKILL when its parent dies (PR_SET_PDEATHSIG), and they stay in
 * the caller's process group, which the suite kills at a probe's time limit.
 */
#ifndef TP_LOAD_H
#define TP_LOAD_H

#include <sys/types.h>

struct load {
	int n;			/* burners running */
	pid_t *pid;
};

/*
 * Starts n burners. Returns 0, or -errno after stopping those already
 * started (l->n is then 0). n == 0 starts nothing and succeeds.
 */
int load_start(struct load *l, int n);

/* Kills and reaps every burner; safe to call twice or on a zeroed struct. */
void load_stop(struct load *l);

#endif
