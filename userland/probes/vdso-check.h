/* SPDX-License-Identifier: MIT */
/*
 * Probe `vdso-check`'s answer for one clock id, shared with the run's
 * fingerprint (userland/fingerprint.c) so the check exists once.
 */
#ifndef TP_PROBE_VDSO_CHECK_H
#define TP_PROBE_VDSO_CHECK_H

#define VDSO_MAX_CLOCK_ID 11	/* CLOCK_TAI */

/*
 * For every clock id: does clock_gettime(id), called through the vDSO, enter
 * the kernel? out[id] 1 yes, 0 no; -ENOENT no vDSO mapped, -ENOSYS the vDSO
 * lacks __vdso_clock_gettime, -EPERM (or another -errno) tracing refused
 * here. One traced child for all of them: a few milliseconds.
 */
void vdso_clocks_enter_kernel(int out[VDSO_MAX_CLOCK_ID + 1]);

/* "CLOCK_MONOTONIC" for 1; NULL for an id without a name (10) or out of range. */
const char *vdso_clock_name(int clock_id);

#endif
