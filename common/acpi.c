// SPDX-License-Identifier: MIT
/* ACPI table parsers; see acpi.h. Freestanding, tested by tests/unit/test_acpi.c. */
#include "acpi.h"
#include "le.h"

static int sig_eq(const uint8_t *p, const char *sig, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)sig[i])
			return 0;
	return 1;
}

uint8_t tp_acpi_sum(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t s = 0;

	while (len--)
		s = (uint8_t)(s + *b++);
	return s;
}

int tp_acpi_parse_rsdp(const void *p, size_t avail, struct tp_acpi_root *root)
{
	const uint8_t *b = p;

	/* ACPI 6.5, 5.2.5.3: 20 bytes in 1.0, 36 from 2.0 */
	if (!b || avail < 20 || !sig_eq(b, "RSD PTR ", 8))
		return -1;
	if (tp_acpi_sum(b, 20))
		return -2;
	root->revision = b[15];
	for (int i = 0; i < 6; i++)
		root->oem_id[i] = (char)b[9 + i];
	root->oem_id[6] = 0;
	root->rsdt = le32(b + 16);
	root->xsdt = 0;
	if (root->revision >= 2) {
		uint32_t len = avail >= 24 ? le32(b + 20) : 0;

		/* A bad extended part still leaves the RSDT usable. */
		if (len >= 36 && len <= avail && tp_acpi_sum(b, len) == 0)
			root->xsdt = le64(b + 24);
	}
	if (!root->xsdt && !root->rsdt)
		return -3;
	return 0;
}

/* Maps a whole table: header first, then its full length. */
static const uint8_t *map_table(uint64_t phys, tp_acpi_map_fn map, void *ctx, uint32_t *len)
{
	const uint8_t *h = map(phys, ACPI_HDR_LEN, ctx);
	uint32_t l;

	if (!h)
		return 0;
	l = le32(h + 4);
	if (l < ACPI_HDR_LEN)
		return 0;
	*len = l;
	return map(phys, l, ctx);
}

static const void *find_in(uint64_t sdt, int entry_size, const char *sdt_sig,
			   const char sig[4], tp_acpi_map_fn map, void *ctx,
			   uint32_t *len, int *bad_sum)
{
	const uint8_t *t;
	uint32_t tlen, n;

	if (!sdt)
		return 0;
	t = map_table(sdt, map, ctx, &tlen);
	if (!t || !sig_eq(t, sdt_sig, 4) || tp_acpi_sum(t, tlen))
		return 0;
	n = (tlen - ACPI_HDR_LEN) / (uint32_t)entry_size;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = t + ACPI_HDR_LEN + i * (uint32_t)entry_size;
		uint64_t phys = entry_size == 8 ? le64(e) : le32(e);
		const uint8_t *h;
		uint32_t l;

		if (!phys)
			continue;
		h = map(phys, ACPI_HDR_LEN, ctx);
		if (!h || !sig_eq(h, sig, 4))
			continue;
		h = map_table(phys, map, ctx, &l);
		if (!h || tp_acpi_sum(h, l)) {
			if (bad_sum)
				(*bad_sum)++;
			continue;
		}
		*len = l;
		return h;
	}
	return 0;
}

const void *tp_acpi_find(const struct tp_acpi_root *root, const char sig[4],
			 tp_acpi_map_fn map, void *ctx, uint32_t *len, int *bad_sum)
{
	const void *t;

	if (bad_sum)
		*bad_sum = 0;
	/* ACPI 6.5, 5.2.8: "An ACPI-compatible OS must use the XSDT if present" */
	t = find_in(root->xsdt, 8, "XSDT", sig, map, ctx, len, bad_sum);
	if (!t)
		t = find_in(root->rsdt, 4, "RSDT", sig, map, ctx, len, bad_sum);
	return t;
}

/* ACPI 6.5, Table 5.9 (FADT) offsets */
#define FADT_PM_TMR_BLK 76
#define FADT_PM_TMR_LEN 91
#define FADT_FLAGS 112
#define FADT_X_PM_TMR_BLK 208
#define FADT_FLAG_TMR_VAL_EXT (1u << 8)
#define FADT_FLAG_HW_REDUCED_ACPI (1u << 20)

int tp_acpi_fadt_pm_timer(const void *fadt, uint32_t len, struct tp_pm_timer *pm,
			  const char **why)
{
	const uint8_t *f = fadt;
	uint32_t flags = 0, blk;

	*why = 0;
	if (!f || len < FADT_PM_TMR_LEN + 1 || !sig_eq(f, "FACP", 4)) {
		*why = "FADT too short";
		return -1;
	}
	if (len >= FADT_FLAGS + 4)
		flags = le32(f + FADT_FLAGS);
	if (flags & FADT_FLAG_HW_REDUCED_ACPI) {
		/* ACPI 6.5, 4.1: hardware-reduced platforms have no PM timer */
		*why = "hardware-reduced ACPI (no PM timer)";
		return -2;
	}
	/*
	 * Read 24 bits whatever TMR_VAL_EXT says: firmware sets the flag on
	 * timers that are 24 bits wide, and a 24-bit counter read as 32 bits
	 * turns every wrap into a 2^32-tick jump. Linux masks the same way
	 * (drivers/clocksource/acpi_pm.c, ACPI_PM_MASK = CLOCKSOURCE_MASK(24)).
	 * At 3.58 MHz 24 bits wrap after 4.68 s, far beyond a round. The flag
	 * is kept only to be reported.
	 */
	pm->ext_flag = (flags & FADT_FLAG_TMR_VAL_EXT) != 0;
	pm->bits = 24;
	pm->from_x = 0;
	pm->space = ACPI_GAS_IO;
	pm->address = 0;
	/* ACPI 6.5, 5.2.9: X_PM_TMR_BLK "is used in place of" PM_TMR_BLK when
	 * its address is non-zero. Memory-space PM timers are unusual but legal. */
	if (len >= FADT_X_PM_TMR_BLK + 12) {
		const uint8_t *gas = f + FADT_X_PM_TMR_BLK;
		uint64_t addr = le64(gas + 4);

		if (addr && (gas[0] == ACPI_GAS_IO || gas[0] == ACPI_GAS_MEMORY)) {
			pm->space = gas[0];
			pm->address = addr;
			pm->from_x = 1;
		}
	}
	if (!pm->from_x) {
		blk = le32(f + FADT_PM_TMR_BLK);
		if (!blk) {
			*why = "FADT PM_TMR_BLK is 0";
			return -3;
		}
		if (f[FADT_PM_TMR_LEN] != 4) {
			*why = "FADT PM_TMR_LEN is not 4";
			return -4;
		}
		pm->address = blk;
	}
	if (pm->space == ACPI_GAS_IO && pm->address > 0xffff) {
		*why = "PM timer I/O port above 0xffff";
		return -5;
	}
	return 0;
}

/* IA-PC HPET 1.0a, Table 3: HPET description table offsets */
#define HPET_TBL_BLOCK_ID 36
#define HPET_TBL_BASE_GAS 40
#define HPET_TBL_NUMBER 52
#define HPET_TBL_MIN_TICK 53
#define HPET_TBL_LEN 56

int tp_acpi_hpet(const void *hpet, uint32_t len, struct tp_hpet_table *h, const char **why)
{
	const uint8_t *t = hpet;

	*why = 0;
	if (!t || len < HPET_TBL_LEN || !sig_eq(t, "HPET", 4)) {
		*why = "HPET table too short";
		return -1;
	}
	h->block_id = le32(t + HPET_TBL_BLOCK_ID);
	h->address = le64(t + HPET_TBL_BASE_GAS + 4);
	h->number = t[HPET_TBL_NUMBER];
	h->min_tick = le16(t + HPET_TBL_MIN_TICK);
	if (t[HPET_TBL_BASE_GAS] != ACPI_GAS_MEMORY) {
		*why = "HPET base not in system memory";
		return -2;
	}
	if (!h->address) {
		*why = "HPET base address is 0";
		return -3;
	}
	return 0;
}
