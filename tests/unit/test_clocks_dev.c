// SPDX-License-Identifier: MIT
/* Unit tests for probe `clocks`' platform counters (userland/probes/clocks_dev.h):
 * which counter backs which clocksource, and the measured loop's read count,
 * with a counter that counts its own reads (no device touched). */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "../../userland/probes/clocks_dev.h"

static void test_backing(void)
{
	struct clk_dev d[CLK_NDEV];
	int k;

	clocks_devs_init(d);
	k = clocks_dev_backing(d, CLK_NDEV, "hpet");
	ok(k >= 0 && !strcmp(d[k].path, "hpet-mmio") && !strcmp(d[k].pc.name, "hpet"),
	   "clocksource hpet: the HPET main counter through MMIO");
	k = clocks_dev_backing(d, CLK_NDEV, "acpi_pm");
	ok(k >= 0 && !strcmp(d[k].path, "pmtimer-port") && !strcmp(d[k].pc.name, "pmtimer"),
	   "clocksource acpi_pm: the PM timer's port");
	k = clocks_dev_backing(d, CLK_NDEV, "pit");
	ok(k >= 0 && !strcmp(d[k].path, "pit-latch") && !strcmp(d[k].pc.name, "pit"),
	   "clocksource pit: the PIT latched and read");
	is_int(clocks_dev_backing(d, CLK_NDEV, "tsc"), -1, "tsc: no platform counter behind it");
	is_int(clocks_dev_backing(d, CLK_NDEV, "kvm-clock"), -1, "kvm-clock: none");
	is_int(clocks_dev_backing(d, CLK_NDEV, "hpet "), -1, "an exact name only");
	is_int(clocks_dev_backing(d, CLK_NDEV, ""), -1, "empty name: none");
	is_int(clocks_dev_backing(d, CLK_NDEV, 0), -1, "no clocksource: none");
	is_int(clocks_dev_backing(d, 1, "acpi_pm"), -1, "only the first n are looked at");
	for (int i = 0; i < CLK_NDEV; i++) {
		ok(!d[i].open && d[i].name && d[i].name[0], "%s: closed after init, named", d[i].path);
		for (int j = i + 1; j < CLK_NDEV; j++)
			ok(strcmp(d[i].path, d[j].path) && strcmp(d[i].backs, d[j].backs),
			   "%s and %s: distinct paths and clocksources", d[i].path, d[j].path);
	}
}

static uint64_t reads;

static uint64_t count_read(const struct platclock *pc)
{
	return ++reads * 7;
}

static void test_batch(void)
{
	struct platclock pc = { .name = "fake", .read = count_read };

	reads = 0;
	is_int(clocks_dev_batch(&pc, 3), 48 * 7, "3 iterations: 48 reads, the last value returned");
	is_int(reads, 48, "16 reads per iteration");
	reads = 0;
	is_int(clocks_dev_batch(&pc, 0), 0, "no iterations: no read, 0");
	is_int(reads, 0, "nothing read");
}

int main(void)
{
	test_backing();
	test_batch();
	return tap_done();
}
