// SPDX-License-Identifier: MIT
/* The BSP's half of the round trips and a pair's keys; see mpshare.h. */
#include <efi.h>
#include <efilib.h>

#include "mpshare.h"
#include "../common/announce.h"
#include "../common/buf.h"
#include "../common/stubcpu.h"

void *tp_pool_upto(uint64_t *n, uint64_t size, uint64_t align)
{
	for (; *n; *n /= 2) {
		void *p = AllocatePool(*n * size + align - 1);

		if (p)
			return (void *)(((UINTN)p + align - 1) & ~(UINTN)(align - 1));
	}
	return NULL;
}

void tp_mp_announce(struct tp_console *con, uint64_t cpus)
{
	char what[64], line[128];
	struct tp_buf w, b;

	tp_buf_init(&w, what, sizeof(what));
	tp_buf_puts(&w, "measuring the counter offsets of ");
	tp_buf_putu(&w, cpus);
	tp_buf_puts(&w, " other CPUs");
	tp_buf_init(&b, line, sizeof(line));
	tp_announce(&b, what, 2 + TP_MP_CPU_LIMIT_S * cpus);
	tp_con_msg(con, line);
}

int tp_rt_call(struct tp_rt *rt, uint64_t ticks_per_ms, struct tscsync_bounds *s)
{
	uint64_t start = tp_counter(), plan = MP_PLAN_MS * ticks_per_ms;
	uint64_t hard = MP_HARD_MS * ticks_per_ms, answer = MP_ANSWER_MS * ticks_per_ms;
	uint64_t k = 1;

	tscsync_init(s);
	for (uint64_t i = 0; i < MP_MAX_ROUNDS + MP_WARMUP; i++, k += 2) {
		uint64_t a0 = tp_counter(), a1, ran;

		__atomic_store_n(&rt->seq, k + tp_after(a0), __ATOMIC_RELEASE);
		if (tp_rt_spin(&rt->seq, k + 1, answer))
			return -1;
		a1 = tp_counter();
		if (i >= MP_WARMUP)
			tscsync_add(s, a0, __atomic_load_n(&rt->b, __ATOMIC_RELAXED), a1);
		ran = a1 - start;
		if (ran > hard || (ran > plan && s->samples >= MP_MIN_ROUNDS))
			break;
	}
	return 0;
}

void tp_rt_rec(struct tp_rec *r, const struct tscsync_bounds *s, const struct tscsync_interval *iv)
{
	struct tp_sc_pair e = {
		.lo_ticks = iv->lo_ticks,
		.hi_ticks = iv->hi_ticks,
		.rtt_ticks = (uint64_t)s->min_rtt_ticks,
		.samples = s->samples,
		.consistent = iv->consistent,
	};

	tp_sc_pair_keys(r, &e);
	tp_rec_uint(r, "rejected", s->rejected);
}

int tp_rt_pair(struct tp_rt *rt, uint64_t ticks_per_ms, struct tscsync_bounds *s,
	       const char **why, const char *unanswered)
{
	EFI_TPL old;
	int rc = 0;

	if (!*why) {
		/* no firmware timer interrupt on A while it calls */
		old = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_HIGH_LEVEL);
		rc = tp_rt_call(rt, ticks_per_ms, s);
		uefi_call_wrapper(BS->RestoreTPL, 1, old);
	}
	__atomic_store_n(&rt->seq, MP_STOP, __ATOMIC_RELEASE);
	if (!*why && s->samples <= s->rejected)
		*why = rc ? unanswered : "no usable round trip";
	return rc != 0;
}

void tp_mp_absent(struct tp_rec *r, const char *why, const char *err)
{
	char m[160];
	struct tp_buf b;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, why);
	if (err) {
		tp_buf_puts(&b, ": ");
		tp_buf_puts(&b, err);
	}
	tp_rec_bool(r, "absent", 1);
	tp_rec_str(r, "reason", m);
}

int tp_rt_pair_keys(struct tp_rec *r, const char *why, const char *err,
		    const struct tscsync_bounds *s, int stopped_early, struct tscsync_interval *iv)
{
	if (!why && !tscsync_interval(s, iv)) {
		tp_rt_rec(r, s, iv);
		tp_rec_bool(r, "stopped_early", stopped_early);
		return 0;
	}
	tp_mp_absent(r, why ? why : "no usable round trip", err);
	return -1;
}

void tp_rt_pair_text(struct tp_buf *b, const char *whose, const struct tscsync_bounds *s,
		     const struct tscsync_interval *iv)
{
	tp_buf_puts(b, " minus the ");
	tp_buf_puts(b, whose);
	tp_buf_puts(b, ": ");
	tp_buf_puti(b, iv->lo_ticks);
	tp_buf_puts(b, " .. ");
	tp_buf_puti(b, iv->hi_ticks);
	tp_buf_puts(b, " ticks (");
	tp_buf_putu(b, s->samples);
	tp_buf_puts(b, " round trips");
}

void tp_mp_count_keys(struct tp_rec *r, uint64_t measured, uint64_t failed, uint64_t disabled,
		      uint64_t over_cap)
{
	tp_rec_uint(r, "aps_measured", measured);
	tp_rec_uint(r, "aps_failed", failed);
	tp_rec_uint(r, "aps_disabled", disabled);
	tp_rec_uint(r, "aps_over_cap", over_cap);
}
