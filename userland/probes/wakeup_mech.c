// SPDX-License-Identifier: MIT
/*
 * Probe `wakeup`'s mechanisms; see wakeup_mech.h. Absolute mechanisms
 * (clock_nanosleep TIMER_ABSTIME, POSIX timers, timerfd, mq_timedreceive)
 * wait for deadlines on the grid start + k x period: latency = wake-up
 * time - deadline, a wake-up a whole period late counting the grid points
 * it missed as overruns. Relative ones (nanosleep, usleep, select, poll,
 * epoll_wait, ...) from the time read just before the call.
 */
#include <errno.h>
#include <mqueue.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../timeutil.h"
#include "wakeup.h"
#include "wakeup_mech.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid	/* glibc before 2.41 lacks the name */
#endif

static int fail(char *why, size_t len, const char *call)
{
	int err = errno;

	snprintf(why, len, "%s: %s", call, strerror(err));
	return -err;
}

/* -- relative: one call per sample, latency from the time before the call -- */

typedef int (*sleep_fn)(void *arg, int64_t ns);

static int rel_loop(const struct wcfg *c, struct wout *o, sleep_fn f, void *arg,
		    char *why, size_t whylen, const char *call)
{
	int64_t start = mono_ns();

	for (size_t i = 0; i < c->samples; i++) {
		int64_t before = mono_ns();

		if (f(arg, c->period_ns) < 0)
			return fail(why, whylen, call);
		int64_t after = mono_ns();

		o->lat[o->n++] = after - (before + c->period_ns);
		if (after - start > c->wall_cap_ns) {
			o->stopped_early = 1;
			break;
		}
	}
	for (size_t i = 0; i < o->n; i++)
		o->overruns += wakeup_missed_periods(o->lat[i], c->period_ns);
	return 0;
}

static int s_cns_rel(void *arg, int64_t ns)
{
	struct timespec t = ns_ts(ns);
	int rc = clock_nanosleep(CLOCK_MONOTONIC, 0, &t, 0);

	if (rc)
		errno = rc;	/* clock_nanosleep returns the error number */
	return rc ? -1 : 0;
}

static int s_nanosleep(void *arg, int64_t ns)
{
	struct timespec t = ns_ts(ns);

	return nanosleep(&t, 0);
}

static int s_usleep(void *arg, int64_t ns)
{
	return usleep((useconds_t)(ns / NS_PER_US));
}

static int s_select(void *arg, int64_t ns)
{
	struct timeval tv = { .tv_sec = ns / NS_PER_S, .tv_usec = ns % NS_PER_S / NS_PER_US };

	return select(0, 0, 0, 0, &tv);
}

static int s_poll(void *arg, int64_t ns)
{
	return poll(0, 0, (int)(ns / NS_PER_MS));
}

static int s_ppoll(void *arg, int64_t ns)
{
	struct timespec t = ns_ts(ns);

	return ppoll(0, 0, &t, 0);
}

static int s_epoll_wait(void *arg, int64_t ns)
{
	struct epoll_event ev;

	return epoll_wait(*(int *)arg, &ev, 1, (int)(ns / NS_PER_MS));
}

static int s_epoll_pwait2(void *arg, int64_t ns)
{
	struct epoll_event ev;
	struct timespec t = ns_ts(ns);

	/* No libc wrapper in musl 1.2.3; Linux 5.11 added the call. */
	return (int)syscall(SYS_epoll_pwait2, *(int *)arg, &ev, 1, &t, 0, 0);
}

static int ms_only(const struct wcfg *c, char *why, size_t whylen, const char *call)
{
	if (c->period_ns % NS_PER_MS == 0)
		return 0;
	snprintf(why, whylen, "%s takes its timeout in whole ms; the period is %lld us",
		 call, (long long)(c->period_ns / NS_PER_US));
	return 1;
}

static int r_cns_rel(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return rel_loop(c, o, s_cns_rel, 0, why, len, "clock_nanosleep");
}

static int r_nanosleep(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return rel_loop(c, o, s_nanosleep, 0, why, len, "nanosleep");
}

static int r_usleep(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return rel_loop(c, o, s_usleep, 0, why, len, "usleep");
}

static int r_select(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return rel_loop(c, o, s_select, 0, why, len, "select");
}

static int r_poll(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return ms_only(c, why, len, "poll") ?: rel_loop(c, o, s_poll, 0, why, len, "poll");
}

static int r_ppoll(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return rel_loop(c, o, s_ppoll, 0, why, len, "ppoll");
}

static int epoll_common(const struct wcfg *c, struct wout *o, char *why, size_t len, int pwait2)
{
	int fd = epoll_create1(EPOLL_CLOEXEC), rc;

	if (fd < 0)
		return fail(why, len, "epoll_create1");
	if (pwait2 && s_epoll_pwait2(&fd, 0) < 0 && errno == ENOSYS) {
		close(fd);
		snprintf(why, len, "epoll_pwait2: not in this kernel (Linux 5.11+)");
		return 1;
	}
	rc = rel_loop(c, o, pwait2 ? s_epoll_pwait2 : s_epoll_wait, &fd, why, len,
		      pwait2 ? "epoll_pwait2" : "epoll_wait");
	close(fd);
	return rc;
}

static int r_epoll_wait(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return ms_only(c, why, len, "epoll_wait") ?: epoll_common(c, o, why, len, 0);
}

static int r_epoll_pwait2(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return epoll_common(c, o, why, len, 1);
}

/* -- absolute: deadlines on the grid start + k x period -- */

static int64_t clock_now_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return ts_ns(&t);
}

/* Waits until DEADLINE on clock ID: 0 once it passed, else an errno. */
typedef int (*abs_wait_fn)(void *arg, clockid_t id, const struct timespec *deadline);

/* Deadlines on the grid start + k x period of clock ID, each waited for
 * with WAIT; a first wait refused with EINVAL or ENOTSUP is a skip. */
static int abs_loop(clockid_t id, const struct wcfg *c, struct wout *o, abs_wait_fn wait, void *arg,
		    char *why, size_t len, const char *call)
{
	int64_t start = clock_now_ns(id), next = start + c->period_ns;

	for (size_t i = 0; i < c->samples; i++) {
		struct timespec t = ns_ts(next);
		int rc = wait(arg, id, &t);
		int64_t now = clock_now_ns(id), lat = now - next;
		uint64_t miss;

		if (rc && i == 0 && (rc == EINVAL || rc == ENOTSUP)) {
			snprintf(why, len, "%s: %s: the kernel takes no wait on this clock", call, strerror(rc));
			return 1;
		}
		if (rc) {
			errno = rc;
			return fail(why, len, call);
		}
		miss = wakeup_missed_periods(lat, c->period_ns);
		o->lat[o->n++] = lat;
		o->overruns += miss;
		next += (int64_t)(1 + miss) * c->period_ns;
		if (now - start > c->wall_cap_ns) {
			o->stopped_early = 1;
			break;
		}
	}
	return 0;
}

static int cns_wait(void *arg, clockid_t id, const struct timespec *deadline)
{
	(void)arg;
	return clock_nanosleep(id, TIMER_ABSTIME, deadline, 0);
}

static int cns_abs_on(clockid_t id, const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return abs_loop(id, c, o, cns_wait, 0, why, len, "clock_nanosleep");
}

static int r_cns_abs(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return cns_abs_on(CLOCK_MONOTONIC, c, o, why, len);
}

/* The other clocks' absolute sleeps: a step of CLOCK_REALTIME or CLOCK_TAI
 * (settimeofday, an NTP leap) while one waits shows as a latency. */
static int r_cns_abs_realtime(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return cns_abs_on(CLOCK_REALTIME, c, o, why, len);
}

static int r_cns_abs_boottime(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return cns_abs_on(CLOCK_BOOTTIME, c, o, why, len);
}

static int r_cns_abs_tai(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return cns_abs_on(CLOCK_TAI, c, o, why, len);
}

/* mq_timedreceive() on an empty queue of its own: the call's timeout is an
 * absolute CLOCK_REALTIME time (mq_timedreceive(3)), so its grid is on
 * CLOCK_REALTIME; the timeout ends each wait (ETIMEDOUT). */
static int mq_wait(void *arg, clockid_t id, const struct timespec *deadline)
{
	char msg[8];

	(void)id;
	if (mq_timedreceive(*(mqd_t *)arg, msg, sizeof(msg), 0, deadline) >= 0)
		return EAGAIN;	/* nobody sends: a message is a fault */
	return errno == ETIMEDOUT ? 0 : errno;
}

static int r_mq_timedreceive(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	char name[48];
	mqd_t q;
	int rc;

	snprintf(name, sizeof(name), "/timeprobe-wakeup-%d", (int)getpid());
	q = mq_open(name, O_RDONLY | O_CREAT | O_EXCL, 0600, &attr);
	if (q == (mqd_t)-1 && errno == ENOSYS) {
		snprintf(why, len, "mq_open: %s: no POSIX message queues (CONFIG_POSIX_MQUEUE)", strerror(errno));
		return 1;
	}
	if (q == (mqd_t)-1)
		return fail(why, len, "mq_open");
	mq_unlink(name);	/* gone with the descriptor, whatever happens */
	rc = abs_loop(CLOCK_REALTIME, c, o, mq_wait, &q, why, len, "mq_timedreceive");
	mq_close(q);
	return rc;
}

/* A periodic timer's first expiry one period from now, absolute: *start is
 * now, *expected that first expiry. */
static struct itimerspec periodic_its(const struct wcfg *c, int64_t *start, int64_t *expected)
{
	struct itimerspec its;

	*start = mono_ns();
	*expected = *start + c->period_ns;
	its.it_value = ns_ts(*expected);
	its.it_interval = ns_ts(c->period_ns);
	return its;
}

/* One wake-up at now that took `periods` expiries (1 + the overruns): its
 * latency against *expected, which moves on; 1 once the wall cap is past. */
static int periodic_took(const struct wcfg *c, struct wout *o, int64_t start, int64_t now,
			 int64_t *expected, uint64_t periods)
{
	o->lat[o->n++] = now - *expected;
	o->overruns += periods - 1;
	*expected += (int64_t)periods * c->period_ns;
	if (now - start <= c->wall_cap_ns)
		return 0;
	o->stopped_early = 1;
	return 1;
}

/* POSIX timer, periodic, first expiry absolute; the signal is blocked and
 * taken with sigwaitinfo(), as cyclictest does. The kernel re-arms the
 * timer when the signal is taken and reports the periods it skipped in
 * si_overrun (kernel/time/posix-timers.c, posixtimer_rearm()). */
static int posix_timer(const struct wcfg *c, struct wout *o, char *why, size_t len, int thread_id)
{
	int signo = SIGRTMIN;
	struct sigevent sev = { .sigev_notify = thread_id ? SIGEV_THREAD_ID : SIGEV_SIGNAL, .sigev_signo = signo };
	struct itimerspec its;
	struct timespec zero = { 0 };
	int64_t start, expected;
	timer_t tid;
	sigset_t set;
	siginfo_t si;
	int rc = 0;

	sigemptyset(&set);
	sigaddset(&set, signo);
	sigprocmask(SIG_BLOCK, &set, 0);
	if (thread_id)
		sev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, &tid) < 0) {
		rc = fail(why, len, "timer_create");
		if (rc == -EINVAL || rc == -ENOSYS || rc == -EOPNOTSUPP)
			rc = 1;
		return rc;
	}
	its = periodic_its(c, &start, &expected);
	if (timer_settime(tid, TIMER_ABSTIME, &its, 0) < 0) {
		rc = fail(why, len, "timer_settime");
		goto out;
	}
	for (size_t i = 0; i < c->samples; i++) {
		uint64_t over;

		if (sigwaitinfo(&set, &si) < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			rc = fail(why, len, "sigwaitinfo");
			goto out;
		}
		over = si.si_overrun > 0 ? (uint64_t)si.si_overrun : 0;
		if (periodic_took(c, o, start, mono_ns(), &expected, 1 + over))
			break;
	}
out:
	timer_delete(tid);
	while (sigtimedwait(&set, &si, &zero) == signo)
		;	/* one may be pending still */
	return rc;
}

static int r_timer_signal(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return posix_timer(c, o, why, len, 0);
}

static int r_timer_tid(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	return posix_timer(c, o, why, len, 1);
}

/* timerfd, periodic, first expiry absolute: read() returns how many
 * periods expired since the last read (timerfd_create(2)). */
static int r_timerfd(const struct wcfg *c, struct wout *o, char *why, size_t len)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), rc = 0;
	struct itimerspec its;
	int64_t start, expected;

	if (fd < 0) {
		rc = fail(why, len, "timerfd_create");
		return rc == -ENOSYS || rc == -EINVAL ? 1 : rc;
	}
	its = periodic_its(c, &start, &expected);
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, 0) < 0) {
		rc = fail(why, len, "timerfd_settime");
		goto out;
	}
	for (size_t i = 0; i < c->samples; i++) {
		uint64_t exp = 0;

		if (read(fd, &exp, sizeof(exp)) != (ssize_t)sizeof(exp) || !exp) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			rc = fail(why, len, "read(timerfd)");
			goto out;
		}
		if (periodic_took(c, o, start, mono_ns(), &expected, exp))
			break;
	}
out:
	close(fd);
	return rc;
}

/* sized by its rows: a count other than WAKEUP_NMECH conflicts with the header */
const struct mech wakeup_mechs[] = {
	{ "clock_nanosleep TIMER_ABSTIME", 1, r_cns_abs, "CLOCK_MONOTONIC" },
	{ "clock_nanosleep relative", 0, r_cns_rel, "CLOCK_MONOTONIC" },
	{ "nanosleep", 0, r_nanosleep, "CLOCK_MONOTONIC" },
	{ "usleep", 0, r_usleep, "CLOCK_MONOTONIC" },
	{ "timer_create SIGEV_SIGNAL", 1, r_timer_signal, "CLOCK_MONOTONIC" },
	{ "timer_create SIGEV_THREAD_ID", 1, r_timer_tid, "CLOCK_MONOTONIC" },
	{ "timerfd", 1, r_timerfd, "CLOCK_MONOTONIC" },
	{ "select", 0, r_select, "CLOCK_MONOTONIC" },
	{ "poll", 0, r_poll, "CLOCK_MONOTONIC" },
	{ "ppoll", 0, r_ppoll, "CLOCK_MONOTONIC" },
	{ "epoll_wait", 0, r_epoll_wait, "CLOCK_MONOTONIC" },
	{ "epoll_pwait2", 0, r_epoll_pwait2, "CLOCK_MONOTONIC" },
	{ "clock_nanosleep TIMER_ABSTIME CLOCK_REALTIME", 1, r_cns_abs_realtime, "CLOCK_REALTIME" },
	{ "clock_nanosleep TIMER_ABSTIME CLOCK_BOOTTIME", 1, r_cns_abs_boottime, "CLOCK_BOOTTIME" },
	{ "clock_nanosleep TIMER_ABSTIME CLOCK_TAI", 1, r_cns_abs_tai, "CLOCK_TAI" },
	{ "mq_timedreceive", 1, r_mq_timedreceive, "CLOCK_REALTIME" },
};
