// SPDX-License-Identifier: MIT
/*
 * The ELF lookup probe vdso-check finds the vDSO's entry points with
 * (userland/trace_entry.c): against this process's own vDSO (the symbols it
 * finds work and agree with libc), and against images that are not a vDSO
 * (refused).
 */
#include <elf.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

#include "../../userland/trace_entry.h"
#include "tap.h"

int main(void)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	unsigned char junk[256] = { 0 };
	Elf64_Ehdr *eh = (Elf64_Ehdr *)junk;

	ok(!trace_vdso_symbol(junk, "__vdso_clock_gettime"), "a buffer that is not ELF: no symbol");
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	ok(!trace_vdso_symbol(junk, "__vdso_clock_gettime"), "a 32-bit ELF: refused");
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_phoff = sizeof(*eh);
	ok(!trace_vdso_symbol(junk, "__vdso_clock_gettime"), "no program headers: no symbol");
	if (!base) {
		printf("1..3 # no vDSO in this process\n");
		return tap_failed ? 1 : 0;
	}
	{
		int (*cgt)(clockid_t, struct timespec *) =
			(int (*)(clockid_t, struct timespec *))trace_vdso_symbol(base, TRACE_VDSO_CLOCK_GETTIME);
		struct timespec a, b, c;

		ok(cgt != 0, "this process's vDSO exports " TRACE_VDSO_CLOCK_GETTIME);
		ok(!trace_vdso_symbol(base, "__vdso_no_such_thing"), "an unknown name: none");
		ok(!trace_vdso_symbol(base, "clock_gettim"), "a prefix of a name: none");
		if (cgt) {
			clock_gettime(CLOCK_MONOTONIC, &a);
			ok(cgt(CLOCK_MONOTONIC, &b) == 0, "calling it works");
			clock_gettime(CLOCK_MONOTONIC, &c);
			ok((b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec)) &&
				   (c.tv_sec > b.tv_sec || (c.tv_sec == b.tv_sec && c.tv_nsec >= b.tv_nsec)),
			   "its CLOCK_MONOTONIC lies between two of libc's");
			ok(cgt(-1, &b) < 0, "an invalid clock id gives the fallback's -errno");
		}
	}
	return tap_done();
}
