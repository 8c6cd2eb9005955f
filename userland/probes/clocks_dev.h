/* SPDX-License-Identifier: MIT */
/*
 * Probe `clocks`, the platform counters as paths of its cost matrix: the
 * HPET main counter through MMIO, the ACPI PM timer through its I/O port,
 * the PIT latched and read. Each is the device access under one of the
 * kernel's clocksources (hpet, acpi_pm, pit), read from user space through
 * userland/platclock.c, the one reader. clocks.c measures them with its own
 * kernel, once per run. docs/probes/clocks.md, "Platform counters".
 */
#ifndef TP_PROBES_CLOCKS_DEV_H
#define TP_PROBES_CLOCKS_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "../platclock.h"

#define CLK_NDEV 3

struct tp_rec;

/* One counter: what it is (fixed) and whether this process can read it. */
struct clk_dev {
	const char *path;	/* the record's path: "hpet-mmio", "pmtimer-port", "pit-latch" */
	const char *name;	/* the record's name */
	const char *backs;	/* the clocksource the kernel builds on it */
	struct platclock pc;	/* open: pc.read works; else pc.why says why not */
	int open;
};

/* The three counters, in a fixed order, closed (no device touched). */
void clocks_devs_init(struct clk_dev d[CLK_NDEV]);

/* The same, each opened where possible (platclock_open()). */
void clocks_devs_open(struct clk_dev d[CLK_NDEV]);

/* The counter behind clocksource cs in d[0..n), or -1 (tsc, kvm-clock, ...). */
int clocks_dev_backing(const struct clk_dev *d, size_t n, const char *cs);

/* iters * 16 reads of the counter; returns the last value read. */
int64_t clocks_dev_batch(const struct platclock *pc, long iters);

/* The counter's own keys of a result record: counter, via, backs_clocksource, counter_hz, counter_bits. */
void clocks_dev_fields(struct tp_rec *r, const struct clk_dev *d);

#endif
