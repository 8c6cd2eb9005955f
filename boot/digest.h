/* SPDX-License-Identifier: MIT */
/*
 * The stub's file handed over by its digest: the SHA-256 of every record
 * kept (console.h, con->kept) in the volatile EFI variable PID 1 checks the
 * file by (common/stubfile.h, TP_STUB_DIGEST_VAR), and said.
 */
#ifndef TP_BOOT_DIGEST_H
#define TP_BOOT_DIGEST_H

#include "console.h"

void tp_digest_hand_over(struct tp_console *con);

#endif
