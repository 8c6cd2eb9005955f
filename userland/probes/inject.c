// SPDX-License-Identifier: MIT
/*
 * Fault-injection probes (timeprobe.inject=crash,hang,exit): they do exactly
 * what their name says, so a user or a test can see the suite survive them.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../emit.h"
#include "../probe.h"

static enum probe_status inject_crash(struct probe_ctx *ctx)
{
	(void)ctx;
	human("inject-crash: raising SIGSEGV\n");
	raise(SIGSEGV);
	return PROBE_FAILED;
}

static __attribute__((noreturn)) enum probe_status inject_hang(struct probe_ctx *ctx)
{
	(void)ctx;
	human("inject-hang: sleeping until killed\n");
	for (;;)
		pause();
}

static enum probe_status inject_exit(struct probe_ctx *ctx)
{
	(void)ctx;
	human("inject-exit: exiting with status 3\n");
	exit(3);
}

static const struct probe inject_table[] = {
	{ "crash", "raises SIGSEGV", inject_crash, 10, 10 },
	{ "hang", "never returns; killed at its time limit", inject_hang, 5, 5 },
	{ "exit", "exits with status 3", inject_exit, 10, 10 },
};

const struct probe *inject_find(const char *name)
{
	for (size_t i = 0; i < sizeof(inject_table) / sizeof(inject_table[0]); i++)
		if (!strcmp(inject_table[i].name, name))
			return &inject_table[i];
	return 0;
}
