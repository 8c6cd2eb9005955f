/* SPDX-License-Identifier: MIT */
/*
 * One line of the kernel's log about the TSC, classified and its figures
 * read: the one parser of arch/x86/kernel/tsc.c's calibration lines, its
 * giving up on the TSC, and tsc_sync.c's warp. The tsc probe (every line)
 * and tscref.c (the kernel's final figure, for drift and the fingerprint)
 * both read the log through it. Pure: tests/unit/test_tsc.c.
 */
#ifndef TP_TSCKMSG_H
#define TP_TSCKMSG_H

#include <stddef.h>
#include <stdint.h>

enum tsc_kmsg_kind {
	TSC_KMSG_NONE = 0, /* nothing about the TSC */
	TSC_KMSG_FREQ,	   /* a calibration figure: nfreq of ref[]/khz[] */
	TSC_KMSG_UNSTABLE, /* the kernel gave up on the TSC: reason */
	TSC_KMSG_WARP,	   /* tsc_sync.c measured a warp: warp_ticks */
	TSC_KMSG_NOTE,	   /* anything else about the TSC worth showing */
};

struct tsc_kmsg {
	enum tsc_kmsg_kind kind;
	size_t nfreq;
	const char *ref[2]; /* "detected", "detected_tsc", "refined", "pit", "hpet", "pmtimer" */
	int64_t khz[2];	    /* the kernel prints kHz resolution */
	int64_t warp_ticks;
	char reason[96];
	const char *msg; /* the message without its log prefix (points into the line) */
	long long usec;	 /* time stamp since boot, -1 if the line had none */
};

/* Classifies one log line, with or without a /dev/kmsg or klogctl prefix. */
enum tsc_kmsg_kind tsc_kmsg_parse(const char *line, struct tsc_kmsg *m);

#endif
