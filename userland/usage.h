/* SPDX-License-Identifier: MIT */
#ifndef TIMEPROBE_USAGE_H
#define TIMEPROBE_USAGE_H

#include <stdio.h>

/* `timeprobe help`: every command, the options (the one table) and the exit statuses. */
void usage(FILE *f);

/*
 * 1 when argv asks for the version (`timeprobe --version`) or for one
 * command's help (`timeprobe CMD ... -h|--help`), which is then printed on
 * stdout, *rc set to 0; else 0. report's go to tp-report, which has its own.
 */
int usage_asked(int argc, char **argv, int *rc);

#endif
