/* SPDX-License-Identifier: MIT */
/*
 * Probe `vdso-check`'s answer for one clock id, shared with the run's
 * fingerprint (userland/fingerprint.c) so the check exists once.
 */
#ifndef TP_PROBE_VDSO_CHECK_H
#define TP_PROBE_VDSO_CHECK_H

#define VDSO_MAX_CLOCK_ID 11	/* CLOCK_TAI */

/*
 * Does clock_gettime(clock_id), called through the vDSO, enter the kernel?
 * 1 yes, 0 no; -ENOENT no vDSO mapped, -ENOSYS the vDSO lacks
 * __vdso_clock_gettime, -EPERM (or another -errno) tracing refused here.
 * Forks one traced child: a few milliseconds.
 */
int vdso_clock_enters_kernel(int clock_id);

/* "CLOCK_MONOTONIC" for 1; NULL for an id without a name (10) or out of range. */
const char *vdso_clock_name(int clock_id);

#endif
