/* SPDX-License-Identifier: MIT */
/*
 * What the per-CPU step of both architectures shares (mp.c on x86 through
 * MP services, arm64/mp.c through PSCI): the round trip on one cache line
 * between the BSP (A) and an AP (B), timed on the architecture's counter
 * (arch.h: the TSC between LFENCEs, or CNTVCT_EL0 after an ISB), A's side
 * of one pair, and the pair record: the keys a pair gives its stub_tscsync
 * record, measured (common/stubcpu.h) or absent, and its line's interval.
 * The spins are inlined: the AP's procedure calls
 * nothing of ours (on x86 the firmware calls it with the Microsoft ABI).
 */
#ifndef TP_BOOT_MPSHARE_H
#define TP_BOOT_MPSHARE_H

#include <stdint.h>

#include "../common/buf.h"
#include "../common/handoff.h"
#include "../common/record.h"
#include "../common/tscsync.h"
#include "arch.h"
#include "mp.h"

/*
 * One CPU's share of the per-CPU step at its worst, rounded up: its start
 * (1 s), the round trips (0.5 s), the firmware's or PSCI's word that it is
 * done (3 s). The step announces CPUs x this (common/announce.h), so the
 * launcher's watcher allows a big machine's step its time.
 */
#define TP_MP_CPU_LIMIT_S 5

/*
 * Up to *n items of size bytes from the firmware's pool (UEFI 2.10, 7.2
 * AllocatePool), the first at a multiple of align (a power of two), *n
 * halved while the pool refuses; NULL and *n 0 when it gives nothing. The
 * pre-OS work's per-CPU memory: its bound is the pool's, not the image's.
 */
void *tp_pool_upto(uint64_t *n, uint64_t size, uint64_t align);

/* "timeprobe: measuring the counter offsets of N other CPUs, limit M s". */
void tp_mp_announce(struct tp_console *con, uint64_t cpus);

/* The round trip's two words, first in each architecture's line. */
struct tp_rt {
	uint64_t seq;		/* odd: A's call; even: B's answer; MP_STOP: done */
	uint64_t b;		/* B's counter at its answer */
};

/* Spins until *p == want: 0; -1 at MP_STOP or after limit ticks of this CPU's counter. */
static inline __attribute__((always_inline)) int tp_rt_spin(uint64_t *p, uint64_t want,
							    uint64_t limit)
{
	uint64_t start = tp_counter();

	for (unsigned int i = 1;; i++) {
		uint64_t v = __atomic_load_n(p, __ATOMIC_ACQUIRE);

		if (v == want)
			return 0;
		if (v == MP_STOP)
			return -1;
		tp_relax();
		if (!(i & 255) && tp_counter() - start > limit)
			return -1;
	}
}

/*
 * B: an answer to every call until MP_STOP or idle_ticks without one. The
 * answer's seq is made to depend on the counter's value (tp_after), so it
 * cannot be seen before that read was made.
 */
static inline __attribute__((always_inline)) void tp_rt_answer(struct tp_rt *rt, uint64_t idle_ticks)
{
	for (uint64_t k = 1;; k += 2) {
		uint64_t b;

		if (tp_rt_spin(&rt->seq, k, idle_ticks))
			return;
		b = tp_counter();
		__atomic_store_n(&rt->b, b, __ATOMIC_RELAXED);
		__atomic_store_n(&rt->seq, k + 1 + tp_after(b), __ATOMIC_RELEASE);
	}
}

/* A: the round trips of mp.h's plan into s; 0, or -1 when an answer did not come. */
int tp_rt_call(struct tp_rt *rt, uint64_t ticks_per_ms, struct tscsync_bounds *s);

/* A measured pair's keys (common/stubcpu.h: lo_ticks .. excludes_zero, then rejected) into r. */
void tp_rt_rec(struct tp_rec *r, const struct tscsync_bounds *s, const struct tscsync_interval *iv);

/*
 * A's side of one pair once B was started: unless *why already says why
 * not, the round trips into s with no firmware timer interrupt on A
 * (TPL_HIGH_LEVEL); then MP_STOP for B. *why, when no round trip is
 * usable: unanswered (an answer did not come) or "no usable round trip".
 * Returns 1 when an answer did not come (stopped_early).
 */
int tp_rt_pair(struct tp_rt *rt, uint64_t ticks_per_ms, struct tscsync_bounds *s,
	       const char **why, const char *unanswered);

/* A stub_tscsync record's absent and reason: why, and ": err" after it unless err is NULL. */
void tp_mp_absent(struct tp_rec *r, const char *why, const char *err);

/*
 * A pair's keys after its identity in its stub_tscsync record: the interval
 * (tp_rt_rec) and stopped_early, returning 0 with *iv; or absent and the
 * reason (tp_mp_absent: why, else "no usable round trip"), returning -1.
 */
int tp_rt_pair_keys(struct tp_rec *r, const char *why, const char *err,
		    const struct tscsync_bounds *s, int stopped_early, struct tscsync_interval *iv);

/* The summary's aps_measured, aps_failed, aps_disabled and aps_over_cap keys. */
void tp_mp_count_keys(struct tp_rec *r, uint64_t measured, uint64_t failed, uint64_t disabled,
		      uint64_t over_cap);

/* " minus the <whose>: LO .. HI ticks (N round trips" for a pair's line for people. */
void tp_rt_pair_text(struct tp_buf *b, const char *whose, const struct tscsync_bounds *s,
		     const struct tscsync_interval *iv);

#endif
