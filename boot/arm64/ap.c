// SPDX-License-Identifier: MIT
/*
 * Another arm64 CPU before the OS (ap.h): its entry code, what it needs
 * from the boot CPU, and its answers (../mpshare.h). The AP runs only tp_ap_entry and
 * tp_ap_main: no UEFI service, only loads, stores, system register reads
 * and PSCI CPU_OFF; every spin on either side ends at a time-out counted
 * on CNTVCT_EL0, so a stuck AP cannot hang the boot.
 */
#include <stddef.h>
#include <stdint.h>

#include "../arm64.h"
#include "ap.h"
#include "psci.h"

_Static_assert(offsetof(struct tp_ap_boot, mair) == 8, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, cptr) == 40, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, el) == 56, "entry code offsets");
_Static_assert(offsetof(struct tp_ap_boot, line) == 72, "entry code offsets");

void tp_ap_main(struct tp_ap_boot *b) __attribute__((visibility("hidden")));

/*
 * x0 = struct tp_ap_boot. At the boot CPU's level only (else straight to
 * CPU_OFF: its registers would mean nothing here): local caches and TLB
 * invalidated, the boot CPU's regime loaded, the MMU and caches on as
 * SCTLR says, then the stack and tp_ap_main; after it, CPU_OFF, and if
 * that returns, wfe for ever.
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
	"	mov x0, x19\n"
	"	bl tp_ap_main\n"
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

/* B, on the AP: who it is, then an answer to every call. */
void tp_ap_main(struct tp_ap_boot *bt)
{
	struct tp_ap_line *ln = bt->line;

	ln->mpidr = TP_ARM64_MRS(mpidr_el1);
	ln->midr = tp_midr();
	ln->cntfrq = tp_cntfrq();
	__atomic_store_n(&ln->ready, 1, __ATOMIC_RELEASE);
	tp_rt_answer(&ln->rt, ln->idle_ticks);
	__atomic_store_n(&ln->finished, 1, __ATOMIC_RELEASE);
}

/* DC CVAC over [p, p + len) and a DSB: in memory for a CPU whose caches are off. */
static void clean_to_poc(const void *p, size_t len)
{
	uint64_t line = 4ull << ((TP_ARM64_MRS(ctr_el0) >> 16) & 0xf);
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(line - 1);

	for (; a < (uintptr_t)p + len; a += line)
		__asm__ __volatile__("dc cvac, %0" : : "r"(a) : "memory");
	__asm__ __volatile__("dsb sy" ::: "memory");
}

int tp_ap_prepare(struct tp_ap_boot *b, void *stack_top, struct tp_ap_line *line, int hvc)
{
	unsigned int el = tp_current_el();

	*b = (struct tp_ap_boot){ .stack_top = (uint64_t)(uintptr_t)stack_top, .el = el,
				  .hvc = (uint64_t)!!hvc, .line = line };
	if (el == 1) {
		b->mair = TP_ARM64_MRS(mair_el1);
		b->tcr = TP_ARM64_MRS(tcr_el1);
		b->ttbr0 = TP_ARM64_MRS(ttbr0_el1);
		b->sctlr = TP_ARM64_MRS(sctlr_el1);
		b->cptr = TP_ARM64_MRS(cpacr_el1);
	} else if (el == 2) {
		b->mair = TP_ARM64_MRS(mair_el2);
		b->tcr = TP_ARM64_MRS(tcr_el2);
		b->ttbr0 = TP_ARM64_MRS(ttbr0_el2);
		b->sctlr = TP_ARM64_MRS(sctlr_el2);
		b->cptr = TP_ARM64_MRS(cptr_el2);
		b->hcr = TP_ARM64_MRS(hcr_el2);
	} else {
		return -1;
	}
	clean_to_poc(b, sizeof(*b));
	clean_to_poc((const void *)tp_ap_entry,
		     (size_t)(tp_ap_entry_end - (const char *)tp_ap_entry));
	return 0;
}
