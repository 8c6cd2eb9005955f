// SPDX-License-Identifier: MIT
/*
 * Another arm64 CPU before the OS (ap.h): the CPUs the ACPI tables list,
 * the entry code, what it needs from the boot CPU, CPU_ON and the wait for
 * the CPU to be off again. The other CPU runs only tp_ap_entry and fn.
 */
#include <stddef.h>
#include <stdint.h>

#include "../efiacpi.h"
#include "../mpshare.h"
#include "../arm64.h"
#include "ap.h"
#include "psci.h"

_Static_assert(offsetof(struct tp_ap_boot, mair) == 8, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, cptr) == 40, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, el) == 56, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, fn) == 72, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, arg) == 80, "entry code offsets");

/*
 * x0 = struct tp_ap_boot. At the boot CPU's level only (else straight to
 * CPU_OFF: its registers would mean nothing here): its instruction cache and TLB
 * invalidated, the boot CPU's regime loaded, the MMU and caches on as
 * SCTLR says, then the stack and fn(arg); after it, CPU_OFF, and if that
 * returns, wfe for ever.
 */
__asm__(
	".text\n"
	".balign 64\n"
	".globl tp_ap_entry\n"
	".type tp_ap_entry, %function\n"
	"tp_ap_entry:\n"
	"	mov x19, x0\n"
	"	ic iallu\n"
	"	dsb nsh\n"
	"	isb\n"
	"	mrs x1, CurrentEL\n"
	"	lsr x1, x1, #2\n"
	"	ldr x2, [x19, #56]\n"
	"	cmp x1, x2\n"
	"	b.ne 3f\n"
	"	cmp x1, #2\n"
	"	b.eq 1f\n"
	"	ldr x1, [x19, #8]\n	msr mair_el1, x1\n"
	"	ldr x1, [x19, #16]\n	msr tcr_el1, x1\n"
	"	ldr x1, [x19, #24]\n	msr ttbr0_el1, x1\n"
	"	ldr x1, [x19, #40]\n	msr cpacr_el1, x1\n"
	"	isb\n"
	"	tlbi vmalle1\n"
	"	dsb nsh\n"
	"	isb\n"
	"	ldr x1, [x19, #32]\n	msr sctlr_el1, x1\n"
	"	isb\n"
	"	b 2f\n"
	"1:	ldr x1, [x19, #48]\n	msr hcr_el2, x1\n"
	"	isb\n"
	"	ldr x1, [x19, #8]\n	msr mair_el2, x1\n"
	"	ldr x1, [x19, #16]\n	msr tcr_el2, x1\n"
	"	ldr x1, [x19, #24]\n	msr ttbr0_el2, x1\n"
	"	ldr x1, [x19, #40]\n	msr cptr_el2, x1\n"
	"	isb\n"
	"	tlbi alle2\n"
	"	dsb nsh\n"
	"	isb\n"
	"	ldr x1, [x19, #32]\n	msr sctlr_el2, x1\n"
	"	isb\n"
	"2:	ldr x1, [x19, #0]\n"
	"	mov sp, x1\n"
	"	ldr x2, [x19, #72]\n"
	"	ldr x0, [x19, #80]\n"
	"	blr x2\n"
	"3:	ldr x1, [x19, #64]\n"
	"	movz x0, #0x0002\n"
	"	movk x0, #0x8400, lsl #16\n"
	"	cbz x1, 4f\n"
	"	hvc #0\n"
	"	b 5f\n"
	"4:	smc #0\n"
	"5:	wfe\n"
	"	b 5b\n"
	".globl tp_ap_entry_end\n"
	"tp_ap_entry_end:\n"
	".size tp_ap_entry, tp_ap_entry_end - tp_ap_entry\n");

extern const char tp_ap_entry_end[];

/* DC CVAC over [p, p + len) and a DSB: in memory for a CPU whose caches are off. */
static void clean_to_poc(const void *p, size_t len)
{
	uint64_t line = 4ull << ((TP_ARM64_MRS(ctr_el0) >> 16) & 0xf);
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(line - 1);

	for (; a < (uintptr_t)p + len; a += line)
		__asm__ __volatile__("dc cvac, %0" : : "r"(a) : "memory");
	__asm__ __volatile__("dsb sy" ::: "memory");
}

/* b from this CPU's registers at its level; 0, or -1 at neither EL1 nor EL2. */
static int prepare(struct tp_ap_boot *b)
{
	b->el = tp_current_el();
	if (b->el == 1) {
		b->mair = TP_ARM64_MRS(mair_el1);
		b->tcr = TP_ARM64_MRS(tcr_el1);
		b->ttbr0 = TP_ARM64_MRS(ttbr0_el1);
		b->sctlr = TP_ARM64_MRS(sctlr_el1);
		b->cptr = TP_ARM64_MRS(cpacr_el1);
	} else if (b->el == 2) {
		b->mair = TP_ARM64_MRS(mair_el2);
		b->tcr = TP_ARM64_MRS(tcr_el2);
		b->ttbr0 = TP_ARM64_MRS(ttbr0_el2);
		b->sctlr = TP_ARM64_MRS(sctlr_el2);
		b->cptr = TP_ARM64_MRS(cptr_el2);
		b->hcr = TP_ARM64_MRS(hcr_el2);
	} else {
		return -1;
	}
	return 0;
}

int64_t tp_ap_start(struct tp_ap_boot *b, int hvc, uint64_t mpidr, void *stack_top,
		    void (*fn)(void *), void *arg)
{
	*b = (struct tp_ap_boot){ .stack_top = (uint64_t)(uintptr_t)stack_top,
				  .hvc = (uint64_t)!!hvc, .fn = fn, .arg = arg };
	if (prepare(b))
		return PSCI_INTERNAL_FAILURE;
	clean_to_poc(b, sizeof(*b));
	clean_to_poc((const void *)tp_ap_entry,
		     (size_t)(tp_ap_entry_end - (const char *)tp_ap_entry));
	return tp_psci_call(hvc, PSCI_CPU_ON_64, mpidr, (uint64_t)(uintptr_t)tp_ap_entry,
			    (uint64_t)(uintptr_t)b);
}

int tp_ap_wait_off(int hvc, uint64_t mpidr, uint64_t ticks_per_ms, uint64_t ms)
{
	uint64_t t0 = tp_cntvct();

	do {
		if (tp_psci_call(hvc, PSCI_AFFINITY_INFO_64, mpidr, 0, 0) == PSCI_AFFINITY_OFF)
			return 1;
	} while (tp_cntvct() - t0 < ms * ticks_per_ms);
	return 0;
}

struct tp_ap_kit *tp_ap_kits(uint64_t *n)
{
	return tp_pool_upto(n, sizeof(struct tp_ap_kit), 64);
}

/* The MADT's CPUs (c->total counted) into the pool, as many as it holds up to TP_STUB_CPUS_MAX. */
static const char *keep_cpus(struct tp_ap_cpus *c, const void *madt, uint32_t len)
{
	uint64_t n = c->total < TP_STUB_CPUS_MAX ? c->total : TP_STUB_CPUS_MAX;
	const char *why;
	size_t total;

	c->cpu = tp_pool_upto(&n, sizeof(struct tp_gicc), 8);
	if (!c->cpu)
		return "no memory in the pool for the MADT's CPUs";
	if (tp_madt_gicc(madt, len, c->cpu, (size_t)n, &total, &why))
		return why;
	c->n = (size_t)n;
	return NULL;
}

const char *tp_ap_find(EFI_SYSTEM_TABLE *st, struct tp_ap_cpus *c)
{
	struct tp_acpi_root root;
	const void *t;
	const char *why;
	uint32_t len;
	int bad;

	c->n = c->total = 0;
	if ((why = tp_efi_acpi_root(st, &root)) != NULL)
		return why;
	t = tp_acpi_find(&root, "FACP", tp_acpi_map_identity, NULL, &len, &bad);
	if (!t || tp_fadt_arm_boot(t, len, &c->conduit, &why))
		return why ? why : "no FADT";
	if (!c->conduit.psci)
		return "the FADT says the firmware has no PSCI (ARM_BOOT_ARCH)";
	if (c->conduit.hvc && tp_current_el() == 2)
		return "PSCI through HVC while the stub runs at EL2: the call would come back to EL2";
	t = tp_acpi_find(&root, "APIC", tp_acpi_map_identity, NULL, &len, &bad);
	if (!t)
		return "no MADT";
	if (tp_madt_gicc(t, len, NULL, 0, &c->total, &why))
		return why;
	return keep_cpus(c, t, len);
}
