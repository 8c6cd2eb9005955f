/* SPDX-License-Identifier: MIT */
/*
 * Little-endian writes for the unit tests that build ACPI tables byte by
 * byte (test_acpi, test_gtdt, test_madt, test_spcr): the other direction
 * of common/le.h.
 */
#ifndef TP_TEST_PUTLE_H
#define TP_TEST_PUTLE_H

#include <stdint.h>

static inline void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

#endif
