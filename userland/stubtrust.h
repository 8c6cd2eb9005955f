/* SPDX-License-Identifier: MIT */
/*
 * Whether PID 1 may take the stub's file (common/stubfile.h) at all: its
 * SHA-256 must be the one the stub set in the volatile EFI variable
 * TP_STUB_DIGEST_VAR, read through efivarfs with exactly the volatile
 * attributes; and of its records only the stub's own types are kept.
 * Called from stubread.c; tested by tests/unit/test_stubtrust.c and, across
 * the stub, by tests/boot/68-forged-initrd.t.
 */
#ifndef TP_STUBTRUST_H
#define TP_STUBTRUST_H

#include <stddef.h>

#include "../common/sha256.h"

/*
 * NULL when text[0..len)'s SHA-256 is the digest in the efivarfs file
 * varpath; else why not, said on the console too. hex gets the file's
 * digest (2 * TP_SHA256_LEN + 1 bytes) for the error record.
 */
const char *stubtrust_check_at(const char *varpath, const void *text, size_t len, char *hex);
/* The same against TP_STUB_DIGEST_EFIVARFS. */
const char *stubtrust_check(const void *text, size_t len, char *hex);

/* sink_keep() for records of the stub's own types (tp_stub_type()); others said and dropped. */
void stubtrust_keep(const char *line, size_t len);

#endif
