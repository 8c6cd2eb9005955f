// SPDX-License-Identifier: MIT
/* SHA-256 as FIPS 180-4 sections 4.1.2, 4.2.2, 5.1.1, 5.3.3 and 6.2 give it; see sha256.h. */
#include "sha256.h"

/* 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes */
static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

/* 6.2.2: one 512-bit block into the hash value */
static void compress(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], v[8];

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ w[t - 15] >> 3;
		uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ w[t - 2] >> 10;

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	for (int i = 0; i < 8; i++)
		v[i] = h[i];
	for (int t = 0; t < 64; t++) {
		uint32_t e = v[4], a = v[0];
		uint32_t t1 = v[7] + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & v[5]) ^ (~e & v[6])) +
			      k256[t] + w[t];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));

		for (int i = 7; i > 0; i--)
			v[i] = v[i - 1];
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void tp_sha256_init(struct tp_sha256 *c)
{
	/* 5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes */
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	for (int i = 0; i < 8; i++)
		c->h[i] = h0[i];
	c->bytes = 0;
}

void tp_sha256_update(struct tp_sha256 *c, const void *data, size_t n)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < n; i++) {
		c->block[c->bytes++ % 64] = p[i];
		if (c->bytes % 64 == 0)
			compress(c->h, c->block);
	}
}

/* 5.1.1: a 1 bit, zeros to 448 mod 512, the length in bits as 64 bits big-endian */
void tp_sha256_final(struct tp_sha256 *c, uint8_t out[TP_SHA256_LEN])
{
	uint64_t bits = c->bytes * 8;
	uint8_t one = 0x80, zero = 0, len[8];

	tp_sha256_update(c, &one, 1);
	while (c->bytes % 64 != 56)
		tp_sha256_update(c, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	tp_sha256_update(c, len, 8);
	for (int i = 0; i < TP_SHA256_LEN; i++)
		out[i] = (uint8_t)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}

void tp_sha256(const void *data, size_t n, uint8_t out[TP_SHA256_LEN])
{
	struct tp_sha256 c;

	tp_sha256_init(&c);
	tp_sha256_update(&c, data, n);
	tp_sha256_final(&c, out);
}
