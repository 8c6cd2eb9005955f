// SPDX-License-Identifier: MIT
/* The suite's C library and its rseq registration; see libcinfo.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/rseq.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "libcinfo.h"

/* The signature is any 32-bit value; this is the one the kernel's
 * selftests use on x86 (tools/testing/selftests/rseq/rseq-x86.h). */
#define PROBE_SIG 0x53053053

static void libc_name(struct libc_info *li)
{
#if defined(__GLIBC__)
	static char name[48];

	snprintf(name, sizeof(name), "glibc %s", gnu_get_libc_version());
	li->name = name;
	li->from = "gnu_get_libc_version()";
#elif defined(TP_LIBC)
	/* musl has no version API: the build took it from what the compiler
	 * links (tools/libc-name.sh) */
	li->name = TP_LIBC;
	li->from = TP_LIBC_FROM;
#else
	li->name = 0;
	li->from = "not glibc, and the build named no libc (tools/libc-name.sh)";
#endif
}

/*
 * rseq(2) allows one area per thread: registering one of our own succeeds
 * only when the libc registered none (then it is unregistered at once),
 * and fails with EINVAL or EBUSY when the libc holds one; a kernel
 * without it (ENOSYS) has none registered either.
 */
static void rseq_state(struct libc_info *li)
{
#ifdef SYS_rseq
	static struct rseq area __attribute__((aligned(32)));
	long rc = syscall(SYS_rseq, &area, sizeof(area), 0, PROBE_SIG);

	if (rc == 0) {
		syscall(SYS_rseq, &area, sizeof(area), RSEQ_FLAG_UNREGISTER, PROBE_SIG);
		li->rseq = 0;
		li->rseq_how = "rseq(2): an area of our own registered, so the libc holds none";
	} else if (errno == EINVAL || errno == EBUSY || errno == EPERM) {
		li->rseq = 1;
		li->rseq_how = "rseq(2): an area of our own refused, as when the libc holds one";
	} else if (errno == ENOSYS) {
		li->rseq = 0;
		li->rseq_how = "rseq(2) not in this kernel (CONFIG_RSEQ off): nothing can be registered";
	} else {
		li->rseq = -1;
		li->rseq_how = "rseq(2): an unexpected error";
	}
#else
	li->rseq = -1;
	li->rseq_how = "no rseq system call number in this build";
#endif
}

void libcinfo_read(struct libc_info *li)
{
	libc_name(li);
	rseq_state(li);
}
