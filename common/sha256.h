/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4, 6.2), freestanding C built by the stub and the
 * suite: the stub digests its file and hands the digest over an EFI
 * variable, PID 1 digests the file it finds (common/stubfile.h). Tested
 * against the NIST vectors by tests/unit/test_sha256.c.
 */
#ifndef TP_COMMON_SHA256_H
#define TP_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define TP_SHA256_LEN 32	/* bytes of a digest */

struct tp_sha256 {
	uint32_t h[8];
	uint64_t bytes;		/* message length so far */
	uint8_t block[64];	/* the partial block: bytes % 64 of them */
};

void tp_sha256_init(struct tp_sha256 *c);
void tp_sha256_update(struct tp_sha256 *c, const void *data, size_t n);
void tp_sha256_final(struct tp_sha256 *c, uint8_t out[TP_SHA256_LEN]);
/* The digest of data[0..n) in one call. */
void tp_sha256(const void *data, size_t n, uint8_t out[TP_SHA256_LEN]);

#endif
