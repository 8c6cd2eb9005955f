// SPDX-License-Identifier: MIT
/*
 * tscref.h: the kernel's TSC figure and how it was derived, from recorded
 * log text (a q35 TCG boot with the stub's tsc_early_khz=, a KVM guest, a
 * bare-metal refinement, /dev/kmsg's prefix), and which references are
 * independent of the TSC (circular under clocksource tsc and kvm-clock).
 */
#include <stdio.h>
#include <string.h>

#include "../../userland/tscref.h"
#include "tap.h"

/* tests/data/serial-q35-drift.log, the lines that matter, as the console showed them */
static const char q35[] =
	"[    0.000000] Command line: console=ttyS0,115200 panic=10 tsc_early_khz=2445426 timeprobe.tsc_hz=2445426059\n"
	"[    0.000000] tsc: Fast TSC calibration using PIT\n"
	"[    0.000000] tsc: Detected 2445.489 MHz processor\n"
	"[    0.000000] tsc: Detected 2445.426 MHz TSC\n"
	"[    0.267520] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns\n"
	"[    0.303522] tsc: Marking TSC unstable due to TSCs unsynchronized\n";

/* a KVM guest's dmesg */
static const char kvm[] =
	"[    0.000000] [Firmware Bug]: TSC doesn't count with P0 frequency!\n"
	"[    0.000002] clocksource: kvm-clock: mask: 0xffffffffffffffff max_cycles: 0x1cd42e4dffb, max_idle_ns: 881590591483 ns\n"
	"[    0.000048] tsc: Detected 2596.150 MHz processor\n"
	"[    0.408364] clocksource: Switched to clocksource tsc\n";

/* bare metal, read through /dev/kmsg ("PRIO,SEQ,USEC,FLAGS;message") */
static const char metal[] =
	"6,12,0,-;tsc: Fast TSC calibration using PIT\n"
	"6,13,0,-;tsc: Detected 2893.012 MHz processor\n"
	"6,200,112000,-;clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 133484873504 ns\n"
	"6,201,120000,-;clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns\n"
	"6,400,1336103,-;tsc: Refined TSC clocksource calibration: 2893.055 MHz\n"
	"6,401,1336200,-;clocksource: tsc: mask: 0xffffffffffffffff max_cycles: 0x29b3a4b5c7e, max_idle_ns: 440795273946 ns\n";

static void kernel_figure(void)
{
	struct ktsc k;

	ok(tscref_ktsc_parse(q35, 2445426059, &k), "q35: a figure");
	is_int(k.khz, 2445426, "q35: tsc_khz is the \"MHz TSC\" line, not cpu_khz");
	is_str(k.ref, "stub", "q35: tsc_early_khz= on the command line: the stub's figure");
	is_str(k.line, "tsc: Detected 2445.426 MHz TSC", "q35: the line it came from, prefix stripped");
	ok(k.early_khz == 2445426 && !k.early_is_user, "q35: tsc_early_khz= is the stub's figure");
}

/* Issue 50, H3: the origin is the value's. A typed tsc_early_khz= (either
 * spelling) that is not the stub's figure is the user's, not the stub's. */
static void typed_early_khz(void)
{
	static const char *const lines[] = {
		"[    0.000000] Command line: console=ttyS0 tsc_early_khz=1234567 panic=0\n",
		"[    0.000000] Command line: console=ttyS0 tsc-early-khz=1234567\n",
		"[    0.000000] Command line: tsc_early_khz=2445426 x\xc2\xa0tsc-early-khz=1234567\n",
	};
	static const char tail[] = "[    0.000000] tsc: Fast TSC calibration using PIT\n"
				   "[    0.000000] tsc: Detected 1234.567 MHz TSC\n";
	char log[512];
	struct ktsc k;

	for (size_t i = 0; i < 3; i++) {
		snprintf(log, sizeof(log), "%s%s", lines[i], tail);
		ok(tscref_ktsc_parse(log, 2445426059, &k) && k.khz == 1234567 && k.early_khz == 1234567 &&
		   k.early_is_user && !k.ref && strstr(k.from, "set by the user"),
		   "typed tsc_early_khz=1234567 (%zu of 3: either spelling, the last wins): the user's", i + 1);
	}
	snprintf(log, sizeof(log), "%s%s", "[    0.000000] Command line: a -- tsc_early_khz=1\n", tail);
	ok(tscref_ktsc_parse(log, 2445426059, &k) && !k.early_khz && !strcmp(k.ref, "pit"),
	   "after \"--\" it is no parameter: the PIT's figure");
	snprintf(log, sizeof(log), "%s%s", lines[0], tail);
	ok(tscref_ktsc_parse(log, 1234567000, &k) && !k.early_is_user && !strcmp(k.ref, "stub"),
	   "the same word with the stub's figure 1234567000 Hz: the stub's");
	ok(tscref_ktsc_parse(log, 0, &k) && k.early_is_user, "and with no stub at all: the user's");

	ok(tscref_ktsc_parse(kvm, 0, &k), "kvm: a figure");
	is_int(k.khz, 2596150, "kvm: 2596.150 MHz");
	is_str(k.ref, "kvm-clock", "kvm: from the hypervisor");

	ok(tscref_ktsc_parse(metal, 0, &k), "bare metal: a figure");
	is_int(k.khz, 2893055, "bare metal: the refined figure wins");
	is_int(k.detected_khz, 2893012, "bare metal: the early one kept");
	is_str(k.from, "refined against hpet", "bare metal: refined against hpet (registered)");
	is_str(k.ref, "hpet", "bare metal: its counter");

	ok(!tscref_ktsc_parse("[    0.000000] tsc: Detected 2596.15 MHz processor\n"
		       "[    0.1] tsc: Refined TSC clocksource calibration: x MHz\n", 0, &k),
	   "two decimals or no number: no figure");
	ok(!tscref_ktsc_parse("", 0, &k) && k.khz == 0, "an empty log: none");
	ok(tscref_ktsc_parse("[    0.000000] tsc: Detected 2893.012 MHz processor\n", 0, &k) &&
		   !strcmp(k.ref, "cpuid"), "no calibration line: CPUID or an MSR");
}

#define RAW "CLOCK_MONOTONIC_RAW"

/* A machine (no hypervisor) whose clocksource is cs. */
static const struct tscref_run *on(const char *cs)
{
	static struct tscref_run run;

	run = (struct tscref_run){ cs, 0, 0 };
	return &run;
}

static void independence(void)
{
	char why[192];

	is_int(tscref_counter_independent(on("tsc"), RAW, why, sizeof(why)), 0,
	       "RAW under clocksource tsc: not independent");
	ok(!strncmp(why, TSCREF_CIRCULAR_RAW, strlen(TSCREF_CIRCULAR_RAW)), "and says circular: %s", why);
	is_int(tscref_counter_independent(on("kvm-clock"), RAW, why, sizeof(why)), 0,
	       "RAW under kvm-clock (the TSC scaled by the hypervisor's figure): not independent");
	is_int(tscref_counter_independent(on("arch_sys_counter"), RAW, why, sizeof(why)), 0,
	       "RAW under arch_sys_counter (arm64: the generic timer's counter): not independent");
	ok(tscref_circular_raw(why) && strstr(why, "CNTVCT_EL0"), "and says circular, naming the counter: %s", why);
	is_int(tscref_counter_independent(on("some_board_timer"), RAW, why, sizeof(why)), -1,
	       "RAW under a clocksource not listed: not known");
	ok(!tscref_circular_raw(why), "and not called circular: %s", why);
	is_int(tscref_counter_independent(on("hpet"), RAW, why, sizeof(why)), 1,
	       "RAW under clocksource hpet: independent");
	is_int(tscref_counter_independent(on("jiffies"), RAW, why, sizeof(why)), -1,
	       "RAW under jiffies: not known");
	is_int(tscref_counter_independent(on(""), RAW, why, sizeof(why)), -1,
	       "clocksource unread: not known");
	is_int(tscref_counter_independent(on("tsc"), "hpet", why, sizeof(why)), 1,
	       "hpet: independent");

	is_int(tscref_ppm_independent(on("tsc"), "hpet", RAW, why, sizeof(why)), 1,
	       "hpet against our calibration through RAW: independent");
	is_int(tscref_ppm_independent(on("hpet"), RAW, RAW, why,
				      sizeof(why)), 0,
	       "RAW against a calibration through the same RAW: circular even under hpet");
	ok(!strncmp(why, "circular: ", 10), "and says circular: %s", why);
	is_int(tscref_ppm_independent(on("tsc"), "hpet", "hpet", why, sizeof(why)), 0,
	       "hpet against the kernel's figure refined against hpet: not independent");
	is_int(tscref_ppm_independent(on("tsc"), "pmtimer", "pit", why, sizeof(why)), 1,
	       "PM timer against a PIT figure: independent");
	is_int(tscref_ppm_independent(on("tsc"), "hpet", 0, why, sizeof(why)), -1,
	       "against a figure of unknown origin: not known");
	is_int(tscref_ppm_independent(on("tsc"), RAW, "pit", why, sizeof(why)), 0,
	       "RAW under tsc against any figure: circular");
	is_int(tscref_ppm_independent(on("hpet"), RAW, "hpet", why, sizeof(why)), 0,
	       "RAW under clocksource hpet against a figure measured against hpet: circular");
	ok(strstr(why, "both count the HPET") != NULL, "and says both count the HPET: %s", why);
	is_int(tscref_ppm_independent(on("acpi_pm"), RAW, "hpet", why, sizeof(why)),
	       1, "RAW under acpi_pm against an HPET figure: independent");
	is_int(tscref_ppm_independent(on("tsc"), "hpet", "cpuid", why, sizeof(why)), 1,
	       "hpet against CPUID's claim on a machine: independent");
	is_int(tscref_ppm_independent(on("tsc"), "hpet", "stall", why, sizeof(why)), -1,
	       "against a figure from UEFI Stall(): not known what it counts");
}

/* Under a hypervisor or an emulator the platform counters are the host's clock. */
static void guest(void)
{
	struct tscref_run run = { "hpet", 0, 1 };
	char why[320];

	is_int(tscref_counter_independent(&run, "hpet", why, sizeof(why)), -1,
	       "guest: hpet by itself, not known (the host's clock)");
	ok(!strncmp(why, "not known: ", 11), "and says not known: %s", why);
	is_int(tscref_ppm_independent(&run, "pmtimer", "hpet", why, sizeof(why)), 0,
	       "guest: the PM timer against an HPET figure, one host clock: circular");
	is_int(tscref_ppm_independent(&run, RAW, "pmtimer", why, sizeof(why)), 0,
	       "guest: RAW under hpet against a PM timer figure: circular");
	is_int(tscref_ppm_independent(&run, "hpet", "kvm-clock", why, sizeof(why)), 0,
	       "guest: hpet against the hypervisor's figure: circular");
	is_int(tscref_ppm_independent(&run, "hpet", "cpuid", why, sizeof(why)), 0,
	       "guest: hpet against the hypervisor's CPUID: circular");
	is_int(tscref_ppm_independent(&run, "hpet", "pit", why, sizeof(why)), 0,
	       "guest: hpet against a PIT figure: circular");
}

int main(void)
{
	kernel_figure();
	typed_early_khz();
	independence();
	guest();
	return tap_done();
}
