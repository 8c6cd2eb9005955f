// SPDX-License-Identifier: MIT
/*
 * The suite runner. Each probe runs in a child process in its own process
 * group, with stdout on a pipe that this process reads: so the parent is the
 * only writer of the console and of the saved file, counts every record, and
 * can kill a probe (and everything it started) that crashes or overruns its
 * time limit, then go on with the next one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emit.h"
#include "probe.h"
#include "suite.h"
#include "sysinfo.h"
#include "timeutil.h"

#define TP_VERSION "0.1.0"
#define MAX_OUTPUTS 4
#define SUMMARY_MAX 256

const struct probe *inject_find(const char *name);

static int out_fd[MAX_OUTPUTS] = { 1 };
static size_t out_n = 1;

void suite_set_outputs(const int *fds, size_t n)
{
	out_n = 0;
	for (size_t i = 0; i < n && i < MAX_OUTPUTS; i++)
		out_fd[out_n++] = fds[i];
	if (!out_n)
		out_fd[out_n++] = 1;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* a console that went away must not stop the run */
		p += w;
		n -= (size_t)w;
	}
}

void suite_line(struct suite_result *res, const char *line, size_t len)
{
	for (size_t i = 0; i < out_n; i++)
		write_all(out_fd[i], line, len);
	if (len < 4 || memcmp(line, "TP1 ", 4))
		return;
	res->records++;
	if (res->saved_len + len + 1 > res->saved_cap) {
		size_t cap = res->saved_cap ? res->saved_cap * 2 : 65536;
		char *p;

		while (cap < res->saved_len + len + 1)
			cap *= 2;
		p = realloc(res->saved, cap);
		if (!p)
			return;
		res->saved = p;
		res->saved_cap = cap;
	}
	memcpy(res->saved + res->saved_len, line, len);
	res->saved_len += len;
}

/* The parent's own records go through suite_line like the children's. */
static struct suite_result *cur;

static void parent_emit(struct tp_rec *r)
{
	const char *line = tp_rec_finish(r);

	if (line)
		suite_line(cur, line, r->len);
}

static void parent_human(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void parent_human(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	suite_line(cur, buf, (size_t)n);
}

/* "hz:250,preempt:none,nohz:idle" from the build as separate fields. */
static void emit_kconfig(struct tp_rec *r, const char *kc)
{
	char buf[64], *save = 0;

	if (!kc[0])
		return;
	snprintf(buf, sizeof(buf), "%s", kc);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(0, ",", &save)) {
		char *colon = strchr(t, ':'), key[32];

		if (!colon)
			continue;
		*colon = 0;
		snprintf(key, sizeof(key), "kernel_%s", t);
		if (!strcmp(t, "hz"))
			tp_rec_int(r, key, atoi(colon + 1));
		else
			tp_rec_str(r, key, colon + 1);
	}
}

/* The words the stub alone reads (timeprobe.calib_rounds=...), as given. */
static void emit_stub_words(struct tp_rec *r, const struct options *o)
{
	if (!o->n_stub_words)
		return;
	tp_rec_obj_begin(r, "stub_options");
	for (size_t i = 0; i < o->n_stub_words; i++)
		tp_rec_str(r, o->stub_words[i].name, o->stub_words[i].value);
	tp_rec_obj_end(r);
}

static void emit_run_record(const struct options *o, const char *env, int ncpu)
{
	struct tp_rec r;
	struct utsname u;
	char cmdline[4096], model[256], machine[256], cs[64], avail[256], when[32];
	time_t t = time(0);
	struct tm tm;

	uname(&u);
	read_text("/proc/cmdline", cmdline, sizeof(cmdline));
	cpu_model(model, sizeof(model));
	machine_name(machine, sizeof(machine));
	current_clocksource(cs, sizeof(cs));
	read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail));
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);

	emit_begin(&r, "run");
	tp_rec_str(&r, "version", TP_VERSION);
	tp_rec_int(&r, "records_version", 1);
	tp_rec_str(&r, "env", env);
	tp_rec_str(&r, "kernel", u.release);
	tp_rec_str(&r, "kernel_version", u.version);
	tp_rec_str(&r, "cmdline", cmdline);
	tp_rec_str(&r, "cpu_model", model);
	tp_rec_int(&r, "cpus", ncpu);
	tp_rec_str(&r, "machine", machine);
	tp_rec_bool(&r, "hypervisor", cpu_has_flag("hypervisor"));
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "available_clocksources", avail);
	tp_rec_str(&r, "variant", o->variant[0] ? o->variant : "base");
	if (o->accel[0])
		tp_rec_str(&r, "accel", o->accel);
	else
		tp_rec_null(&r, "accel");
	emit_kconfig(&r, o->kconfig);
	if (o->accel[0])
		tp_rec_str(&r, "accel", o->accel);
	emit_stub_words(&r, o);
	tp_rec_str(&r, "profile", o->quick ? "quick" : "full");
	tp_rec_int(&r, "repeat", o->repeat);
	tp_rec_str(&r, "start", when);
	parent_emit(&r);
	parent_human("timeprobe %s on %s (%s), Linux %s, %d CPUs, clocksource %s\n",
		     TP_VERSION, machine, env, u.release, ncpu, cs);
}

static void emit_option_error(const struct opt_error *e)
{
	struct tp_rec r;

	emit_begin(&r, "error");
	tp_rec_str(&r, "option", e->name);
	tp_rec_str(&r, "value", e->value);
	tp_rec_str(&r, "reason", e->reason);
	tp_rec_str(&r, "action", "default kept");
	parent_emit(&r);
	parent_human("option %s=%s: %s; default kept\n", e->name, e->value, e->reason);
}

/* Forwards complete lines from a child's pipe; keeps a partial line. */
struct linebuf {
	char buf[TP_REC_MAX + 256];
	size_t len;
};

/* Reads what is there (fd is non-blocking); returns 1 at end of file. */
static int drain(struct suite_result *res, struct linebuf *lb, int fd, int flush)
{
	int eof = 0;

	while (fd >= 0) {
		ssize_t n = read(fd, lb->buf + lb->len, sizeof(lb->buf) - lb->len);
		char *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			lb->len += (size_t)n;
		while ((nl = memchr(lb->buf, '\n', lb->len))) {
			size_t l = (size_t)(nl - lb->buf) + 1;

			suite_line(res, lb->buf, l);
			memmove(lb->buf, lb->buf + l, lb->len - l);
			lb->len -= l;
		}
		if (lb->len == sizeof(lb->buf)) {
			/* a line longer than any record: pass it on as it is */
			suite_line(res, lb->buf, lb->len);
			lb->len = 0;
		}
		if (n == 0)
			eof = 1;
		if (n <= 0)
			break;
	}
	if (flush && lb->len) {
		/* A cut line (the child died mid-write) is ended, so the next
		 * record starts on a line of its own; its CRC will not match. */
		lb->buf[lb->len++] = '\n';
		suite_line(res, lb->buf, lb->len);
		lb->len = 0;
	}
	return eof;
}

static int limit_for(const struct probe *p, const struct options *o)
{
	int s = o->quick ? p->limit_quick_s : p->limit_full_s;

	if (o->timeout_s > 0)
		return o->timeout_s;
	/* Emulated CPUs (QEMU TCG) run the probes several times slower. */
	if (running_in_qemu() && !cpu_has_flag("constant_tsc"))
		s *= 4;
	return s;
}

/*
 * Under isolcpus= (the nohz-full variant) probes run on the isolated CPUs,
 * away from the housekeeping CPU 0. Probes that pin threads themselves
 * still choose their own CPUs.
 */
static void pin_to_isolated(void)
{
	char list[256], *save = 0;
	cpu_set_t set;
	int n = 0;

	if (read_text("/sys/devices/system/cpu/isolated", list, sizeof(list)) <= 0)
		return;
	CPU_ZERO(&set);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(0, ",", &save)) {
		int a, b;

		if (sscanf(t, "%d-%d", &a, &b) != 2)
			b = a = atoi(t);
		for (int c = a; c <= b && c < CPU_SETSIZE; c++, n++)
			CPU_SET(c, &set);
	}
	if (n)
		sched_setaffinity(0, sizeof(set), &set);
}

static void child_main(const struct probe *p, struct probe_ctx *ctx, int wfd)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t none;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &sa, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, 0);
	pin_to_isolated();
	dup2(wfd, 1);
	close(wfd);
	setvbuf(stdout, 0, _IOLBF, 0);
	_exit((int)p->run(ctx));
}

static enum probe_status run_one(const struct probe *p, struct probe_ctx *ctx,
				 struct suite_result *res, int64_t run_deadline)
{
	int fds[2], status = 0;
	struct linebuf lb = { .len = 0 };
	int64_t start = mono_ns(), deadline = start + (int64_t)limit_for(p, ctx->opt) * NS_PER_S;
	const char *why = 0;
	pid_t pid;
	int eof = 0, exited = 0;
	struct tp_rec r;

	if (run_deadline && run_deadline < deadline)
		deadline = run_deadline;
	/* tools/qemu_watch.py (PROGRESS) reads this line: a guest may stay
	 * silent this long while the probe runs. Keep the two in step. */
	parent_human("timeprobe: probe %s started, limit %lld s\n", p->name,
		     (long long)((deadline - start + NS_PER_S - 1) / NS_PER_S));
	fflush(stdout);
	if (pipe2(fds, O_CLOEXEC) < 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0) {
		emit_begin(&r, "error");
		tp_rec_str(&r, "probe", p->name);
		tp_rec_str(&r, "reason", "pipe failed");
		parent_emit(&r);
		return PROBE_FAILED;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child_main(p, ctx, fds[1]);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		emit_begin(&r, "error");
		tp_rec_str(&r, "probe", p->name);
		tp_rec_str(&r, "reason", "fork failed");
		parent_emit(&r);
		return PROBE_FAILED;
	}
	setpgid(pid, pid);	/* also here: no race with the child's own call */

	while (!exited || !eof) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		int64_t left = deadline - mono_ns();

		if (left <= 0) {
			why = run_deadline && deadline == run_deadline ? "watchdog" : "timeout";
			break;
		}
		if (!eof && poll(&pfd, 1, left > 100 * NS_PER_MS ? 100 : (int)(left / NS_PER_MS) + 1) > 0)
			eof = drain(res, &lb, fds[0], 0) || (pfd.revents & (POLLHUP | POLLERR) && !(pfd.revents & POLLIN));
		else if (eof)
			usleep(10000);
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			/* grandchildren may hold the pipe open: do not wait for them */
			kill(-pid, SIGKILL);
		}
	}
	if (!exited) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	kill(-pid, SIGKILL);	/* whatever the probe started */
	drain(res, &lb, fds[0], 1);
	close(fds[0]);

	if (why) {
		/* res->watchdog_fired is set by the caller */
	} else if (WIFSIGNALED(status)) {
		why = "signal";
	} else if (WIFEXITED(status) && WEXITSTATUS(status) <= PROBE_FAILED) {
		return (enum probe_status)WEXITSTATUS(status);
	} else {
		why = "exit";
	}

	emit_begin(&r, "error");
	tp_rec_str(&r, "probe", p->name);
	tp_rec_str(&r, "reason", why);
	if (WIFSIGNALED(status) && !strcmp(why, "signal")) {
		tp_rec_int(&r, "signal", WTERMSIG(status));
		tp_rec_str(&r, "signal_name", strsignal(WTERMSIG(status)));
	}
	if (!strcmp(why, "exit"))
		tp_rec_int(&r, "exit_status", WEXITSTATUS(status));
	if (!strcmp(why, "timeout"))
		tp_rec_int(&r, "limit_s", limit_for(p, ctx->opt));
	tp_rec_int(&r, "ran_ms", (mono_ns() - start) / NS_PER_MS);
	parent_emit(&r);
	parent_human("probe %s FAILED: %s%s%s after %lld ms\n", p->name, why,
		     WIFSIGNALED(status) && !strcmp(why, "signal") ? " " : "",
		     WIFSIGNALED(status) && !strcmp(why, "signal") ? strsignal(WTERMSIG(status)) : "",
		     (long long)((mono_ns() - start) / NS_PER_MS));
	return !strcmp(why, "watchdog") ? (enum probe_status)-1 : PROBE_FAILED;
}

static void emit_end_record(const struct suite_result *res)
{
	struct tp_rec r;

	emit_set_context(0);
	emit_begin(&r, "end");
	tp_rec_int(&r, "probes_ok", res->ok);
	tp_rec_int(&r, "probes_skipped", res->skipped);
	tp_rec_int(&r, "probes_failed", res->failed);
	tp_rec_bool(&r, "watchdog", res->watchdog_fired);
	tp_rec_uint(&r, "records", res->records);
	parent_emit(&r);
}

int suite_run(const struct options *o, const struct opt_errors *errs, int appliance,
	      const char *env, struct suite_result *res)
{
	const struct probe *list[64];
	size_t n = 0;
	struct probe_ctx ctx = {
		.opt = o, .quick = o->quick, .appliance = appliance, .ncpu = cpu_count(),
	};
	int64_t run_deadline = o->watchdog_s ? mono_ns() + (int64_t)o->watchdog_s * NS_PER_S : 0;
	struct opt_error bad;
	struct {
		const char *name;
		int iteration, status;
		unsigned long records;
		int64_t ms;
	} sum[SUMMARY_MAX];
	size_t nsum = 0;

	cur = res;
	emit_set_context(0);
	emit_run_record(o, env, ctx.ncpu);
	for (size_t i = 0; errs && i < errs->n; i++)
		emit_option_error(&errs->e[i]);

	/* The probes asked for, in table order; unknown names are reported. */
	for (size_t i = 0; i < o->probes.n; i++) {
		if (probe_find(o->probes.v[i]))
			continue;
		snprintf(bad.name, sizeof(bad.name), "probes");
		snprintf(bad.value, sizeof(bad.value), "%s", o->probes.v[i]);
		snprintf(bad.reason, sizeof(bad.reason), "no such probe (see `timeprobe list`)");
		emit_option_error(&bad);
	}
	for (size_t i = 0; i < probe_count; i++) {
		int wanted = o->probes.n == 0;

		for (size_t k = 0; k < o->probes.n && !wanted; k++)
			wanted = !strcmp(o->probes.v[k], probe_table[i].name);
		if (wanted)
			list[n++] = &probe_table[i];
	}
	if (o->probes.n && !n) {
		/* Nothing valid was named: run everything rather than nothing. */
		for (size_t i = 0; i < probe_count; i++)
			list[n++] = &probe_table[i];
	}
	for (size_t i = 0; i < o->inject.n && n < 64; i++) {
		const struct probe *p = inject_find(o->inject.v[i]);

		if (p) {
			list[n++] = p;
			continue;
		}
		snprintf(bad.name, sizeof(bad.name), "inject");
		snprintf(bad.value, sizeof(bad.value), "%s", o->inject.v[i]);
		snprintf(bad.reason, sizeof(bad.reason), "not one of crash, hang, exit");
		emit_option_error(&bad);
	}

	for (int it = 1; it <= o->repeat && !res->watchdog_fired; it++) {
		for (size_t i = 0; i < n; i++) {
			enum probe_status st;

			ctx.iteration = o->repeat > 1 ? it : 0;
			emit_set_context(ctx.iteration);
			parent_human("\n== %s%s%.0d: %s ==\n", list[i]->name,
				     ctx.iteration ? " iteration " : "", ctx.iteration, list[i]->summary);
			unsigned long before = res->records;
			int64_t t0 = mono_ns();

			st = run_one(list[i], &ctx, res, run_deadline);
			if (nsum < SUMMARY_MAX) {
				sum[nsum].name = list[i]->name;
				sum[nsum].iteration = ctx.iteration;
				sum[nsum].status = (int)st;
				sum[nsum].records = res->records - before;
				sum[nsum].ms = (mono_ns() - t0) / NS_PER_MS;
				nsum++;
			}
			if ((int)st == -1) {
				res->failed++;
				res->watchdog_fired = 1;
				break;
			}
			if (st == PROBE_OK)
				res->ok++;
			else if (st == PROBE_SKIPPED)
				res->skipped++;
			else
				res->failed++;
		}
	}
	if (res->watchdog_fired) {
		struct tp_rec r;

		emit_set_context(0);
		emit_begin(&r, "error");
		tp_rec_str(&r, "reason", "watchdog");
		tp_rec_int(&r, "limit_s", o->watchdog_s);
		parent_emit(&r);
	}
	/* A summary a person can read at a glance on a screen without serial. */
	parent_human("\n== summary ==\n%-8s %5s  %-8s %8s %9s\n", "probe", "iter", "status", "records", "seconds");
	for (size_t i = 0; i < nsum; i++) {
		static const char *const names[] = { "ok", "skipped", "FAILED" };
		int st = sum[i].status;

		parent_human("%-8s %5d  %-8s %8lu %9.1f\n", sum[i].name, sum[i].iteration,
			     st >= 0 && st <= 2 ? names[st] : "WATCHDOG", sum[i].records, (double)sum[i].ms / 1000);
	}
	parent_human("\n== end: %d ok, %d skipped, %d failed ==\n", res->ok, res->skipped, res->failed);
	emit_end_record(res);
	return 0;
}
