/* SPDX-License-Identifier: MIT */
/*
 * Does a clock read enter the kernel? The one check, for probe `clocks`
 * (libc's calls), probe `vdso-check` (the vDSO's own entry points) and,
 * through vdso-check.h, the run's fingerprint: the reads run in a forked
 * child traced with PTRACE_SYSCALL, and the parent counts the time system
 * calls (clock_gettime, gettimeofday, time) the child enters. Exact,
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

#endif
