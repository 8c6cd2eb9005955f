// SPDX-License-Identifier: MIT
/*
 * The supervisor; see supervise.h.
 *
 * The child is the leader of a new process group, so one kill(-pid) ends it
 * and everything it started that stayed in the group. A descendant that
 * left the group (setsid()) is found another way: this process is a child
 * subreaper (prctl(2) PR_SET_CHILD_SUBREAPER; PID 1 is one by nature), so
 * such orphans become its children once their parents die, and every child
 * still there after the supervised one was reaped is a leftover.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/record.h"
#include "supervise.h"
#include "timeutil.h"

#define FALLBACK_POLL_MS 50	/* without pidfd_open(): how often the child is looked at */
#define DRAIN_GRACE_MS 500	/* output still in flight after every writer died */

/* Complete lines from the child's pipe; a partial line waits for the rest. */
struct linebuf {
	char buf[TP_REC_MAX + 256];
	size_t len;
};

void supervise_init(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

const char *supervise_outcome_name(enum outcome o)
{
	static const char *const names[] = {
		[OUTCOME_OK] = "ok", [OUTCOME_SKIPPED] = "skipped", [OUTCOME_FAILED] = "failed",
		[OUTCOME_EXIT] = "exit", [OUTCOME_SIGNAL] = "signal", [OUTCOME_TIMEOUT] = "timeout",
		[OUTCOME_WATCHDOG] = "watchdog", [OUTCOME_STOPPED] = "stopped", [OUTCOME_NOSTART] = "not started",
	};

	return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "?";
}

static void split_lines(struct linebuf *lb, void (*line)(const char *, size_t))
{
	char *nl;

	while ((nl = memchr(lb->buf, '\n', lb->len))) {
		size_t l = (size_t)(nl - lb->buf) + 1;

		line(lb->buf, l);
		memmove(lb->buf, lb->buf + l, lb->len - l);
		lb->len -= l;
	}
	if (lb->len == sizeof(lb->buf)) {
		/* a line longer than any record: pass it on as it is */
		line(lb->buf, lb->len);
		lb->len = 0;
	}
}

/* Reads what is there (fd is non-blocking); 1 at end of file. */
static int drain(int fd, struct linebuf *lb, void (*line)(const char *, size_t))
{
	for (;;) {
		ssize_t n = read(fd, lb->buf + lb->len, sizeof(lb->buf) - lb->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0;
		lb->len += (size_t)n;
		split_lines(lb, line);
	}
}

/* After the child and its leftovers are gone: the rest of the output. */
static void finish_output(int fd, struct linebuf *lb, void (*line)(const char *, size_t))
{
	int64_t end = mono_ns() + DRAIN_GRACE_MS * NS_PER_MS;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (!drain(fd, lb, line) && mono_ns() < end)
		poll(&pfd, 1, FALLBACK_POLL_MS);
	if (lb->len) {
		/* A cut line (the child died mid-write) is ended, so the next
		 * record starts on a line of its own; its CRC will not match. */
		lb->buf[lb->len++] = '\n';
		line(lb->buf, lb->len);
		lb->len = 0;
	}
}

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses */
	p = strrchr(buf, ')');
	return p ? (pid_t)strtol(p + 4, 0, 10) : -1;
}

/* Kills and reaps every child of this process; returns how many. */
static int kill_children(void)
{
	pid_t self = getpid(), kids[256];
	int n = 0;
	struct dirent *e;
	DIR *d = opendir("/proc");

	while (d && n < 256 && (e = readdir(d))) {
		pid_t p = (pid_t)atoi(e->d_name);

		if (p > 0 && parent_of(p) == self)
			kids[n++] = p;
	}
	if (d)
		closedir(d);
	for (int i = 0; i < n; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], 0, 0);
	}
	return n;
}

/* Whatever the supervised child left: its group, then orphans that left it. */
static int kill_leftovers(pid_t pgid)
{
	int total = 0, n;

	kill(-pgid, SIGKILL);
	/* each round kills a generation; their orphans come to us next round */
	for (int round = 0; round < 64 && (n = kill_children()) > 0; round++)
		total += n;
	return total;
}

static __attribute__((noreturn)) void child(const struct sup_job *job, int wfd)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &dfl, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, 0);
	if (wfd >= 0) {
		dup2(wfd, 1);
		close(wfd);
	}
	setvbuf(stdout, 0, _IOLBF, 0);
	int rc = job->fn(job->arg);

	fflush(stdout);
	_exit(rc);
}

static enum outcome over_time(const struct sup_job *job, int64_t now)
{
	if (job->watchdog_ns && now >= job->watchdog_ns)
		return OUTCOME_WATCHDOG;
	if (job->deadline_ns && now >= job->deadline_ns)
		return OUTCOME_TIMEOUT;
	if (job->stop && job->stop())
		return OUTCOME_STOPPED;
	return OUTCOME_OK;
}

/* A descriptor that polls readable once the child has exited (Linux 5.3,
 * pidfd_open(2)); -1 on an older kernel. */
static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/*
 * How long poll() may sleep: until the deadline, the watchdog or the next
 * tick, whichever comes first; -1 (for ever) when none is set. Without a
 * pidfd the child's exit wakes nothing, so then at most FALLBACK_POLL_MS.
 */
static int sleep_ms(const struct sup_job *job, int64_t now, int64_t next_tick, int pidfd)
{
	int64_t until = INT64_MAX, ms;

	if (job->deadline_ns)
		until = job->deadline_ns;
	if (job->watchdog_ns && job->watchdog_ns < until)
		until = job->watchdog_ns;
	if (next_tick && next_tick < until)
		until = next_tick;
	if (pidfd < 0 && until - now > FALLBACK_POLL_MS * NS_PER_MS)
		until = now + FALLBACK_POLL_MS * NS_PER_MS;
	if (until == INT64_MAX)
		return -1;
	ms = until > now ? (until - now + NS_PER_MS - 1) / NS_PER_MS : 0;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

/*
 * Waits for the child while forwarding its output; OUTCOME_OK once it
 * exited. It sleeps in poll() on the child's output and its pidfd, so it
 * wakes only when the child writes a line or exits, at the deadline, the
 * watchdog or a tick the callback asked for, or on a signal (stop() is
 * looked at on every wake-up: a stop signal interrupts the poll).
 */
static enum outcome wait_child(const struct sup_job *job, pid_t pid, int fd,
			       struct linebuf *lb, int *status)
{
	int eof = fd < 0, pidfd = pidfd_of(pid);
	int64_t next_tick = job->tick ? mono_ns() : 0;
	enum outcome o = OUTCOME_OK;

	for (;;) {
		struct pollfd pfd[2] = { { .fd = eof ? -1 : fd, .events = POLLIN },
					 { .fd = pidfd, .events = POLLIN } };
		int64_t now = mono_ns();

		if (waitpid(pid, status, WNOHANG) == pid)
			break;
		if (next_tick && now >= next_tick)
			next_tick = job->tick(job->tick_arg, now);
		if ((o = over_time(job, now)) != OUTCOME_OK) {
			kill(-pid, SIGKILL);
			waitpid(pid, status, 0);
			break;
		}
		if (poll(pfd, 2, sleep_ms(job, now, next_tick, pidfd)) > 0 && pfd[0].revents)
			eof = drain(fd, lb, job->line);
	}
	if (pidfd >= 0)
		close(pidfd);
	return o;
}

static void classify(struct sup_result *res, int st)
{
	if (WIFSIGNALED(st)) {
		res->out = OUTCOME_SIGNAL;
		res->status = WTERMSIG(st);
	} else if (!WIFEXITED(st)) {
		res->out = OUTCOME_EXIT;
		res->status = -1;
	} else if (WEXITSTATUS(st) == 0) {
		res->out = OUTCOME_OK;
	} else if (WEXITSTATUS(st) == SUP_EXIT_SKIPPED) {
		res->out = OUTCOME_SKIPPED;
	} else if (WEXITSTATUS(st) == SUP_EXIT_FAILED) {
		res->out = OUTCOME_FAILED;
	} else {
		res->out = OUTCOME_EXIT;
		res->status = WEXITSTATUS(st);
	}
}

void supervise_run(const struct sup_job *job, struct sup_result *res)
{
	int fds[2] = { -1, -1 }, st = 0;
	struct linebuf *lb = 0;
	int64_t t0 = mono_ns();
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (job->line && (!(lb = calloc(1, sizeof(*lb))) || pipe2(fds, O_CLOEXEC) ||
			  fcntl(fds[0], F_SETFL, O_NONBLOCK))) {
		res->out = OUTCOME_NOSTART;
		res->status = errno ? errno : ENOMEM;
		goto out;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (fds[0] >= 0)
			close(fds[0]);
		child(job, fds[1]);
	}
	if (fds[1] >= 0)
		close(fds[1]);
	if (pid < 0) {
		res->out = OUTCOME_NOSTART;
		res->status = errno;
		goto out;
	}
	setpgid(pid, pid);	/* also here: no race with the child's own call */
	res->out = wait_child(job, pid, fds[0], lb, &st);
	res->leftovers = kill_leftovers(pid);
	if (fds[0] >= 0)
		finish_output(fds[0], lb, job->line);
	if (res->out == OUTCOME_OK)
		classify(res, st);
out:
	if (fds[0] >= 0)
		close(fds[0]);
	free(lb);
	res->ran_ns = mono_ns() - t0;
}
