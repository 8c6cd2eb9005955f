// SPDX-License-Identifier: MIT
/*
 * Host tests of the stub's ACPI walking (common/acpi.c, which the suite uses too). TAP. The tables are
 * built here with the values QEMU's q35 machine publishes (PM timer at I/O
 * 0x608, 24 bits; HPET at 0xfed00000) and then broken one field at a time.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../common/acpi.h"
#include "../../common/x86clock.h"
#include "putle.h"
#include "tap.h"

/* A fake physical memory: a few tables at made-up addresses. */
struct region {
	uint64_t phys;
	uint8_t *buf;
	size_t len;
};

struct mem {
	struct region r[8];
	int n;
	int maps;	/* how many times map() was called */
};

static const void *map(uint64_t phys, size_t len, void *ctx)
{
	struct mem *m = ctx;

	m->maps++;
	for (int i = 0; i < m->n; i++)
		if (phys >= m->r[i].phys && phys + len <= m->r[i].phys + m->r[i].len)
			return m->r[i].buf + (phys - m->r[i].phys);
	return NULL;
}

/* ACPI 6.5, 5.2.6: header with signature, length and a fixed checksum */
static void header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "BOCHS ", 6);
}

static void fix_sum(uint8_t *t, size_t len, size_t sum_off)
{
	t[sum_off] = 0;
	t[sum_off] = (uint8_t)(0x100 - tp_acpi_sum(t, len));
}

static uint8_t rsdp[36], xsdt[36 + 16], rsdt[36 + 8], fadt[276], hpet[56];

#define RSDP_AT 0xf5000ull
#define XSDT_AT 0x7ffe1000ull
#define RSDT_AT 0x7ffe0000ull
#define FADT_AT 0x7ffe2000ull
#define HPET_AT 0x7ffe3000ull

static void build(struct mem *m)
{
	memset(m, 0, sizeof(*m));
	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	memcpy(rsdp + 9, "BOCHS ", 6);
	rsdp[15] = 2;
	put32(rsdp + 16, (uint32_t)RSDT_AT);
	put32(rsdp + 20, 36);
	put64(rsdp + 24, XSDT_AT);
	fix_sum(rsdp, 20, 8);
	fix_sum(rsdp, 36, 32);

	memset(xsdt, 0, sizeof(xsdt));
	header(xsdt, "XSDT", sizeof(xsdt), 1);
	put64(xsdt + 36, FADT_AT);
	put64(xsdt + 44, HPET_AT);
	fix_sum(xsdt, sizeof(xsdt), 9);

	memset(rsdt, 0, sizeof(rsdt));
	header(rsdt, "RSDT", sizeof(rsdt), 1);
	put32(rsdt + 36, (uint32_t)FADT_AT);
	put32(rsdt + 40, (uint32_t)HPET_AT);
	fix_sum(rsdt, sizeof(rsdt), 9);

	/* FADT, ACPI 6.5 Table 5.9 */
	memset(fadt, 0, sizeof(fadt));
	header(fadt, "FACP", sizeof(fadt), 6);
	put32(fadt + 76, 0x608);	/* PM_TMR_BLK */
	fadt[91] = 4;			/* PM_TMR_LEN */
	put32(fadt + 112, 0);		/* flags: TMR_VAL_EXT clear -> 24 bits */
	fadt[208] = 1;			/* X_PM_TMR_BLK: I/O */
	fadt[209] = 32;
	put64(fadt + 212, 0x608);
	fix_sum(fadt, sizeof(fadt), 9);

	/* HPET, IA-PC HPET 1.0a Table 3 */
	memset(hpet, 0, sizeof(hpet));
	header(hpet, "HPET", sizeof(hpet), 1);
	put32(hpet + 36, 0x8086a201);
	hpet[40] = 0;			/* system memory */
	put64(hpet + 44, 0xfed00000);
	fix_sum(hpet, sizeof(hpet), 9);

	m->r[m->n++] = (struct region){ RSDP_AT, rsdp, sizeof(rsdp) };
	m->r[m->n++] = (struct region){ XSDT_AT, xsdt, sizeof(xsdt) };
	m->r[m->n++] = (struct region){ RSDT_AT, rsdt, sizeof(rsdt) };
	m->r[m->n++] = (struct region){ FADT_AT, fadt, sizeof(fadt) };
	m->r[m->n++] = (struct region){ HPET_AT, hpet, sizeof(hpet) };
}

static void test_rsdp(void)
{
	struct mem m;
	struct tp_acpi_root root;

	build(&m);
	is_int(tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root), 0, "RSDP 2.0 valid");
	ok(root.revision == 2 && root.xsdt == XSDT_AT && root.rsdt == RSDT_AT, "XSDT and RSDT found");
	is_str(root.oem_id, "BOCHS ", "OEM ID");

	rsdp[30] ^= 1;	/* inside the extended part only */
	is_int(tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root), 0, "bad extended checksum: still valid");
	ok(root.xsdt == 0 && root.rsdt == RSDT_AT, "... but only the RSDT is trusted");

	build(&m);
	rsdp[16] ^= 1;
	is_int(tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root), -2, "bad 20-byte checksum refused");
	build(&m);
	rsdp[0] = 'X';
	is_int(tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root), -1, "bad signature refused");
	is_int(tp_acpi_parse_rsdp(NULL, 36, &root), -1, "NULL refused");

	/* ACPI 1.0: revision 0, 20 bytes, RSDT only */
	build(&m);
	rsdp[15] = 0;
	fix_sum(rsdp, 20, 8);
	is_int(tp_acpi_parse_rsdp(rsdp, 20, &root), 0, "ACPI 1.0 RSDP");
	ok(root.xsdt == 0 && root.rsdt == RSDT_AT, "ACPI 1.0: RSDT only");
}

static void test_find(void)
{
	struct mem m;
	struct tp_acpi_root root;
	const uint8_t *t;
	uint32_t len = 0;
	int bad = 0;

	build(&m);
	tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root);
	t = tp_acpi_find(&root, "FACP", map, &m, &len, &bad);
	ok(t == fadt && len == sizeof(fadt), "FADT via XSDT");
	t = tp_acpi_find(&root, "HPET", map, &m, &len, &bad);
	ok(t == hpet && len == sizeof(hpet), "HPET via XSDT");
	ok(!tp_acpi_find(&root, "APIC", map, &m, &len, &bad) && bad == 0, "absent table: NULL");

	/* XSDT corrupt: the RSDT still leads to the tables */
	xsdt[40] ^= 0x55;
	t = tp_acpi_find(&root, "HPET", map, &m, &len, &bad);
	ok(t == hpet, "bad XSDT checksum: found via the RSDT");

	/* a table with a bad checksum is skipped and counted */
	build(&m);
	tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root);
	hpet[50] ^= 1;
	ok(!tp_acpi_find(&root, "HPET", map, &m, &len, &bad) && bad == 2,
	   "bad HPET checksum: skipped in XSDT and RSDT (bad=%d)", bad);

	/* an entry pointing at unmapped memory is skipped */
	build(&m);
	put64(xsdt + 36, 0xdead0000ull);
	fix_sum(xsdt, sizeof(xsdt), 9);
	tp_acpi_parse_rsdp(rsdp, sizeof(rsdp), &root);
	ok(tp_acpi_find(&root, "HPET", map, &m, &len, &bad) == hpet, "unmapped entry skipped");
	/* FADT from the XSDT is gone, but the RSDT still has it */
	ok(tp_acpi_find(&root, "FACP", map, &m, &len, &bad) == fadt, "RSDT fallback for FADT");
}

static void test_fadt(void)
{
	struct mem m;
	struct tp_pm_timer pm;
	const char *why;

	build(&m);
	is_int(tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why), 0, "q35 FADT");
	ok(pm.space == ACPI_GAS_IO && pm.address == 0x608 && pm.bits == 24 && pm.from_x,
	   "PM timer: X_PM_TMR_BLK I/O 0x608, 24 bits");
	is_int(pm.ext_flag, 0, "TMR_VAL_EXT clear: reported clear");

	put32(fadt + 112, 1u << 8);	/* TMR_VAL_EXT */
	tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why);
	is_int(pm.bits, 24, "TMR_VAL_EXT: still read as 24 bits (Linux's ACPI_PM_MASK)");
	is_int(pm.ext_flag, 1, "TMR_VAL_EXT: the flag is reported");

	build(&m);
	put64(fadt + 212, 0);		/* no X_PM_TMR_BLK: legacy field */
	put32(fadt + 76, 0xb008);
	is_int(tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why), 0, "legacy PM_TMR_BLK");
	ok(pm.address == 0xb008 && !pm.from_x, "legacy port used when X address is 0");

	build(&m);
	put64(fadt + 212, 0xfe000008ull);	/* X in memory space */
	fadt[208] = 0;
	tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why);
	ok(pm.space == ACPI_GAS_MEMORY && pm.address == 0xfe000008ull, "memory-space X_PM_TMR_BLK");

	build(&m);
	fadt[208] = 2;				/* PCI config space: not usable */
	tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why);
	ok(!pm.from_x && pm.address == 0x608, "X in an unsupported space: legacy field instead");

	/* ACPI 1.0 FADT: 116 bytes, no X fields */
	build(&m);
	is_int(tp_acpi_fadt_pm_timer(fadt, 116, &pm, &why), 0, "ACPI 1.0 FADT");
	ok(pm.address == 0x608 && !pm.from_x, "ACPI 1.0: legacy port");

	build(&m);
	put32(fadt + 112, 1u << 20);
	ok(tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why) < 0 && strstr(why, "hardware-reduced"),
	   "hardware-reduced ACPI: no PM timer");

	build(&m);
	put64(fadt + 212, 0);
	put32(fadt + 76, 0);
	ok(tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why) < 0 && strstr(why, "is 0"),
	   "PM_TMR_BLK 0: absent");

	build(&m);
	put64(fadt + 212, 0);
	fadt[91] = 0;
	ok(tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why) < 0 && strstr(why, "PM_TMR_LEN"),
	   "PM_TMR_LEN 0: absent");

	build(&m);
	put64(fadt + 212, 0x12345);
	ok(tp_acpi_fadt_pm_timer(fadt, sizeof(fadt), &pm, &why) < 0, "I/O port above 0xffff refused");
	ok(tp_acpi_fadt_pm_timer(fadt, 60, &pm, &why) < 0, "truncated FADT refused");
}

static void test_hpet(void)
{
	struct mem m;
	struct tp_hpet_table h;
	const char *why;

	build(&m);
	is_int(tp_acpi_hpet(hpet, sizeof(hpet), &h, &why), 0, "q35 HPET table");
	ok(h.address == 0xfed00000 && h.block_id == 0x8086a201, "base 0xfed00000");
	hpet[40] = 1;
	ok(tp_acpi_hpet(hpet, sizeof(hpet), &h, &why) < 0 && strstr(why, "system memory"),
	   "I/O-space HPET refused");
	build(&m);
	put64(hpet + 44, 0);
	ok(tp_acpi_hpet(hpet, sizeof(hpet), &h, &why) < 0, "base 0 refused");
	ok(tp_acpi_hpet(hpet, 40, &h, &why) < 0, "short table refused");

	/* QEMU's GCAP_ID: period 10^7 fs (100 MHz), 64-bit counter, 3 timers */
	is_int(tp_hpet_period_fs(0x0098968000008201ull | 0x2000), 10000000, "period from GCAP_ID");
	is_int(tp_hpet_period_fs(0x0429b17f8086a201ull), 69841279, "chipset GCAP_ID: 69841279 fs");
}

int main(void)
{
	test_rsdp();
	test_find();
	test_fadt();
	test_hpet();
	return tap_done();
}
