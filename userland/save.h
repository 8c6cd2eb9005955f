/* SPDX-License-Identifier: MIT */
/* Saving the run's records on the boot partition (the appliance only). */
#ifndef TP_SAVE_H
#define TP_SAVE_H

#include <stddef.h>
#include "options.h"
#include "suite.h"

/* Says what it did on the consoles (human lines); never fails the run. */
void save_results(const struct options *o, struct suite_result *res);

/*
 * Turns the stub's partition identity ("gpt:<guid>" or "mbr:<sig>:<n>") into
 * the PARTUUID the kernel shows in uevent ("<guid>" or "<sig>-<nn>").
 * Returns 0, or -1 if the identity is malformed.
 */
int bootpart_to_partuuid(const char *bootpart, char *out, size_t len);

/* Next free sequence number among names "NNNN-*.tp1" in a directory listing. */
unsigned next_sequence(const char *const *names, size_t n);

#endif
