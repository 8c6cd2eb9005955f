// SPDX-License-Identifier: MIT
/*
 * Probe `tsc`: is the TSC one clock across the CPUs? Pairs of threads take
 * turns reading it under a fair lock, in the manner of the kernel's
 * check_tsc_warp() (arch/x86/kernel/tsc_sync.c), and count the reads that
 * went back.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "../affinity.h"
#include "../emit.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "tsc_impl.h"

#define SYNC_PAIRS_QUICK 8
#define SYNC_PAIRS_FULL 32

struct warp_shared {
	unsigned int next, owner; /* ticket lock */
	int ready, go_fail;
	int last_cpu;
	uint64_t last_tsc;
	uint64_t max_warp;
	uint64_t nr_warps, random_warps, handoffs;
	int64_t duration_ns;
};

struct warp_thread {
	pthread_t tid;
	struct warp_shared *sh;
	int cpu;
	int pin_error; /* errno of pinning (affinity_pin_self()), 0 if pinned */
	uint64_t iterations;
};

/*
 * A ticket lock: fair, so two CPUs that both want it take turns, and every
 * turn compares the TSC of one CPU with the other's. (A test-and-set lock
 * mostly stays with the CPU that has the cache line: here it changed hands
 * in 0.3 % of the rounds.) The kernel's arch_spinlock_t is fair too (ticket,
 * then queued spinlocks).
 */
static inline void warp_lock(struct warp_shared *sh)
{
	unsigned int me = __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&sh->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static inline void warp_unlock(struct warp_shared *sh)
{
	__atomic_store_n(&sh->owner, sh->owner + 1, __ATOMIC_RELEASE);
}

/*
 * Pins the thread to its CPU and waits for the other thread (both start
 * together, the kernel's start_count). 1 when the pair may run, 0 when
 * either could not be pinned or the other never came.
 */
static int warp_start(struct warp_thread *t)
{
	struct warp_shared *sh = t->sh;
	int64_t wait_end;
	int rc = affinity_pin_self(t->cpu, 0);

	if (rc < 0)
		t->pin_error = -rc;
	if (t->pin_error)
		__atomic_store_n(&sh->go_fail, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
	wait_end = mono_ns() + 2 * NS_PER_S;
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < 2) {
		cpu_relax();
		if (mono_ns() > wait_end) {
			__atomic_store_n(&sh->go_fail, 1, __ATOMIC_RELEASE);
			return 0;
		}
	}
	return !__atomic_load_n(&sh->go_fail, __ATOMIC_ACQUIRE);
}

/* A backward step prev > now seen by this thread; *cur_warps is its count so far. */
static void warp_note(struct warp_shared *sh, uint64_t prev, uint64_t now, uint64_t *cur_warps)
{
	warp_lock(sh);
	if (prev - now > sh->max_warp)
		sh->max_warp = prev - now;
	/* warps seen by both CPUs in turn: "TSC warped randomly" */
	if (*cur_warps != sh->nr_warps)
		sh->random_warps++;
	sh->nr_warps++;
	*cur_warps = sh->nr_warps;
	warp_unlock(sh);
}

static void *warp_main(void *arg)
{
	struct warp_thread *t = arg;
	struct warp_shared *sh = t->sh;
	uint64_t prev, now, cur_warps = 0, i;
	int64_t end;

	if (!warp_start(t))
		return 0;
	end = mono_ns() + sh->duration_ns;
	for (i = 0;; i++) {
		int other;

		warp_lock(sh);
		prev = sh->last_tsc;
		now = tp_counter_ordered();
		sh->last_tsc = now;
		other = sh->last_cpu != t->cpu;
		sh->last_cpu = t->cpu;
		sh->handoffs += other;
		warp_unlock(sh);

		/* the kernel checks its deadline every 8 rounds against the TSC
		 * itself; the TSC is what is on trial here, so use the clock */
		if (!(i & 63) && mono_ns() > end)
			break;
		if (prev > now)
			warp_note(sh, prev, now, &cur_warps);
	}
	t->iterations = i;
	return 0;
}

/* Runs one pair; 0, or -errno (pinning failed: the CPU is not ours). */
static int warp_pair(int cpu_a, int cpu_b, int64_t duration_ns, struct warp_shared *sh,
		     uint64_t *iterations)
{
	struct warp_thread t[2] = {{.cpu = cpu_a}, {.cpu = cpu_b}};
	int rc = 0;

	memset(sh, 0, sizeof(*sh));
	sh->duration_ns = duration_ns;
	sh->last_cpu = -1;
	for (int i = 0; i < 2; i++) {
		t[i].sh = sh;
		if (pthread_create(&t[i].tid, 0, warp_main, &t[i])) {
			if (i == 1) {
				__atomic_store_n(&sh->go_fail, 1, __ATOMIC_RELEASE);
				__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
				pthread_join(t[0].tid, 0);
			}
			return -EAGAIN;
		}
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i].tid, 0);
		if (t[i].pin_error)
			rc = -t[i].pin_error;
	}
	if (!rc && sh->go_fail)
		rc = -ETIMEDOUT;
	*iterations = t[0].iterations + t[1].iterations;
	return rc;
}

/* The CPUs we may run on, into cpus[CPU_SETSIZE]; their number, or -1. */
static int sync_cpus(int *cpus)
{
	cpu_set_t set;
	int ncpus = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;
	return ncpus;
}

/* One pair's record and table row. */
static void sync_pair_result(const char *name, int cpu_a, int cpu_b, uint64_t iterations,
			     const struct warp_shared *sh, double hz, int64_t duration_ns)
{
	struct tp_rec r;

	emit_result_begin(&r, P, name);
	tp_rec_int(&r, "cpu_a", cpu_a);
	tp_rec_int(&r, "cpu_b", cpu_b);
	tp_rec_uint(&r, "iterations", iterations);
	tp_rec_uint(&r, "handoffs", sh->handoffs);
	tp_rec_uint(&r, "warps", sh->nr_warps);
	tp_rec_uint(&r, "random_warps", sh->random_warps);
	tp_rec_uint(&r, "max_warp_ticks", sh->max_warp);
	emit_rec_double(&r, "max_warp_ns", hz > 0 ? (double)sh->max_warp * 1e9 / hz : NAN);
	tp_rec_int(&r, "duration_ms", duration_ns / NS_PER_MS);
	emit_end(&r);
	emit_human("  %-12s %12llu %8llu %14llu %12.1f %10llu\n", name + 5,
	      (unsigned long long)iterations, (unsigned long long)sh->nr_warps,
	      (unsigned long long)sh->max_warp, hz > 0 ? (double)sh->max_warp * 1e9 / hz : NAN,
	      (unsigned long long)sh->handoffs);
}

void tsc_sync_check(struct probe_ctx *ctx, double hz)
{
	int64_t duration_ns = (ctx->quick ? 200 : 1000) * NS_PER_MS;
	int max_pairs = ctx->quick ? SYNC_PAIRS_QUICK : SYNC_PAIRS_FULL;
	int cpus[CPU_SETSIZE], ncpus = sync_cpus(cpus), npairs, with_warps = 0, done = 0;
	uint64_t worst = 0;
	struct tp_rec r;

	if (ncpus < 0) {
		emit_skip(P, "tsc sync", "sched_getaffinity failed");
		return;
	}
	if (ncpus < 2) {
		emit_skip(P, "tsc sync", "one CPU: nothing to compare");
		return;
	}
	/* The first CPU against every other, as the kernel checks each CPU
	 * coming up against the boot CPU; on big machines a spread sample. */
	npairs = ncpus - 1 < max_pairs ? ncpus - 1 : max_pairs;
	emit_human("\n  %-12s %12s %8s %14s %12s %10s\n", "tsc sync", "iterations", "warps",
	      "max_warp_ticks", "max_warp_ns", "handoffs");
	for (int k = 0; k < npairs; k++) {
		int other = cpus[1 + (int)((int64_t)k * (ncpus - 1) / npairs)];
		struct warp_shared sh;
		uint64_t iterations = 0;
		char name[40], why[80];
		int rc;

		snprintf(name, sizeof(name), "sync cpu%d-cpu%d", cpus[0], other);
		rc = warp_pair(cpus[0], other, duration_ns, &sh, &iterations);
		if (rc) {
			snprintf(why, sizeof(why), "pair not run: %s", strerror(-rc));
			emit_skip(P, name, why);
			continue;
		}
		done++;
		with_warps += sh.nr_warps > 0;
		if (sh.max_warp > worst)
			worst = sh.max_warp;
		sync_pair_result(name, cpus[0], other, iterations, &sh, hz, duration_ns);
	}
	emit_result_begin(&r, P, "tsc sync");
	tp_rec_int(&r, "cpus", ncpus);
	tp_rec_int(&r, "pairs", done);
	tp_rec_int(&r, "pairs_with_warps", with_warps);
	tp_rec_uint(&r, "max_warp_ticks", worst);
	emit_rec_double(&r, "max_warp_ns", hz > 0 ? (double)worst * 1e9 / hz : NAN);
	emit_end(&r);
}
