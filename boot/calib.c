// SPDX-License-Identifier: MIT
/* The stub's calibration: rounds to one rate; see calib.h and docs/stub.md. EFI-free. */
#include "calib.h"
#include "../common/x86clock.h"

uint64_t tp_median_u64(uint64_t *v, size_t n)
{
	/* insertion sort: n <= TP_CALIB_ROUNDS_MAX */
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;

		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	if (n == 0)
		return 0;
	if (n & 1)
		return v[n / 2];
	/* a/2 + b/2 + carry: no overflow near UINT64_MAX */
	return v[n / 2 - 1] / 2 + v[n / 2] / 2 + (v[n / 2 - 1] & v[n / 2] & 1);
}

int tp_calib_reduce(const uint64_t *hz, size_t n, struct tp_calib_result *res)
{
	uint64_t valid[TP_CALIB_ROUNDS_MAX], dev[TP_CALIB_ROUNDS_MAX];
	uint64_t kept[TP_CALIB_ROUNDS_MAX];
	uint64_t median, mad_ppm, threshold;
	size_t nv = 0, nk = 0;

	if (n > TP_CALIB_ROUNDS_MAX)
		n = TP_CALIB_ROUNDS_MAX;
	res->tsc_hz = 0;
	res->spread_ppm = 0;
	res->rounds = (uint32_t)n;
	res->rejected = 0;
	res->threshold_ppm = 0;

	for (size_t i = 0; i < n; i++)
		if (hz[i])
			valid[nv++] = hz[i];
	if (nv == 0) {
		res->rejected = (uint32_t)n;
		return -1;
	}
	median = tp_median_u64(valid, nv);	/* sorts valid[] */
	for (size_t i = 0; i < nv; i++)
		dev[i] = tp_ppm_apart(valid[i], median, median);
	mad_ppm = tp_median_u64(dev, nv);
	/* 1.4826 as 14826 / 10000 */
	threshold = tp_muldiv64(mad_ppm, 14826ull * TP_CALIB_OUTLIER_MADS, 10000, 1);
	if (threshold < TP_CALIB_OUTLIER_FLOOR_PPM)
		threshold = TP_CALIB_OUTLIER_FLOOR_PPM;
	res->threshold_ppm = threshold > UINT32_MAX ? UINT32_MAX : (uint32_t)threshold;

	/* valid[] is sorted, so kept[] is too */
	for (size_t i = 0; i < nv; i++)
		if (tp_ppm_apart(valid[i], median, median) <= threshold)
			kept[nk++] = valid[i];
	res->rejected = (uint32_t)(n - nk);
	/* The median itself is always within the threshold, so nk >= 1. */
	res->tsc_hz = tp_median_u64(kept, nk);
	res->spread_ppm = tp_ppm_apart(kept[nk - 1], kept[0], res->tsc_hz);
	return 0;
}

uint32_t tp_max_disagreement_ppm(const uint64_t *hz, size_t n, uint64_t ref_hz)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (!hz[i])
			continue;
		if (hz[i] < lo)
			lo = hz[i];
		if (hz[i] > hi)
			hi = hz[i];
	}
	if (hi == 0)
		return 0;
	return tp_ppm_apart(hi, lo, ref_hz);
}

uint64_t tp_calib_timeout_tsc(uint64_t rough_hz, uint32_t ms)
{
	if (!rough_hz)
		rough_hz = TP_CALIB_ROUGH_HZ_UNKNOWN;
	return tp_muldiv64(rough_hz, tp_calib_timeout_ms(ms), 1000, 0);
}

uint64_t tp_calib_timeout_ms(uint32_t ms)
{
	return 20ull * ms + 2000;
}

uint32_t tp_calib_limit_s(uint32_t refs, uint32_t rounds, uint32_t ms, uint32_t attempts)
{
	uint64_t per_ref_ms = (uint64_t)rounds * attempts * ms + tp_calib_timeout_ms(ms);
	uint64_t total_ms = refs * per_ref_ms + 1000;

	return (uint32_t)((total_ms + 999) / 1000);
}

uint64_t tp_calib_tsc_for_us(uint64_t rough_hz, uint64_t us)
{
	if (!rough_hz)
		rough_hz = TP_CALIB_ROUGH_HZ_UNKNOWN;
	return tp_muldiv64(rough_hz, us, 1000000, 0);
}
