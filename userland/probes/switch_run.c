// SPDX-License-Identifier: MIT
/* Probe `switch`'s measurement of one variant; see switch_run.h. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../timeutil.h"
#include "switch_run.h"

/* ---- the two ends of a ping-pong ---- */

/* The futex word: whose turn it is. */
enum { TURN_MAIN = 0, TURN_PEER = 1, TURN_QUIT = 2 };

struct chan {
	enum sw_mech mech;
	int to_peer[2], to_main[2];	/* pipes */
	atomic_int word;		/* futex (threads only) */
};

static void futex_wait(atomic_int *w, int val)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Own counts: RUSAGE_THREAD, so the other side is not mixed in. */
static void thread_ctxsw(int64_t *vol, int64_t *invol)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*vol = ru.ru_nvcsw;
	*invol = ru.ru_nivcsw;
}

/* The peer: answer every token until told to quit. */
static void peer_loop(struct chan *c, struct peer_report *rep)
{
	int64_t v0, i0, v1, i1;
	char b;

	thread_ctxsw(&v0, &i0);
	if (c->mech == SW_PIPE) {
		while (read(c->to_peer[0], &b, 1) == 1 && b != 'q')
			if (write(c->to_main[1], &b, 1) != 1)
				break;
	} else {
		for (;;) {
			int v;

			while ((v = atomic_load(&c->word)) == TURN_MAIN)
				futex_wait(&c->word, TURN_MAIN);
			if (v == TURN_QUIT)
				break;
			atomic_store(&c->word, TURN_MAIN);
			futex_wake(&c->word);
		}
	}
	thread_ctxsw(&v1, &i1);
	rep->vol_ctxsw = v1 - v0;
	rep->invol_ctxsw = i1 - i0;
}

/* The tight loop on the main side: N round trips. 0, or -errno when the
 * peer stopped answering (then the timing is not to be used). */
static int round_trips(struct chan *c, uint64_t n)
{
	char b = 'p';

	if (c->mech == SW_PIPE) {
		for (uint64_t i = 0; i < n; i++) {
			if (write(c->to_peer[1], &b, 1) != 1)
				return -EPIPE;
			if (read(c->to_main[0], &b, 1) != 1)
				return -EPIPE;
		}
		return 0;
	}
	for (uint64_t i = 0; i < n; i++) {
		atomic_store(&c->word, TURN_PEER);
		futex_wake(&c->word);
		while (atomic_load(&c->word) == TURN_PEER)
			futex_wait(&c->word, TURN_PEER);
	}
	return 0;
}

/*
 * lat_ctx's overhead: N hand-overs of the token without a switch, each a
 * write and a read of one byte through SELF, a pipe of the caller's own.
 * 0, or -EIO (then the timing is not to be used).
 */
static int self_handoffs(const int self[2], uint64_t n)
{
	char b = 'p';

	for (uint64_t i = 0; i < n; i++) {
		if (write(self[1], &b, 1) != 1)
			return -EIO;
		if (read(self[0], &b, 1) != 1)
			return -EIO;
	}
	return 0;
}

static void quit_peer(struct chan *c)
{
	if (c->mech == SW_PIPE) {
		if (write(c->to_peer[1], "q", 1) != 1)
			close(c->to_peer[1]);	/* EOF stops it too */
		return;
	}
	atomic_store(&c->word, TURN_QUIT);
	futex_wake(&c->word);
}

struct thread_peer {
	struct chan *c;
	struct peer_report rep;
};

static void *peer_thread(void *arg)
{
	struct thread_peer *t = arg;

	peer_loop(t->c, &t->rep);
	return 0;
}

/* ---- one variant ---- */
static int pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set) ? -errno : 0;
}

/* The peer of one variant: a forked process or a thread of ours. */
struct peer_handle {
	pid_t pid;
	pthread_t tid;
	int started;		/* running, and must be stopped */
	struct thread_peer tp;
};

/* The forked peer: its own ends of the pipes, its report written back. */
static __attribute__((noreturn)) void peer_process(struct chan *c)
{
	struct peer_report rep;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(c->to_peer[1]);
	close(c->to_main[0]);
	peer_loop(c, &rep);
	/* the child reports its own counts: RUSAGE_CHILDREN would add its
	 * fork and exit too */
	if (write(c->to_main[1], &rep, sizeof(rep)) != sizeof(rep))
		_exit(1);
	_exit(0);
}

/*
 * Starts the peer. It inherits the main side's CPU; a cross-CPU peer moves
 * to CPU before the first token, while it waits for it. 0 or -errno.
 */
static int start_peer(const struct switch_cfg *cfg, struct chan *c, struct peer_handle *ph,
		      int cpu, const char **what)
{
	cpu_set_t set;
	int rc;

	if (cfg->peer == SW_PROCESS) {
		*what = "fork";
		ph->pid = fork();
		if (ph->pid < 0)
			return -errno;
		if (ph->pid == 0)
			peer_process(c);
		ph->started = 1;
		/* Only the peer keeps its ends: if it dies, our read sees
		 * end of file instead of waiting for ever. */
		close(c->to_peer[0]);
		close(c->to_main[1]);
		c->to_peer[0] = c->to_main[1] = -1;
		*what = "sched_setaffinity(peer process)";
		return pin(ph->pid, cpu);
	}
	*what = "pthread_create";
	rc = -pthread_create(&ph->tid, 0, peer_thread, &ph->tp);
	if (rc)
		return rc;
	ph->started = 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	*what = "pthread_setaffinity_np(peer)";
	return -pthread_setaffinity_np(ph->tid, sizeof(set), &set);
}

/*
 * Warm up (first wake-ups, page faults, CPU frequency) and size the
 * repetitions: double the batch until it takes a quarter of one. Fills
 * *PER_REP and *TOTAL (round trips run); 0 or -errno.
 */
static int warm_up(struct chan *c, int64_t rep_ns, uint64_t *per_rep, uint64_t *total,
		   const char **what)
{
	uint64_t warm = 16;
	int64_t warm_ns;
	int rc;

	*total = 0;
	for (;;) {
		int64_t t0 = mono_ns();

		*what = "warm-up (peer stopped answering)";
		if ((rc = round_trips(c, warm)))
			return rc;
		warm_ns = mono_ns() - t0;
		*total += warm;
		if (warm_ns >= rep_ns / 4 || warm >= (1 << 24))
			break;
		warm *= 2;
	}
	*per_rep = switch_rounds_for(warm_ns, warm, rep_ns);
	return 0;
}

/* R's spread (and lat_ctx's figures, with_overhead) from REPS repetitions, sorting US. */
void switch_result_summarize(struct switch_result *r, double *us, double *ovh_ns, size_t reps)
{
	if (r->with_overhead)
		switch_lat_ctx(us, ovh_ns, reps, &r->spread, &r->lat_ctx);
	else
		switch_summarize(us, reps, &r->spread);
}

/*
 * Warms up, then the repetitions, each timed. With SELF (a pipe of the main
 * side's own), each repetition is followed by as many hand-overs through
 * SELF as its round trips made, timed too: lat_ctx's overhead. 0 or -errno.
 */
static int measure_rounds(struct chan *c, const int *self, int reps, int64_t rep_ns,
			  struct switch_result *r, const char **what)
{
	double us[SWITCH_MAX_REPS], ovh_ns[SWITCH_MAX_REPS];
	uint64_t warm_total, handoffs;
	int64_t v0, i0, v1, i1;
	int rc;

	if (reps > SWITCH_MAX_REPS)
		reps = SWITCH_MAX_REPS;
	thread_ctxsw(&v0, &i0);
	if ((rc = warm_up(c, rep_ns, &r->rounds_per_rep, &warm_total, what)))
		return rc;
	handoffs = r->rounds_per_rep * SWITCHES_PER_ROUND_TRIP;
	*what = "pipe overhead (its own pipe)";
	if (self && (rc = self_handoffs(self, handoffs)))	/* its warm-up */
		return rc;
	for (int i = 0; i < reps; i++) {
		int64_t t0 = mono_ns();

		*what = "round trips (peer stopped answering)";
		if ((rc = round_trips(c, r->rounds_per_rep)))
			return rc;
		us[i] = (double)(mono_ns() - t0) / 1e3 / (double)r->rounds_per_rep;
		if (!self)
			continue;
		t0 = mono_ns();
		*what = "pipe overhead (its own pipe)";
		if ((rc = self_handoffs(self, handoffs)))
			return rc;
		ovh_ns[i] = (double)(mono_ns() - t0) / (double)handoffs;
	}
	thread_ctxsw(&v1, &i1);
	r->vol_main = v1 - v0;
	r->invol_main = i1 - i0;
	r->counted_round_trips = warm_total + (uint64_t)reps * r->rounds_per_rep;
	r->with_overhead = self != 0;
	memcpy(r->us, us, (size_t)reps * sizeof(*us));
	memcpy(r->ovh_ns, ovh_ns, (size_t)reps * sizeof(*ovh_ns));
	switch_result_summarize(r, us, ovh_ns, (size_t)reps);
	return 0;
}

/* Stops the peer in every case and collects its report; returns rc or -EIO. */
static int stop_peer(const struct switch_cfg *cfg, struct chan *c, struct peer_handle *ph,
		     struct switch_result *r, int rc, const char **what)
{
	if (!ph->started)
		return rc;
	quit_peer(c);
	if (cfg->peer == SW_PROCESS) {
		if (!rc && read(c->to_main[0], &r->peer, sizeof(r->peer)) != sizeof(r->peer)) {
			*what = "peer report";
			rc = -EIO;
		}
		waitpid(ph->pid, 0, 0);
	} else {
		pthread_join(ph->tid, 0);
		r->peer = ph->tp.rep;
	}
	return rc;
}

/*
 * Runs one variant: the caller's thread is the main side, pinned to
 * CPU_MAIN; the peer is pinned to CPU_PEER. A pipe variant on one CPU also
 * times lat_ctx's overhead there, through a pipe of the main side's own.
 * Returns 0 or -errno with *WHAT naming the call that failed.
 */
int switch_run(const struct switch_cfg *cfg, int cpu_main, int cpu_peer, int reps,
		      int64_t rep_ns, struct switch_result *r, const char **what)
{
	struct chan c = { .mech = cfg->mech, .word = TURN_MAIN,
			  .to_peer = { -1, -1 }, .to_main = { -1, -1 } };
	struct peer_handle ph = { .pid = -1, .tp = { .c = &c } };
	int self[2] = { -1, -1 };	/* lat_ctx's overhead: pipe, same CPU */
	int rc;

	memset(r, 0, sizeof(*r));
	r->cpu_main = cpu_main;
	r->cpu_peer = cpu_peer;
	*what = "sched_setaffinity(main)";
	if ((rc = pin(0, cpu_main)))
		return rc;
	*what = "pipe";
	if (cfg->mech == SW_PIPE && (pipe(c.to_peer) || pipe(c.to_main)))
		rc = -errno;
	if (!rc)
		rc = start_peer(cfg, &c, &ph, cpu_peer, what);
	*what = "pipe (overhead)";
	if (!rc && cfg->mech == SW_PIPE && !cfg->cross && pipe(self))
		rc = -errno;
	if (!rc)
		rc = measure_rounds(&c, self[0] >= 0 ? self : 0, reps, rep_ns, r, what);
	rc = stop_peer(cfg, &c, &ph, r, rc, what);
	for (int i = 0; i < 2; i++) {
		if (self[i] >= 0)
			close(self[i]);
		if (c.to_peer[i] >= 0)
			close(c.to_peer[i]);
		if (c.to_main[i] >= 0)
			close(c.to_main[i]);
	}
	return rc;
}
