/* SPDX-License-Identifier: MIT */
/*
 * Probe `tsc`, inside: what tsc.c (the run, the flags), tsc_freq.c (the
 * three figures and their agreement), tsc_kmsg.c (the kernel log) and
 * tsc_warp.c (the cross-CPU check) share. The pure parts are in tsc.h.
 */
#ifndef TP_PROBE_TSC_IMPL_H
#define TP_PROBE_TSC_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/record.h"
#include "../options.h"
#include "../probe.h"
#include "../tsckmsg.h"
#include "tsc.h"

#define P "tsc"

/* The stub's, the kernel's and our own figure of the TSC's rate. */
struct tsc_figures {
	double stub_hz, kernel_hz, user_hz;
	const char *stub_ref, *kernel_ref;
	int kernel_is_early; /* the kernel's figure is tsc_early_khz= */
	int early_is_user;   /* tsc_early_khz= is not the stub's figure: a person's */
	const char *derived[TSC_FIGS]; /* tsc_derivation() */
};

/* The kernel log, read once (kmsg.c), each of its lines parsed once. */
struct tsc_log {
	char *text;	    /* the log, its lines cut in place: m[].msg points into it */
	const char *how;    /* "/dev/kmsg" or "klogctl" */
	int rc;		    /* 0, or -errno: the log could not be read */
	struct tsc_kmsg *m; /* every line about the TSC, oldest first */
	size_t n;
	int64_t khz_detected, khz_tsc, khz_refined; /* the last line of each kind; 0: none */
};

/* ---- tsc_freq.c: stub, kernel and user figures ---- */
/* Hz as an integer: "%.9g" would round a 10-digit frequency. */
void tsc_rec_hz(struct tp_rec *r, const char *key, double hz);
/* "derived_from" when figure FIG was taken from another, and always
 * "independent_of": the figures that do not share its origin. */
void tsc_rec_deps(struct tp_rec *r, const struct tsc_figures *f, int fig);
/* One row of the human table of figures. */
void tsc_human_calib(const char *source, const char *ref, double hz, double spread);
/* Before any record: which figures are derived from which (tsc_derivation()),
 * from the kernel's final figure, tsc_early_khz= (0: none) and the clocksources. */
void tsc_derive(struct tsc_figures *f, const struct tsc_log *log, int64_t early_khz,
		int64_t stub_hz);
void tsc_stub_figures(const struct stub_handoff *st, struct tsc_figures *f);
void tsc_user_figures(struct probe_ctx *ctx, struct tsc_figures *f);
void tsc_agreement(const struct tsc_figures *f);

/* ---- tsc_kmsg.c: the kernel's figures and messages ---- */
/* Reads the log into *log; log->rc says whether it could. */
void tsc_log_read(struct tsc_log *log);
/* TEXT (malloc()ed or NULL, now the log's) through tsc_kmsg_parse(), line by line. */
void tsc_log_parse(struct tsc_log *log, char *text);
void tsc_log_free(struct tsc_log *log);
/* The kernel's final word into f->kernel_hz and f->kernel_ref. */
void tsc_kernel_final(const struct tsc_log *log, struct tsc_figures *f);
/* The kernel's calib records and its "kernel tsc messages" record. */
void tsc_kernel_figures(const struct tsc_log *log, int64_t early_khz, struct tsc_figures *f);

/* ---- tsc_warp.c: one clock across the CPUs? ---- */
/* Pairs of CPUs in the manner of the kernel's check_tsc_warp(); hz converts ticks. */
void tsc_sync_check(struct probe_ctx *ctx, double hz);

#endif
