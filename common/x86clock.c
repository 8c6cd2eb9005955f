// SPDX-License-Identifier: MIT
/* x86 clock arithmetic in integers; see x86clock.h. Freestanding. */
#include "x86clock.h"

typedef unsigned __int128 u128;

/*
 * 128-by-64 division by shift and subtract: the EFI binary is linked without
 * libgcc, so the compiler's __udivti3 is not available. 128 iterations per
 * call, a few hundred per boot: cost irrelevant.
 */
static u128 div128(u128 n, uint64_t d)
{
	u128 q = 0, r = 0;

	for (int i = 127; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (u128)1 << i;
		}
	}
	return q;
}

uint64_t tp_muldiv64(uint64_t a, uint64_t b, uint64_t c, int round)
{
	u128 n = (u128)a * b, q;

	if (c == 0)
		return UINT64_MAX;
	if (round)
		n += c / 2;
	q = div128(n, c);
	if (q > UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)q;
}

uint64_t tp_counter_delta(uint64_t prev, uint64_t cur, unsigned int bits)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;

	return (cur - prev) & mask;
}

uint64_t tp_hz_from_ticks(uint64_t tsc_ticks, uint64_t ref_ticks, uint64_t ref_hz)
{
	if (ref_ticks == 0)
		return 0;
	return tp_muldiv64(tsc_ticks, ref_hz, ref_ticks, 1);
}

int tp_hpet_period_valid(uint32_t period_fs)
{
	return period_fs != 0 && period_fs <= HPET_PERIOD_MAX_FS;
}

uint64_t tp_hz_from_hpet(uint64_t tsc_ticks, uint64_t hpet_ticks, uint32_t period_fs)
{
	/* elapsed = hpet_ticks * period_fs femtoseconds;
	 * Hz = tsc_ticks * 1e15 / elapsed. tsc_ticks * 1e15 needs 128 bits
	 * (a 3 GHz TSC over 50 ms: 1.5e8 * 1e15 = 1.5e23 > 2^64). */
	u128 n, d, q;

	if (hpet_ticks == 0 || !tp_hpet_period_valid(period_fs))
		return 0;
	n = (u128)tsc_ticks * HPET_FS_PER_S;
	d = (u128)hpet_ticks * period_fs;
	if (d > UINT64_MAX) {
		/* Only for windows of hours; scale both down alike. */
		while (d > UINT64_MAX) {
			d >>= 1;
			n >>= 1;
		}
	}
	q = div128(n + (d >> 1), (uint64_t)d);
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

uint64_t tp_hpet_hz(uint32_t period_fs)
{
	if (!tp_hpet_period_valid(period_fs))
		return 0;
	return (HPET_FS_PER_S + period_fs / 2) / period_fs;
}

uint64_t tp_ref_ticks_for_ms(uint64_t ref_hz, uint32_t ms)
{
	return tp_muldiv64(ref_hz, ms, 1000, 1);
}

uint64_t tp_hpet_ticks_for_ms(uint32_t period_fs, uint32_t ms)
{
	/* ms * 1e12 fs fits easily in 64 bits for ms <= 1000 */
	if (!tp_hpet_period_valid(period_fs))
		return 0;
	return (uint64_t)ms * 1000000000000ull / period_fs;
}

uint16_t tp_pit_latch_for_ms(uint32_t ms, uint32_t *ms_out)
{
	uint64_t ticks = tp_ref_ticks_for_ms(PIT_HZ, ms);

	if (ticks > 0xffff) {
		ticks = 0xffff;
		ms = (uint32_t)(0xffffull * 1000 / PIT_HZ);
	}
	if (ticks == 0)
		ticks = 1;
	if (ms_out)
		*ms_out = ms;
	return (uint16_t)ticks;
}

uint32_t tp_ppm_apart(uint64_t a, uint64_t b, uint64_t ref)
{
	uint64_t d = a > b ? a - b : b - a, ppm;

	if (ref == 0)
		return UINT32_MAX;
	ppm = tp_muldiv64(d, 1000000, ref, 1);
	return ppm > UINT32_MAX ? UINT32_MAX : (uint32_t)ppm;
}

uint64_t tp_cpuid15_hz(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t base_mhz,
		       uint64_t *crystal_hz)
{
	uint64_t crystal = ecx;

	if (crystal_hz)
		*crystal_hz = 0;
	if (eax == 0 || ebx == 0)
		return 0;
	/* SDM: "If ECX is 0, the nominal core crystal clock frequency is not
	 * enumerated." Linux derives it from leaf 0x16's base frequency. */
	if (crystal == 0 && base_mhz)
		crystal = tp_muldiv64((uint64_t)base_mhz * 1000000, eax, ebx, 1);
	if (crystal == 0)
		return 0;
	if (crystal_hz)
		*crystal_hz = crystal;
	return tp_muldiv64(crystal, ebx, eax, 1);
}

int tp_hv_timing_leaf(uint32_t max_leaf)
{
	return max_leaf >= TP_HV_TIMING_LEAF && max_leaf <= TP_HV_LEAF_LAST;
}

void tp_cpuid_text(uint32_t r1, uint32_t r2, uint32_t r3, char out[13])
{
	const uint32_t reg[3] = { r1, r2, r3 };
	int n = 0;

	for (; n < 12; n++) {
		unsigned char c = (unsigned char)(reg[n / 4] >> (8 * (n % 4)));

		if (!c)
			break;
		out[n] = c >= 0x20 && c <= 0x7e ? (char)c : '?';
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}
