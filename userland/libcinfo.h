/* SPDX-License-Identifier: MIT */
/*
 * Which C library the suite runs on, and whether it registered rseq for
 * the suite's threads: the two differ between a host program (glibc,
 * which registers rseq per thread since 2.35) and the appliance (musl,
 * which registers none), and both move the figures of clocks, switch and
 * yield. The fingerprint carries them.
 */
#ifndef TP_LIBCINFO_H
#define TP_LIBCINFO_H

struct libc_info {
	const char *name;	/* "musl 1.2.3", "glibc 2.36"; NULL: not known */
	const char *from;	/* where the name comes from */
	int rseq;		/* 1: registered, 0: not, -1: not known */
	const char *rseq_how;	/* how that was found, or why not */
};

void libcinfo_read(struct libc_info *li);

#endif
