// SPDX-License-Identifier: MIT
/*
 * The suite runner. Each probe runs under the supervisor in a child process
 * in its own process group, with stdout on a pipe this process reads: so the
 * parent is the only writer of the console and of the saved file (the sink),
 * counts every record, and can kill a probe (and everything it started) that
 * crashes or overruns its time limit, then go on with the next one.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/announce.h"
#include "attribution.h"
#include "dmalat.h"
#include "emit.h"
#include "irqstat.h"
#include "lavamon.h"
#include "migrations.h"
#include "fingerprint.h"
#include "probe.h"
#include "progress.h"
#include "selection.h"
#include "sink.h"
#include "suite.h"
#include "busy.h"
#include "summary.h"
#include "supervise.h"
#include "sysinfo.h"
#include "timeutil.h"
#include "readiness.h"
#include "rounds.h"
#include "skewopt.h"
#include "verdict.h"

#define MAX_SELECTED 64
#define SUMMARY_MAX 256

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

void suite_catch_signals(void)
{
	/* Ctrl-C, kill, a closed terminal or ssh session, Ctrl-\ */
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART */

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, 0);
}

/* A signal, or an output that cannot be written: stop the probe and the run. */
static int should_stop(void)
{
	return stop_signal || sink_write_error();
}

/* Emulated CPUs (QEMU TCG) run the probes several times slower: their
 * limits and estimates are this many times longer. */
static int time_scale(void)
{
	return sysinfo_running_in_qemu() && !sysinfo_cpu_has_flag("constant_tsc") ? 4 : 1;
}

/* --timeout, or the probe's limit (progress_limit_ms()), in whole seconds. */
static int probe_limit_s(const struct probe *p, const struct probe_ctx *ctx)
{
	int64_t s;

	if (ctx->opt->timeout_s > 0)
		return ctx->opt->timeout_s;
	s = (progress_limit_ms(p, ctx) + 999) / 1000;
	return s > INT_MAX ? INT_MAX : (int)s;
}

/*
 * Under isolcpus= (the nohz-full variant) probes run on the isolated CPUs,
 * away from the housekeeping CPU 0. Probes that pin threads themselves
 * still choose their own CPUs. The list goes to the attribution record
 * too: interrupts on those CPUs are the probe's share.
 */
struct pinning {
	int cpu[IRQSTAT_CPUS];
	int n;			/* 0: not pinned */
};

static void isolated_cpus(struct pinning *pin)
{
	char list[256];

	pin->n = 0;
	if (sysinfo_read_text("/sys/devices/system/cpu/isolated", list, sizeof(list)) <= 0)
		return;
	pin->n = irqstat_parse_cpulist(list, pin->cpu, IRQSTAT_CPUS);
	if (pin->n < 0)
		pin->n = 0;
}

static void pin_to(const struct pinning *pin)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < pin->n; i++)
		if (pin->cpu[i] >= 0 && pin->cpu[i] < CPU_SETSIZE)
			CPU_SET(pin->cpu[i], &set);
	if (pin->n)
		sched_setaffinity(0, sizeof(set), &set);
}

struct probe_run {
	const struct probe *p;
	struct probe_ctx *ctx;
	const struct pinning *pin;
};

static int probe_child(void *arg)
{
	struct probe_run *pr = arg;

	pin_to(pr->pin);
	emit_set_round(pr->ctx->round);
	migrations_close_inherited();	/* the suite's per-CPU counters: not in the probe's fd table */
	return probe_exit_code(pr->p->run(pr->ctx));
}

/* An error record (and a line) for every outcome but ok and skipped. */
static void report_outcome(const struct probe *p, const struct sup_result *sr, int limit_s)
{
	struct tp_rec r;
	char how[96] = "";

	emit_begin(&r, "error");
	tp_rec_str(&r, "probe", p->name);
	tp_rec_str(&r, "reason", supervise_outcome_name(sr->out));
	if (sr->out == OUTCOME_SIGNAL) {
		tp_rec_int(&r, "signal", sr->status);
		tp_rec_str(&r, "signal_name", strsignal(sr->status));
		snprintf(how, sizeof(how), " %s", strsignal(sr->status));
	} else if (sr->out == OUTCOME_EXIT || sr->out == OUTCOME_FAILED) {
		int st = sr->out == OUTCOME_FAILED ? SUP_EXIT_FAILED : sr->status;

		tp_rec_int(&r, "exit_status", st);
		snprintf(how, sizeof(how), " with status %d%s", st,
			 sr->out == OUTCOME_FAILED ? " (the probe's records say why)" : "");
	} else if (sr->out == OUTCOME_TIMEOUT) {
		tp_rec_int(&r, "limit_s", limit_s);
	} else if (sr->out == OUTCOME_STOPPED && stop_signal) {
		tp_rec_int(&r, "signal", stop_signal);
		tp_rec_str(&r, "signal_name", strsignal(stop_signal));
	} else if (sr->out == OUTCOME_NOSTART) {
		tp_rec_str(&r, "error", strerror(sr->status));
	}
	if (sr->leftovers)
		tp_rec_int(&r, "leftovers_killed", sr->leftovers);
	tp_rec_int(&r, "ran_ms", sr->ran_ns / NS_PER_MS);
	sink_emit(&r);
	sink_human("probe %s FAILED: %s%s after %lld ms\n", p->name, supervise_outcome_name(sr->out), how,
		   (long long)(sr->ran_ns / NS_PER_MS));
}

/* Processes it left behind, killed, when it ended well: a record says so. */
static void report_leftovers(const struct probe *p, int n)
{
	struct tp_rec r;

	emit_begin(&r, "error");
	tp_rec_str(&r, "probe", p->name);
	tp_rec_str(&r, "reason", "left processes running; killed");
	tp_rec_int(&r, "leftovers_killed", n);
	sink_emit(&r);
}

static void report_dropped(const struct probe *p, unsigned long dropped)
{
	struct tp_rec r;

	emit_begin(&r, "error");
	tp_rec_str(&r, "probe", p->name);
	tp_rec_str(&r, "reason", "record cap: records shown on the console but not kept in the results");
	tp_rec_uint(&r, "records_not_kept", dropped);
	tp_rec_uint(&r, "cap_bytes", SINK_PROBE_CAP);
	sink_emit(&r);
}

/* The watcher's line (common/announce.h): the probe ends within limit_s. */
static void announce_probe(const struct probe *p, int64_t limit_s)
{
	char what[64], line[128];
	struct tp_buf b;

	snprintf(what, sizeof(what), "probe %s started", p->name);
	tp_buf_init(&b, line, sizeof(line));
	tp_announce(&b, what, (uint64_t)(limit_s > 0 ? limit_s : 0));
	sink_human("timeprobe: %s\n", line);
}

/* The supervisor's tick: a progress line when due, and when the next is. */
static int64_t tick(void *arg, int64_t now_ns)
{
	struct progress *pg = arg;

	progress_tick(pg, now_ns);
	return pg->next_ns;
}

/* timeprobe.lava: each line of a probe to the consoles, then its LAVA monitor lines. */
static void line_and_lava(const char *line, size_t len)
{
	sink_line(line, len);
	lavamon_lines(line, len, sink_line);
}

static enum outcome run_one(const struct probe *p, struct probe_ctx *ctx, const struct pinning *pin,
			    int64_t watchdog, struct progress *pg, int64_t *ran_ns)
{
	int limit = rounds_limit_s(probe_limit_s(p, ctx), ctx->rounds);
	struct probe_run pr = { p, ctx, pin };
	struct sup_job job = {
		.fn = probe_child, .arg = &pr, .watchdog_ns = watchdog,
		.line = ctx->opt->lava ? line_and_lava : sink_line, .stop = should_stop,
		.tick = tick, .tick_arg = pg,
	};
	struct sup_result sr;
	unsigned long dropped;

	ctx->deadline_ns = mono_ns() + (int64_t)limit * NS_PER_S;
	job.deadline_ns = ctx->deadline_ns;
	announce_probe(p, watchdog && watchdog < job.deadline_ns ?
			  (watchdog - mono_ns() + NS_PER_S - 1) / NS_PER_S : limit);
	sink_probe_begin();
	supervise_run(&job, &sr);
	progress_end();
	dropped = sink_probe_dropped();
	if (sr.out != OUTCOME_OK && sr.out != OUTCOME_SKIPPED)
		report_outcome(p, &sr, limit);
	else if (sr.leftovers)
		report_leftovers(p, sr.leftovers);
	if (dropped)
		report_dropped(p, dropped);
	*ran_ns = sr.ran_ns;
	return sr.out;
}

static void count(struct suite_result *res, enum outcome out)
{
	if (out == OUTCOME_OK)
		res->ok++;
	else if (out == OUTCOME_SKIPPED)
		res->skipped++;
	else
		res->failed++;
	if (out == OUTCOME_WATCHDOG)
		res->watchdog_fired = 1;
}

/* The run's own error record when the watchdog or a signal ended it. */
static void report_stop(const struct options *o, const struct suite_result *res)
{
	struct tp_rec r;

	if (!res->watchdog_fired && !res->stop_signal)
		return;
	emit_set_context(0);
	emit_begin(&r, "error");
	if (res->watchdog_fired) {
		tp_rec_str(&r, "reason", "watchdog");
		tp_rec_int(&r, "limit_s", o->watchdog_s);
	} else {
		tp_rec_str(&r, "reason", "interrupted");
		tp_rec_int(&r, "signal", res->stop_signal);
		tp_rec_str(&r, "signal_name", strsignal(res->stop_signal));
	}
	sink_emit(&r);
}

/* --cpu-dma-latency: held for the run, or a line says why not (the run
 * record too: dmalat_emit()) and the run goes on. */
static void hold_latency(int us)
{
	int rc = dmalat_hold(us);

	if (rc)
		sink_human("timeprobe: cpu_dma_latency=%d not held: %s; the run goes on without it\n", us,
			   dmalat_why(rc));
}

static int exit_status(const struct suite_result *res)
{
	if (res->stop_signal) {
		fprintf(stderr, "timeprobe: run: stopped by %s; the records above end with the end record\n",
			strsignal(res->stop_signal));
		return 128 + res->stop_signal;
	}
	if (res->write_error) {
		fprintf(stderr, "timeprobe: run: writing the output (stdout or the records file): %s\n",
			strerror(res->write_error));
		return 1;
	}
	return res->failed ? 1 : 0;
}

/*
 * One selected probe through one iteration of the suite: its rounds
 * (rounds.h), its own context (its round, its shared state) and its row
 * of the summary, which adds up its rounds.
 */
struct slot {
	const struct probe *p;
	struct probe_ctx ctx;
	int ran;		/* rounds run */
	int done;		/* no more rounds: the last ran, or one did not end well */
	struct summary_row row;
};

/* Before an iteration: each probe's rounds and their shared memory. */
static void slots_open(struct slot *sl, const struct probe *const *list, size_t n,
		       const struct probe_ctx *base, int want, int iteration)
{
	for (size_t i = 0; i < n; i++) {
		sl[i] = (struct slot){ .p = list[i], .ctx = *base };
		sl[i].ctx.rounds = rounds_of(list[i], base, want);
		if (sl[i].ctx.rounds > 1 && rounds_state_open(list[i], &sl[i].ctx))
			sl[i].ctx.rounds = 1;	/* no shared memory: whole */
		sl[i].row = (struct summary_row){ list[i]->name, iteration, OUTCOME_OK, 0, 0,
			progress_expect_ms(list[i], base) };
	}
}

/* Every probe's rounds over the whole run, for the progress lines. */
static int rounds_total(const struct probe *const *list, size_t n, const struct probe_ctx *ctx, int want)
{
	int sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += rounds_of(list[i], ctx, want);
	return sum;
}

/* "yield round 2/5", or the name alone for a whole probe. */
static const char *round_name(const struct slot *s, char *buf, size_t len)
{
	if (s->ctx.rounds <= 1)
		return s->p->name;
	snprintf(buf, len, "%s round %d/%d", s->p->name, s->ctx.round, s->ctx.rounds);
	return buf;
}

/* Round k of slot s: its child, its attribution record, its share of the row. */
static enum outcome run_round(struct slot *s, int k, const struct pinning *pin, int64_t watchdog,
			      int step, int steps, struct attribution *attr)
{
	unsigned long before = sink_records();
	int whole = s->ctx.rounds <= 1;
	int64_t ran_ns, expect = s->row.expect_ms / s->ctx.rounds;
	struct progress pg;
	enum outcome out;
	char name[64];

	s->ctx.round = whole ? 0 : k;
	if (k == s->ctx.rounds)	/* the run's table comes with the last round */
		sink_human("\n== %s%s%.0d: %s ==\n", s->p->name, s->row.iteration ? " iteration " : "",
			   s->row.iteration, s->p->summary);
	attribution_begin(attr, pin->cpu, pin->n);
	progress_start(&pg, step, steps, round_name(s, name, sizeof(name)), expect, mono_ns());
	out = run_one(s->p, &s->ctx, pin, watchdog, &pg, &ran_ns);
	emit_set_round(s->ctx.round);
	attribution_end(attr, s->p->name, k == s->ctx.rounds);	/* not one of the probe's records */
	emit_set_round(0);
	s->row.records += sink_records() - before;
	s->row.ms += ran_ns / NS_PER_MS;
	s->row.out = out;
	s->ran++;
	s->done = out != OUTCOME_OK || k >= s->ctx.rounds;
	return out;
}

/* One iteration: round 1 of every probe, then round 2, ...; *step counts rounds. */
static int run_iteration(struct slot *sl, size_t n, const struct pinning *pin, int64_t watchdog,
			 int *step, int steps, struct suite_result *res)
{
	static struct attribution attr;	/* two snapshots of 256 CPUs' SMI counts: not on the stack */
	int stop = 0, last = 1;

	for (size_t i = 0; i < n; i++)
		if (sl[i].ctx.rounds > last)
			last = sl[i].ctx.rounds;
	for (int k = 1; k <= last && !stop; k++)
		for (size_t i = 0; i < n && !stop; i++) {
			enum outcome out;

			if (sl[i].done || k > sl[i].ctx.rounds)
				continue;
			out = run_round(&sl[i], k, pin, watchdog, ++*step, steps, &attr);
			if (sl[i].done)
				count(res, out);
			stop = out == OUTCOME_WATCHDOG || should_stop();
		}
	return stop;
}

int suite_run(const struct options *o, const struct stub_handoff *stub,
	      const struct opt_errors *errs, int appliance, const char *env,
	      struct suite_result *res)
{
	const struct probe *list[MAX_SELECTED];
	struct probe_ctx ctx = {
		.opt = o, .stub = stub, .quick = o->quick, .appliance = appliance, .ncpu = sysinfo_cpu_count(),
		.time_scale = time_scale(), .rounds = 1,
	};
	int64_t watchdog = o->watchdog_s ? mono_ns() + (int64_t)o->watchdog_s * NS_PER_S : 0;
	struct summary_row sum[SUMMARY_MAX];
	static struct slot slots[MAX_SELECTED];
	static struct pinning pin;
	struct tp_skew skew;
	struct busy_mark start;
	size_t n, nsum = 0;
	int stop = 0, step = 0, steps;
	int64_t total_ms, t0 = mono_ns();

	supervise_init();
	emit_set_context(0);
	busy_mark(&start);
	hold_latency(o->cpu_dma_latency_us);
	summary_run_record(o, env, ctx.ncpu, &start);
	fingerprint_emit(o, stub, env);
	summary_keys_records();
	for (size_t i = 0; errs && i < errs->n; i++)
		summary_option_error(&errs->e[i]);
	n = selection_probes(o, list, MAX_SELECTED);
	isolated_cpus(&pin);
	total_ms = progress_total_ms(list, n, o->repeat, &ctx);
	steps = rounds_total(list, n, &ctx, o->rounds) * o->repeat;
	progress_announce((int)n * o->repeat, steps, total_ms, ctx.time_scale, o->quick ? "quick" : "full");

	for (int it = 1; it <= o->repeat && !stop; it++) {
		int iteration = o->repeat > 1 ? it : 0;

		emit_set_context(iteration);
		slots_open(slots, list, n, &ctx, o->rounds, iteration);
		stop = run_iteration(slots, n, &pin, watchdog, &step, steps, res);
		for (size_t i = 0; i < n; i++) {
			if (slots[i].ran && !slots[i].done)	/* stopped between its rounds */
				count(res, slots[i].row.out);
			if (slots[i].ran && nsum < SUMMARY_MAX)
				sum[nsum++] = slots[i].row;
			rounds_state_close(&slots[i].ctx);
		}
	}
	res->stop_signal = stop_signal;
	res->write_error = sink_write_error();
	report_stop(o, res);
	summary_table(sum, nsum, res);
	readiness_emit(skewopt_get(o, &skew) ? &skew : NULL);
	verdict_emit(sum, nsum);
	summary_option_recap();
	progress_finish((mono_ns() - t0) / NS_PER_MS, total_ms);
	summary_end_record(res, &start, ctx.ncpu);
	return exit_status(res);
}
