/* SPDX-License-Identifier: MIT */
/*
 * The stub's figures as PID 1 read them, once, from the stub's file
 * (stub.tp1, common/stubfile.h; stubread.c reads it): typed values every
 * probe and the fingerprint read through ctx->stub (probe.h), never text.
 * The chosen figure and its reference, the boot partition, the firmware and
 * the boot timeline from the stub_handoff record (the formats of
 * common/handoff.h, checked by the contract's rows, common/words.c); the
 * calibration per reference from the `calib` records; every CPU's pre-OS
 * pair and scan from the per-CPU records (stubcpus.h). All zero: no stub
 * file was read (or it was not trusted), and the probes say so.
 */
#ifndef TP_STUBVALS_H
#define TP_STUBVALS_H

#include <stddef.h>
#include <stdint.h>

#include "recread.h"
#include "../common/buf.h"
#include "../common/handoff.h"
#include "../common/words.h"

#define STUB_CALIB_MAX 16

/* Why there is no stub figure at all: the file's name, never a command-line word. */
#define STUB_NONE "no stub file (stub.tp1) taken: no timeprobe stub, or its digest did not match"

/* One reference the stub measured the TSC against: a `calib` record with a measurement. */
struct stub_calib {
	char ref[TP_CALIB_REF_MAX + 1];	/* [a-z0-9_] */
	int64_t hz;			/* TP_CALIB_HZ_MIN..MAX */
	double spread_ppm;		/* >= 0; NaN: the record gives none */
};

struct stubcpus;

struct stub_handoff {
	int found;			/* a trusted stub file was read */
	int64_t tsc_hz;			/* the figure the stub chose; 0: none */
	char tsc_ref[TP_CALIB_REF_MAX + 1];	/* the reference it came from; "": none */
	size_t n_calib;
	struct stub_calib calib[STUB_CALIB_MAX];	/* in the file's order */
	int have_bootpart, have_firmware, have_boot_tsc;
	struct tp_bootpart bootpart;
	struct tp_firmware firmware;
	struct tp_boot_tsc boot_tsc;
	struct stubcpus *cpus;		/* its per-CPU records; NULL: none read */
};

/*
 * A stub_handoff member: the value of the stub's row w (val, as text), checked
 * by the row and parsed into st. Returns NULL, or why it was refused (into msg).
 */
const char *stubvals_set(struct stub_handoff *st, const struct tp_word *w, const char *val,
			 char *msg, size_t len);

/*
 * A `calib` record into st->calib when it holds a measurement (tsc_hz with
 * spread_ppm, or an arm64 RTC's window_s); NULL (taken, or not one: absent,
 * a nominal figure), or why it was refused.
 */
const char *stubvals_calib(struct stub_handoff *st, const struct rec_view *r);

/* st's calibration as "ref:hz:spread_ppm,..." (common/handoff.h's tp_calib_list_add). */
void stubvals_calib_list(const struct stub_handoff *st, struct tp_buf *b);

#endif
