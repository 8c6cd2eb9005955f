/* SPDX-License-Identifier: MIT */
/*
 * The run's fingerprint: one `fingerprint` record, right after the `run`
 * record, with what makes two machines time differently (CPU and microcode,
 * hypervisor, TSC properties, clocksource and which clocks enter the kernel,
 * firmware and DMI, kernel build, accelerator, the stub's calibration).
 * A piece that cannot be read is null, and "missing" says why; never a
 * guess. The parsers are pure and tested on recorded text
 * (tests/unit/test_fingerprint.c). See docs/records.md.
 */
#ifndef TP_FINGERPRINT_H
#define TP_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "stubvals.h"
#include "../common/recdecl.h"

/* Gathers and emits the record (and one human line) in a supervised child. */
void fingerprint_emit(const struct options *o, const struct stub_handoff *st, const char *env);

/* ---- pure parts ---- */

/* CPUID.1:EAX as the SDM's DisplayFamily / DisplayModel (Intel SDM vol. 2A, CPUID). */
struct fingerprint_signature {
	int family, model, stepping;
};
void fingerprint_signature(uint32_t eax, struct fingerprint_signature *s);

/* HZ from the coarse clocks' resolution in ns (one tick); 1, or 0 when
 * res_ns is no tick length (HZ outside 24..10000). */
int fingerprint_hz_from_res(int64_t res_ns, int *hz);

/* The CPU's vendor string (CPUID 0): "GenuineIntel", "AuthenticAMD"; "" off x86. */
void fingerprint_cpu_vendor(char out[13]);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key fingerprint_rec_keys[];

#endif
