/* SPDX-License-Identifier: MIT */
/*
 * Does a clock read enter the kernel? The one check, for probe `clocks`
 * (libc's calls), probe `vdso-check` (the vDSO's own entry points) and the
 * run's fingerprint (every clock id through the vDSO): the reads run in a
 * forked child traced with PTRACE_SYSCALL, and the parent counts the time
 * system calls (clock_gettime, gettimeofday, time) the child enters. Exact,
 * whatever libc and the vDSO decide; no timing involved.
 */
#ifndef TP_TRACE_ENTRY_H
#define TP_TRACE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

/* Item i of the caller's list, read once; runs in the traced child. */
typedef void (*trace_read_fn)(void *arg, size_t i);

/*
 * One traced child: for each i < n a marker system call (close() of a
 * negative descriptor that names i), then read(arg, i) `calls` times.
 * count[i] (n of them) gets the time system calls entered after item i's
 * marker and before the next one. Returns 0; -EPERM when this machine
 * refuses tracing (PTRACE_TRACEME: a seccomp policy, Yama scope 3);
 * another -errno when a ptrace request or wait failed; -ECHILD when the
 * child did not exit cleanly. Forks once: a few milliseconds.
 */
int trace_time_syscalls(trace_read_fn read, void *arg, size_t n, int calls, uint64_t *count);

/* ---- the vDSO's own entry points ---- */

#define TRACE_MAX_CLOCK_ID 11	/* CLOCK_TAI */

/*
 * What the vDSO calls its entry points on this architecture (Linux 6.1,
 * arch/x86/entry/vdso/vdso.lds.S and arch/arm64/kernel/vdso/vdso.lds.S):
 * __vdso_* on x86, __kernel_* on arm64, whose vDSO has no time() (libc's
 * time() reads clock_gettime there). NULL: this vDSO has no such entry.
 */
#if defined(__aarch64__)
#define TRACE_VDSO_CLOCK_GETTIME "__kernel_clock_gettime"
#define TRACE_VDSO_GETTIMEOFDAY "__kernel_gettimeofday"
#define TRACE_VDSO_TIME NULL
#else
#define TRACE_VDSO_CLOCK_GETTIME "__vdso_clock_gettime"
#define TRACE_VDSO_GETTIMEOFDAY "__vdso_gettimeofday"
#define TRACE_VDSO_TIME "__vdso_time"
#endif

/*
 * The function NAME exported by the vDSO image at BASE
 * (getauxval(AT_SYSINFO_EHDR)), found through its dynamic section and
 * DT_HASH; NULL if BASE is not a 64-bit ELF image or NAME is not there.
 */
const void *trace_vdso_symbol(const void *base, const char *name);

/* "CLOCK_MONOTONIC" for 1; NULL for an id without a name (10) or out of range. */
const char *trace_clock_name(int clock_id);

/*
 * For every named clock id: does clock_gettime(id), called through the
 * vDSO's TRACE_VDSO_CLOCK_GETTIME, enter the kernel? out[id] 1 yes, 0 no;
 * -ENOENT no vDSO mapped, -ENOSYS the vDSO lacks TRACE_VDSO_CLOCK_GETTIME (or
 * the id has no name), -EPERM (or another -errno) tracing refused here. One
 * traced child for all of them: a few milliseconds.
 */
void trace_clocks_enter_kernel(int out[TRACE_MAX_CLOCK_ID + 1]);

#endif
