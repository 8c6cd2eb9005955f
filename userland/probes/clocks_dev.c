// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`: the platform counters behind the hpet, acpi_pm and pit
 * clocksources, read directly from user space (clocks_dev.h). Opening and
 * reading are platclock.c's; this file says which counter is which path
 * and which clocksource it backs, runs the measured loop and adds the
 * counter's keys to its records.
 */
#include <string.h>

#include "../../common/record.h"
#include "../emit.h"
#include "clocks_dev.h"

#define REP16(x) x x x x x x x x x x x x x x x x

/* The kernel's clocksources on these devices: drivers/clocksource/acpi_pm.c
 * ("acpi_pm"), arch/x86/kernel/hpet.c ("hpet"), drivers/clocksource/i8253.c
 * ("pit", registered on 32-bit x86 only). */
static const struct {
	const char *path, *name, *counter, *backs;
} devs[CLK_NDEV] = {
	{ "hpet-mmio", "HPET main counter (MMIO load)", "hpet", "hpet" },
	{ "pmtimer-port", "ACPI PM timer (port read)", "pmtimer", "acpi_pm" },
	{ "pit-latch", "PIT channel 0 (latch and read)", "pit", "pit" },
};

void clocks_devs_init(struct clk_dev d[CLK_NDEV])
{
	for (int i = 0; i < CLK_NDEV; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].path = devs[i].path;
		d[i].name = devs[i].name;
		d[i].backs = devs[i].backs;
		d[i].pc.name = devs[i].counter;
	}
}

void clocks_devs_open(struct clk_dev d[CLK_NDEV])
{
	clocks_devs_init(d);
	for (int i = 0; i < CLK_NDEV; i++)
		d[i].open = platclock_open(&d[i].pc) == 0;
}

int clocks_dev_backing(const struct clk_dev *d, size_t n, const char *cs)
{
	for (size_t i = 0; cs && i < n; i++)
		if (!strcmp(d[i].backs, cs))
			return (int)i;
	return -1;
}

int64_t clocks_dev_batch(const struct platclock *pc, long iters)
{
	uint64_t (*read)(const struct platclock *) = pc->read;
	uint64_t v = 0;

	for (long i = 0; i < iters; i++) {
		REP16(v = read(pc);)
	}
	return (int64_t)v;
}

void clocks_dev_fields(struct tp_rec *r, const struct clk_dev *d)
{
	tp_rec_str(r, "counter", d->pc.name);
	tp_rec_str(r, "via", d->pc.where);
	tp_rec_str(r, "backs_clocksource", d->backs);
	emit_rec_exact(r, "counter_hz", d->pc.hz);
	tp_rec_int(r, "counter_bits", d->pc.bits);
}
