// SPDX-License-Identifier: MIT
/* common/sha256.c against FIPS 180-4's examples and the NIST CAVS vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "tap.h"

static const char *hex(const uint8_t d[TP_SHA256_LEN])
{
	static char s[2 * TP_SHA256_LEN + 1];

	for (int i = 0; i < TP_SHA256_LEN; i++)
		snprintf(s + 2 * i, 3, "%02x", d[i]);
	return s;
}

static void vector(const char *msg, const char *want)
{
	uint8_t d[TP_SHA256_LEN];

	tp_sha256(msg, strlen(msg), d);
	is_str(hex(d), want, msg[0] ? msg : "the empty string");
}

int main(void)
{
	struct tp_sha256 c;
	uint8_t d[TP_SHA256_LEN];
	char *a = malloc(1000000);

	/* FIPS 180-4 examples (NIST, "SHA256.pdf") and the empty string (CAVS SHA256ShortMsg, Len = 0) */
	vector("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	vector("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* one million 'a', fed in uneven pieces across block boundaries */
	memset(a, 'a', 1000000);
	tp_sha256_init(&c);
	for (size_t at = 0, step = 1; at < 1000000; at += step, step = step % 127 + 1)
		tp_sha256_update(&c, a + at, at + step > 1000000 ? 1000000 - at : step);
	tp_sha256_final(&c, d);
	is_str(hex(d), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	       "one million 'a' in pieces");
	tp_sha256(a, 1000000, d);
	is_str(hex(d), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	       "one million 'a' at once");
	/* 55 and 56 bytes: the padding fits in the block, or takes another */
	tp_sha256(a, 55, d);
	is_str(hex(d), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318", "55 'a'");
	tp_sha256(a, 56, d);
	is_str(hex(d), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a", "56 'a'");
	free(a);
	return tap_done();
}
