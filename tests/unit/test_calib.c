// SPDX-License-Identifier: MIT
/* Host tests of the calibration arithmetic: the clocks in integers both stages
 * share (common/x86clock.c) and the stub's own rules (boot/calib.c). TAP. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../boot/calib.h"
#include "../../common/x86clock.h"
#include "tap.h"

typedef unsigned __int128 u128;

static uint64_t ref_muldiv(uint64_t a, uint64_t b, uint64_t c, int round)
{
	u128 n = (u128)a * b + (round ? c / 2 : 0), q = n / c;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static uint64_t rnd64(void)
{
	/* xorshift64*: deterministic */
	static uint64_t x = 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return x * 2685821657736338717ull;
}

static void test_muldiv(void)
{
	int bad = 0;

	for (int i = 0; i < 20000; i++) {
		uint64_t a = rnd64() >> (rnd64() % 64), b = rnd64() >> (rnd64() % 64);
		uint64_t c = (rnd64() >> (rnd64() % 64)) | 1;
		int r = i & 1;

		if (tp_muldiv64(a, b, c, r) != ref_muldiv(a, b, c, r))
			bad++;
	}
	is_int(bad, 0, "muldiv64 agrees with native 128-bit division on 20000 random cases");
	is_int(tp_muldiv64(3000000000ull, 1000000000000000ull, 1000000000000000ull, 0),
	       3000000000ull, "muldiv64: a*b beyond 2^64, exact quotient");
	ok(tp_muldiv64(UINT64_MAX, UINT64_MAX, 1, 0) == UINT64_MAX, "muldiv64 saturates on overflow");
	ok(tp_muldiv64(1, 1, 0, 0) == UINT64_MAX, "muldiv64 by zero gives UINT64_MAX");
	is_int(tp_muldiv64(7, 1, 2, 1), 4, "muldiv64 rounds half up when asked");
	is_int(tp_muldiv64(7, 1, 2, 0), 3, "muldiv64 floors by default");
}

static void test_wrap(void)
{
	is_int(tp_counter_delta(0xffff00, 0x000100, 24), 0x200, "PM timer 24-bit wrap");
	is_int(tp_counter_delta(0x100, 0x300, 24), 0x200, "PM timer no wrap");
	/* the upper byte of a 24-bit PM timer read through inl() is garbage-free
	 * zero on real hardware, but masking must not care */
	is_int(tp_counter_delta(0xaaffff00, 0xbb000100, 24), 0x200, "24-bit delta ignores bits 31:24");
	is_int(tp_counter_delta(0xffffff00, 0x00000100, 32), 0x200, "32-bit wrap");
	ok(tp_counter_delta(5, 3, 64) == UINT64_MAX - 1, "64-bit modular delta");
}

/*
 * A recorded PM timer sequence crossing the 24-bit wrap: 5 rounds of 50 ms
 * on a 2.096 GHz TSC (q35 under TCG), as (tsc, pm) at each round's ends.
 */
static void test_pm_sequence(void)
{
	static const struct {
		uint64_t tsc0, tsc1;
		uint32_t pm0, pm1;
	} seq[] = {
		{ 1000000000ull, 1104800855ull, 0xfe0000, 0x00bb21 },	/* wraps */
		{ 1200000000ull, 1304800990ull, 0x010000, 0x03bb21 },
		{ 1400000000ull, 1504800700ull, 0x040000, 0x06bb21 },
		{ 1600000000ull, 1704800855ull, 0x070000, 0x09bb21 },
		{ 1800000000ull, 1904900415ull, 0x0a0000, 0x0cbb21 },	/* +950 ppm: an SMI */
	};
	uint64_t hz[5];
	struct tp_calib_result res;

	for (int i = 0; i < 5; i++) {
		struct tp_round r = {
			seq[i].tsc1 - seq[i].tsc0,
			tp_counter_delta(seq[i].pm0, seq[i].pm1, 24),
		};

		hz[i] = tp_hz_from_ticks(r.tsc_ticks, r.ref_ticks, ACPI_PM_TIMER_HZ);
	}
	is_int(tp_counter_delta(0xfe0000, 0x00bb21, 24), 178977, "wrapping round has 178977 ticks");
	ok(hz[0] > 2095000000ull && hz[0] < 2097000000ull, "wrapping round gives ~2.096 GHz (%llu)",
	   (unsigned long long)hz[0]);
	is_int(tp_calib_reduce(hz, 5, &res), 0, "reduce succeeds");
	is_int(res.rejected, 1, "the SMI-stretched round is rejected");
	ok(res.spread_ppm < 5, "spread of the kept rounds < 5 ppm (%u)", res.spread_ppm);
	is_int(res.tsc_hz, 2096020028ull, "median of the kept rounds");
}

static void test_hz(void)
{
	is_int(tp_hz_from_ticks(150000000, 178977, ACPI_PM_TIMER_HZ), 3000004190ull,
	       "PM timer: 150e6 TSC ticks over 178977 ticks");
	is_int(tp_hz_from_ticks(150000000, 0, ACPI_PM_TIMER_HZ), 0, "zero reference ticks gives 0");
	is_int(tp_hz_from_ticks(104800000, 59659, PIT_HZ), 2096003513ull, "PIT: 59659 ticks");
	/* QEMU's HPET: 100 MHz, period 10^7 fs */
	is_int(tp_hz_from_hpet(150000000, 5000000, 10000000), 3000000000ull, "HPET 100 MHz: exact");
	/* a chipset HPET: 14.31818 MHz, period 69841279 fs */
	is_int(tp_hz_from_hpet(104814323, 716000, 69841279), 2096020024ull, "HPET 14.318 MHz");
	/* tsc_ticks * 1e15 overflows 64 bits by far: must still be right */
	is_int(tp_hz_from_hpet(3000000000000ull, 100000000000ull, 10000000), 3000000000ull,
	       "HPET over 1000 s (128-bit path)");
	is_int(tp_hz_from_hpet(1000, 0, 10000000), 0, "HPET: zero ticks gives 0");
	is_int(tp_hz_from_hpet(1000, 10, 0), 0, "HPET: period 0 is invalid");
	is_int(tp_hz_from_hpet(1000, 10, 100000001), 0, "HPET: period > 100 ns is invalid");
	is_int(tp_hpet_hz(69841279), 14318180, "HPET Hz from 69841279 fs");
	is_int(tp_hpet_hz(10000000), 100000000, "HPET Hz from 10^7 fs");
	is_int(tp_hpet_hz(0), 0, "HPET Hz from invalid period");
	is_int(tp_hpet_ticks_for_ms(10000000, 50), 5000000, "HPET ticks for 50 ms at 100 MHz");
	is_int(tp_hpet_ticks_for_ms(69841279, 50), 715908, "HPET ticks for 50 ms at 14.3 MHz");
	is_int(tp_ref_ticks_for_ms(ACPI_PM_TIMER_HZ, 50), 178977, "PM ticks for 50 ms");
}

static void test_pit(void)
{
	uint32_t ms = 0;

	is_int(tp_pit_latch_for_ms(50, &ms), 59659, "PIT latch for 50 ms");
	is_int(ms, 50, "PIT window stays 50 ms");
	is_int(tp_pit_latch_for_ms(100, &ms), 65535, "PIT latch capped at 16 bits");
	is_int(ms, 54, "PIT window capped to 54 ms");
	is_int(tp_pit_latch_for_ms(0, &ms), 1, "PIT latch never 0");
}

static void test_median(void)
{
	uint64_t a[] = { 5, 1, 4, 2, 3 }, b[] = { 10, 40, 20, 30 }, c[] = { UINT64_MAX, UINT64_MAX };

	is_int(tp_median_u64(a, 5), 3, "median of 5");
	is_int(a[0] == 1 && a[4] == 5, 1, "median sorts in place");
	is_int(tp_median_u64(b, 4), 25, "median of 4 is the mean of the middle two");
	ok(tp_median_u64(c, 2) == UINT64_MAX, "median of two UINT64_MAX does not overflow");
	is_int(tp_median_u64(a, 0), 0, "median of nothing");
}

static void test_reduce(void)
{
	struct tp_calib_result res;
	uint64_t same[5] = { 3000000000ull, 3000000000ull, 3000000000ull, 3000000000ull, 3000000000ull };
	uint64_t one_bad[5] = { 3000000000ull, 3000000300ull, 3003000000ull, 2999999700ull, 3000000000ull };
	uint64_t zeros[5] = { 0, 3000000000ull, 0, 3000000030ull, 3000000000ull };
	uint64_t none[3] = { 0, 0, 0 };
	uint64_t noisy[5] = { 3000000000ull, 3000600000ull, 2999400000ull, 3000300000ull, 2999700000ull };
	uint64_t two[2] = { 3000000000ull, 3000900000ull };

	is_int(tp_calib_reduce(same, 5, &res), 0, "identical rounds");
	is_int(res.spread_ppm, 0, "identical rounds: spread 0");
	is_int(res.rejected, 0, "identical rounds: none rejected");
	is_int(res.threshold_ppm, TP_CALIB_OUTLIER_FLOOR_PPM, "identical rounds: threshold is the floor");

	tp_calib_reduce(one_bad, 5, &res);
	is_int(res.rejected, 1, "a 1000 ppm round is rejected");
	is_int(res.tsc_hz, 3000000000ull, "median of the rest");
	is_int(res.spread_ppm, 0, "spread 0.2 ppm rounds to 0");

	tp_calib_reduce(zeros, 5, &res);
	is_int(res.rejected, 2, "timed-out rounds count as rejected");
	is_int(res.rounds, 5, "rounds counts every round");
	is_int(res.tsc_hz, 3000000000ull, "median of the valid rounds");
	is_int(res.spread_ppm, 0, "spread of 10 ppm... 0.01 ppm rounds to 0");

	is_int(tp_calib_reduce(none, 3, &res), -1, "no valid round fails");
	is_int(res.tsc_hz, 0, "no valid round: 0 Hz");

	/* noise of +-200 ppm: MAD 100 ppm -> threshold 445 ppm, nothing rejected */
	tp_calib_reduce(noisy, 5, &res);
	is_int(res.rejected, 0, "uniform noise is not an outlier");
	is_int(res.threshold_ppm, 445, "threshold = 3 x 1.4826 x MAD");
	is_int(res.spread_ppm, 400, "spread = (max - min) / median");

	tp_calib_reduce(two, 2, &res);
	is_int(res.rejected, 0, "two rounds: both kept (median between them)");
}

static void test_misc(void)
{
	uint64_t hz[4] = { 3000000000ull, 3000001500ull, 0, 2999998500ull };

	is_int(tp_ppm_apart(3000003000ull, 3000000000ull, 3000000000ull), 1, "1 ppm");
	is_int(tp_ppm_apart(3000000000ull, 3001500000ull, 3000000000ull), 500, "500 ppm");
	ok(tp_ppm_apart(1, 2, 0) == UINT32_MAX, "ppm of a zero reference saturates");
	is_int(tp_max_disagreement_ppm(hz, 4, 3000000000ull), 1, "max disagreement ignores zeros");
	is_int(tp_max_disagreement_ppm(hz, 0, 3000000000ull), 0, "no references: 0");

	uint64_t crystal = 0;

	is_int(tp_cpuid15_hz(2, 216, 24000000, 0, &crystal), 2592000000ull, "CPUID 0x15 with crystal");
	is_int(crystal, 24000000, "crystal from ECX");
	is_int(tp_cpuid15_hz(2, 200, 0, 2600, &crystal), 2600000000ull,
	       "CPUID 0x15 crystal derived from 0x16");
	is_int(crystal, 26000000, "derived crystal 26 MHz");
	is_int(tp_cpuid15_hz(2, 200, 0, 0, &crystal), 0, "no crystal, no 0x16: unknown");
	is_int(tp_cpuid15_hz(0, 0, 24000000, 0, &crystal), 0, "ratio not enumerated");
}

static void test_limits(void)
{
	is_int(tp_calib_timeout_tsc(3000000000ull, 50), 9000000000ull,
	       "timeout: 20 x 50 ms + 2 s at 3 GHz");
	is_int(tp_calib_timeout_tsc(0, 50), 30000000000ull, "timeout: an unknown rate is 10 GHz");
	is_int(tp_calib_timeout_tsc(3000000000ull, TP_CALIB_MS_MAX), 66000000000ull,
	       "timeout: the longest window");
	is_int(tp_calib_tsc_for_us(3000000000ull, 20), 60000, "20 us at 3 GHz");
	is_int(tp_calib_tsc_for_us(0, 20), 200000, "20 us at the unknown rate");
	is_int(tp_calib_tsc_for_us(2999999, 1), 2, "ticks for us round down");
	/* the stub's announced limit: 4 references x (5 x 4 x 50 ms + 3 s) + 1 s */
	is_int(tp_calib_limit_s(4, TP_CALIB_ROUNDS_DEFAULT, TP_CALIB_MS_DEFAULT, 4), 17,
	       "calibration limit with the defaults");
	/* 4 x (32 x 4 x 1 s + 22 s) + 1 s: past the watcher's 60 s and 180 s */
	is_int(tp_calib_limit_s(4, TP_CALIB_ROUNDS_MAX, TP_CALIB_MS_MAX, 4), 601,
	       "calibration limit with the largest rounds and windows");
	is_int(tp_calib_limit_s(1, 1, 1, 1), 4, "calibration limit rounds up (2.021 s + 1 s)");
}

/* The hypervisor leaves' rules, one definition for the stub, the tsc probe
 * and the fingerprint. */
static void test_hv_leaves(void)
{
	char v[13];

	ok(!tp_hv_timing_leaf(0), "timing leaf: an old KVM's EAX 0 offers none");
	ok(!tp_hv_timing_leaf(0x40000001), "timing leaf: KVM's and TCG's 0x40000001 offer none");
	ok(!tp_hv_timing_leaf(0x4000000f), "timing leaf: 0x4000000f is one short");
	ok(tp_hv_timing_leaf(0x40000010), "timing leaf: 0x40000010 offers it");
	ok(tp_hv_timing_leaf(0x400000ff), "timing leaf: the block's last leaf 0x400000ff");
	ok(!tp_hv_timing_leaf(0x40000100), "timing leaf: 0x40000100 is the next interface's block");
	ok(!tp_hv_timing_leaf(0x4000ffff), "timing leaf: 0x4000ffff (the stub took it before)");
	ok(!tp_hv_timing_leaf(0x0000000d), "timing leaf: a basic leaf count offers none");
	ok(!tp_hv_timing_leaf(0xffffffff), "timing leaf: all ones offers none");

	/* "KVMKVMKVM\0\0\0" as KVM returns it from leaf 0x40000000 */
	tp_cpuid_text(0x4b4d564b, 0x564b4d56, 0x0000004d, v);
	is_str(v, "KVMKVMKVM", "text: KVM, zero padded");
	tp_cpuid_text(0x756e6547, 0x6c65746e, 0x49656e69, v);
	is_str(v, "GenuntelineI", "text: bytes in the registers' order as given");
	tp_cpuid_text(0x756e6547, 0x49656e69, 0x6c65746e, v);	/* EBX, EDX, ECX of leaf 0 */
	is_str(v, "GenuineIntel", "text: leaf 0 in EBX, EDX, ECX order");
	tp_cpuid_text(0x54474354, 0x43544743, 0x47435447, v);
	ok(!memcmp(v, "TCGTCGTCGTCG", 13), "text: all 12 bytes and the NUL");
	tp_cpuid_text(0x76796862, 0x68622065, 0x20657679, v);	/* bhyve's */
	is_str(v, "bhyve bhyve", "text: trailing space cut, inner space kept");
	tp_cpuid_text(0x20202020, 0x20202020, 0x20202020, v);
	is_str(v, "", "text: all spaces is empty");
	tp_cpuid_text(0x01024354, 0, 0, v);	/* "TC\x02\x01" */
	is_str(v, "TC??", "text: control bytes become ?");
	tp_cpuid_text(0x7f80ff41, 0x41414141, 0x41414141, v);
	is_str(v, "A???AAAAAAAA", "text: 0x7f and bytes >= 0x80 become ?");
	tp_cpuid_text(0x00204241, 0x44434241, 0x44434241, v);	/* "AB \0ABCDABCD" */
	is_str(v, "AB", "text: a NUL ends it, spaces before it cut, bytes after it dropped");
	tp_cpuid_text(0, 0x41414141, 0, v);
	is_str(v, "", "text: a leading NUL is empty");
	tp_cpuid_text(0x41202020, 0, 0, v);
	is_str(v, "   A", "text: leading spaces kept");
}

int main(void)
{
	test_muldiv();
	test_hv_leaves();
	test_wrap();
	test_pm_sequence();
	test_hz();
	test_pit();
	test_median();
	test_reduce();
	test_misc();
	test_limits();
	return tap_done();
}
