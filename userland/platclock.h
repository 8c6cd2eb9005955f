/* SPDX-License-Identifier: MIT */
/*
 * Platform counters read from user space, each a struct platclock: opened
 * once by name, then read directly through r->read. Probe `drift` reads
 * each between two TSC reads and records what one read costs; probe
 * `clocks` times the same reads beside the clocksources (clocks_dev.c).
 */
#ifndef TP_PLATCLOCK_H
#define TP_PLATCLOCK_H

#include <stddef.h>
#include <stdint.h>

struct platclock {
	const char *name;	/* "CLOCK_MONOTONIC_RAW", "hpet", "pmtimer", "pit" */
	double hz;		/* nominal rate: the spec's or the device's own word */
	unsigned int bits;	/* counter width, for unwrapping */
	uint64_t (*read)(const struct platclock *r);
	volatile const uint8_t *mmio;	/* hpet: the mapped register page */
	uint16_t port;		/* pmtimer: its I/O port */
	int hpet64;		/* hpet: 64-bit main counter */
	char why[120];		/* not open: why (the skip reason) */
	char where[48];		/* how it was reached, for the record */
};

/* Opens r by name; 0, or -1 with r->why set. "pit" opens the PIT's
 * channel 0 for its read cost only (it counts down, and the kernel may
 * reprogram it): not a reference to time anything by. */
int platclock_open(struct platclock *r);

#endif
