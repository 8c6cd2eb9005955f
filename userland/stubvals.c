// SPDX-License-Identifier: MIT
/* The stub's figures, typed; see stubvals.h and docs/stub.md, "The stub's file". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubvals.h"
#include "../common/stubfile.h"

const char *stubvals_set(struct stub_handoff *st, const struct tp_word *w, const char *val,
			 char *msg, size_t len)
{
	size_t n = strlen(val);
	const char *reason = 0;
	enum tp_word_err e = tp_word_check(w, val, n, &reason);
	struct tp_buf b;

	tp_buf_init(&b, msg, len);
	if (e) {
		tp_word_why(&b, w, e, reason);
		return msg;
	}
	if (w == &tp_words[TPW_TSC_HZ]) {
		int64_t v;

		tp_word_int(w, val, n, &v);
		st->tsc_hz = v;
	} else if (w == &tp_words[TPW_TSC_REF]) {
		snprintf(st->tsc_ref, sizeof(st->tsc_ref), "%s", val);
	} else if (w == &tp_words[TPW_BOOTPART]) {
		st->have_bootpart = !tp_bootpart_parse(val, n, &st->bootpart);
	} else if (w == &tp_words[TPW_FIRMWARE]) {
		st->have_firmware = !tp_firmware_parse(val, n, &st->firmware);
	} else if (w == &tp_words[TPW_BOOT_TSC]) {
		st->have_boot_tsc = !tp_boot_tsc_parse(val, n, &st->boot_tsc);
	} else {
		tp_buf_puts(&b, "not a value the stub hands over");
		return msg;
	}
	return 0;
}

/* The record's spread in ppm: spread_ppm, or an arm64 RTC's bound_ppm; NaN: none. */
static double calib_spread(const struct rec_view *r)
{
	double v;

	if (recread_num(r, TP_CALIB_SPREAD, &v) || recread_num(r, TP_CALIB_BOUND, &v))
		return v;
	return NAN;
}

/* Why a calib record's tsc_hz is refused, its bounds printed from their constants. */
static const char *hz_range(void)
{
	static char why[80];

	snprintf(why, sizeof(why), "calib: tsc_hz is not an integer in %lld..%lld",
		 (long long)TP_CALIB_HZ_MIN, (long long)TP_CALIB_HZ_MAX);
	return why;
}

const char *stubvals_calib(struct stub_handoff *st, const struct rec_view *r)
{
	struct stub_calib c = { .spread_ppm = NAN };
	char ref[64];
	double hz, x;
	int absent = 0;

	if (!recread_is(r, "type", TP_CALIB_REC) ||
	    (recread_bool(r, TP_CALIB_ABSENT, &absent) && absent))
		return 0;
	if (!recread_num(r, TP_CALIB_HZ, &hz) ||
	    !(recread_num(r, TP_CALIB_SPREAD, &x) || recread_num(r, TP_CALIB_WINDOW_S, &x)))
		return 0;	/* a nominal figure (CPUID, the hypervisor's, CNTFRQ_EL0) */
	if (!recread_str(r, TP_CALIB_REF, ref, sizeof(ref)) || strlen(ref) >= sizeof(ref) - 1 ||
	    tp_calib_ref_check(ref, strlen(ref)))
		return "calib: ref is not [a-z0-9_], 1 to " TP_STR(TP_CALIB_REF_MAX) " bytes";
	memcpy(c.ref, ref, strlen(ref) + 1);
	if (hz != floor(hz) || hz < TP_CALIB_HZ_MIN || hz > TP_CALIB_HZ_MAX)
		return hz_range();
	c.hz = (int64_t)hz;
	c.spread_ppm = calib_spread(r);
	if (!(c.spread_ppm >= 0) && !isnan(c.spread_ppm))
		return "calib: spread_ppm is negative";
	for (size_t i = 0; i < st->n_calib; i++)
		if (!strcmp(st->calib[i].ref, c.ref))
			return "calib: a reference given twice; the first kept";
	if (st->n_calib == STUB_CALIB_MAX)
		return "calib: more than " TP_STR(STUB_CALIB_MAX) " measured references; the rest "
		       "ignored";
	st->calib[st->n_calib++] = c;
	return 0;
}

void stubvals_calib_list(const struct stub_handoff *st, struct tp_buf *b)
{
	for (size_t i = 0; i < st->n_calib; i++) {
		const struct stub_calib *c = &st->calib[i];
		double s = isnan(c->spread_ppm) ? 0 : c->spread_ppm;

		tp_calib_list_add(b, c->ref, (uint64_t)c->hz, s > 4e9 ? 4000000000u : (uint32_t)lround(s));
	}
}
