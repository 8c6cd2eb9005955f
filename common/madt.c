// SPDX-License-Identifier: MIT
/* The MADT's GICC structures and the FADT's ARM_BOOT_ARCH; see madt.h. */
#include "madt.h"
#include "le.h"

/* ACPI 6.5, 5.2.12: the interrupt controller structures start at 44 */
#define MADT_ENTRIES 44
#define MADT_TYPE_GICC 0x0b
/* ACPI 6.5, Table 5.44: GICC fields; 80 bytes since ACPI 6.0 */
#define GICC_UID 8
#define GICC_FLAGS 12
#define GICC_MPIDR 68
#define GICC_MIN_LEN 76
/* ACPI 6.5, Table 5.9: ARM_BOOT_ARCH, 2 bytes, since FADT 5.1 */
#define FADT_ARM_BOOT_ARCH 129
#define FADT_ARM_MIN_LEN 131
#define ARM_BOOT_PSCI_COMPLIANT 0x1u
#define ARM_BOOT_PSCI_USE_HVC 0x2u

static int sig_is(const uint8_t *t, const char *sig)
{
	return t[0] == sig[0] && t[1] == sig[1] && t[2] == sig[2] && t[3] == sig[3];
}

int tp_madt_gicc(const void *madt, uint32_t len, struct tp_gicc *out, size_t max,
		 size_t *total, const char **why)
{
	const uint8_t *t = madt;
	uint32_t off = MADT_ENTRIES;

	*total = 0;
	*why = 0;
	if (!t || len < MADT_ENTRIES || !sig_is(t, "APIC")) {
		*why = "not a MADT, or shorter than 44 bytes";
		return -1;
	}
	while (off < len) {
		uint32_t size = len - off < 2 ? 0 : t[off + 1];

		if (size < 2 || size > len - off) {
			*why = "MADT structure length out of range";
			return -2;
		}
		if (t[off] == MADT_TYPE_GICC) {
			if (size < GICC_MIN_LEN) {
				*why = "MADT GICC structure too short";
				return -3;
			}
			if (*total < max)
				out[*total] = (struct tp_gicc){
					.mpidr = le64(t + off + GICC_MPIDR),
					.uid = le32(t + off + GICC_UID),
					.flags = le32(t + off + GICC_FLAGS),
				};
			(*total)++;
		}
		off += size;
	}
	return 0;
}

int tp_fadt_arm_boot(const void *fadt, uint32_t len, struct tp_arm_boot *b, const char **why)
{
	const uint8_t *t = fadt;
	unsigned int flags;

	*b = (struct tp_arm_boot){ 0 };
	*why = 0;
	if (!t || len < FADT_ARM_MIN_LEN || !sig_is(t, "FACP")) {
		*why = "no FADT of ACPI 5.1 or later (ARM_BOOT_ARCH needs 131 bytes)";
		return -1;
	}
	flags = le16(t + FADT_ARM_BOOT_ARCH);
	b->psci = !!(flags & ARM_BOOT_PSCI_COMPLIANT);
	b->hvc = !!(flags & ARM_BOOT_PSCI_USE_HVC);
	return 0;
}
