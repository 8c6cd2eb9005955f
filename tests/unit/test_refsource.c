// SPDX-License-Identifier: MIT
/*
 * Host tests of the one definition of what the firmware's references count
 * (common/refsource.c): independence follows what a reference counts; the
 * arm64 stub's recorded words (tests/data/serial-arm64-virt-quick.log, the
 * parts below as the stub wrote them) are the table's; and userland/tscref.c,
 * which decides for the suite, gives the same answer for every row. TAP.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/refsource.h"
#include "../../userland/tscref.h"
#include "tap.h"

/* From the arm64 capture: the stub's Stall and RTC records' words. */
static const char stall_rec[] = "\"independent\":false,\"why_not_independent\":\"UEFI Stall on "
	"arm64 counts the generic timer itself (edk2 ArmArchTimerLib)\"";
static const char rtc_rec[] = "\"independent\":null,\"why\":\"not known: the RTC is a device of "
	"its own on most boards, but some firmware (the Raspberry Pi's UEFI) answers GetTime() "
	"from this counter, and under QEMU both follow the host's clocks\"";

static void test_counts(void)
{
	is_int(tp_counts_independent("tsc"), 0, "counts the TSC: not independent");
	is_int(tp_counts_independent("cntvct"), 0, "counts CNTVCT_EL0: not independent");
	is_int(tp_counts_independent("host"), -1, "counts the host's clock: not known");
	is_int(tp_counts_independent(NULL), -1, "counts what is not known: not known");
	is_int(tp_counts_independent("hpet"), 1, "counts a counter of its own: independent");
}

static void test_rows(void)
{
	const struct tp_refsource *stall = tp_refsource_on("arm64", "stall");
	const struct tp_refsource *rtc = tp_refsource_on("arm64", "rtc");
	const struct tp_refsource *gtdt = tp_refsource_on("arm64", "gtdt");
	char want[512];

	ok(stall && rtc && gtdt, "arm64: stall, rtc and gtdt have rows");
	if (!stall || !rtc || !gtdt)
		return;
	is_int(tp_counts_independent(stall->counts), 0, "arm64: Stall counts the counter itself");
	is_int(tp_counts_independent(rtc->counts), -1, "arm64: the RTC not known");
	is_int(tp_counts_independent(gtdt->counts), 0, "arm64: the GTDT's timers, the counter");
	snprintf(want, sizeof(want), "\"independent\":false,\"why_not_independent\":\"%s\"",
		 stall->why);
	is_str(want, stall_rec, "arm64: the stub's recorded Stall words are the row's");
	snprintf(want, sizeof(want), "\"independent\":null,\"why\":\"%s\"", rtc->why);
	is_str(want, rtc_rec, "arm64: the stub's recorded RTC words are the row's");
	ok(tp_refsource_on("x86", "stall") && !tp_refsource_on("x86", "stall")->counts,
	   "x86: Stall, which counter not known");
	ok(!tp_refsource_on("x86", "hpet") && !tp_refsource_on("x86", "rtc") &&
	   !tp_refsource_on(NULL, "stall"), "no row for what tscref.c follows itself");
	ok(tp_refsource("stall") == tp_refsource_on(TP_REFSOURCE_ARCH, "stall"),
	   "tp_refsource(): this build's architecture");
}

/* tscref.c's answer for each of this build's rows is the row's. */
static void test_tscref_agrees(void)
{
	static const char *const refs[] = { "stall", "rtc", "gtdt" };
	struct tscref_run run = { "tsc", 0, 0 };
	char why[320];

	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		const struct tp_refsource *src = tp_refsource(refs[i]);
		int ind = tscref_counter_independent(&run, refs[i], why, sizeof(why));

		if (!src)
			continue;
		ok(ind == tp_counts_independent(src->counts) && strstr(why, src->why),
		   "tscref: %s as the row says (%d: %s)", refs[i], ind, why);
	}
}

int main(void)
{
	test_counts();
	test_rows();
	test_tscref_agrees();
	return tap_done();
}
