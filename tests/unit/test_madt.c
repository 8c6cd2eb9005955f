// SPDX-License-Identifier: MIT
/* Host tests of common/madt.c: a MADT shaped like QEMU virt's (a GIC
 * distributor, GICC structures of 80 and 82 bytes, a GIC ITS), broken
 * ones, and FADTs with and without ARM_BOOT_ARCH. TAP. */
#include <stdint.h>
#include <string.h>

#include "../../common/madt.h"
#include "putle.h"
#include "tap.h"

static uint8_t t[512];

/* One GICC of size bytes at t[off]; returns the next offset. */
static uint32_t gicc(uint32_t off, uint8_t size, uint32_t uid, uint32_t flags, uint64_t mpidr)
{
	t[off] = 0x0b;
	t[off + 1] = size;
	put32(t + off + 8, uid);
	put32(t + off + 12, flags);
	put64(t + off + 68, mpidr);
	return off + size;
}

/* QEMU virt's order: GICD (type 0xc, 24 bytes), then the CPUs, then an ITS. */
static uint32_t madt(int cpus)
{
	uint32_t off = 44;

	memset(t, 0, sizeof(t));
	memcpy(t, "APIC", 4);
	t[off] = 0x0c;
	t[off + 1] = 24;
	off += 24;
	for (int i = 0; i < cpus; i++)
		off = gicc(off, i ? 82 : 80, (uint32_t)i, 1, i == 2 ? 0xab00010203ull : (uint64_t)i);
	t[off] = 0x0f;
	t[off + 1] = 20;
	off += 20;
	put32(t + 4, off);
	return off;
}

static void test_madt(void)
{
	struct tp_gicc g[2];
	size_t total;
	const char *why;
	uint32_t len = madt(3);

	is_int(tp_madt_gicc(t, len, g, 2, &total, &why), 0, "madt: three CPUs among other structures");
	is_int((int)total, 3, "madt: every GICC counted");
	ok(g[0].mpidr == 0 && g[0].flags == TP_GICC_ENABLED && g[0].uid == 0, "madt: the first CPU's fields");
	ok(g[1].mpidr == 1 && g[1].uid == 1, "madt: an 82-byte GICC (ACPI 6.3) read the same");
	is_int(tp_madt_gicc(t, len, NULL, 0, &total, &why), 0, "madt: counted without room to keep any");
	is_int((int)total, 3, "madt: ... all three");

	len = madt(0);
	is_int(tp_madt_gicc(t, len, g, 2, &total, &why), 0, "madt: no GICC, parsed");
	is_int((int)total, 0, "madt: ... none counted");

	len = madt(1);
	t[44 + 24 + 1] = 60;
	ok(tp_madt_gicc(t, len, g, 2, &total, &why) < 0 && why, "madt: a GICC of 60 bytes refused");
	t[44 + 24 + 1] = 0;
	ok(tp_madt_gicc(t, len, g, 2, &total, &why) < 0 && why, "madt: a structure of length 0 refused (no endless loop)");
	t[44 + 24 + 1] = 200;
	ok(tp_madt_gicc(t, len, g, 2, &total, &why) < 0 && why, "madt: a structure past the table refused");
	ok(tp_madt_gicc(t, 43, g, 2, &total, &why) < 0 && why, "madt: a table of 43 bytes refused");
	memcpy(t, "FACP", 4);
	ok(tp_madt_gicc(t, len, g, 2, &total, &why) < 0 && why, "madt: another signature refused");
}

static void test_fadt(void)
{
	struct tp_arm_boot b;
	const char *why;

	memset(t, 0, sizeof(t));
	memcpy(t, "FACP", 4);
	t[129] = 0x3;
	is_int(tp_fadt_arm_boot(t, 276, &b, &why), 0, "fadt: ACPI 6 FADT parsed");
	ok(b.psci && b.hvc, "fadt: PSCI through HVC (QEMU virt without EL2)");
	t[129] = 0x1;
	tp_fadt_arm_boot(t, 276, &b, &why);
	ok(b.psci && !b.hvc, "fadt: PSCI through SMC");
	t[129] = 0;
	tp_fadt_arm_boot(t, 276, &b, &why);
	ok(!b.psci, "fadt: no PSCI");
	ok(tp_fadt_arm_boot(t, 130, &b, &why) < 0 && why, "fadt: shorter than ARM_BOOT_ARCH refused");
	memcpy(t, "APIC", 4);
	ok(tp_fadt_arm_boot(t, 276, &b, &why) < 0 && why, "fadt: another signature refused");
}

int main(void)
{
	test_madt();
	test_fadt();
	return tap_done();
}
