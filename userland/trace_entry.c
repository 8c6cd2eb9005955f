// SPDX-License-Identifier: MIT
/*
 * The traced-child check of trace_entry.h. Every syscall stop is read with
 * PTRACE_GET_SYSCALL_INFO (Linux 5.3), which says entry or exit and the
 * number on any architecture; each item's reads are bracketed by a marker
 * close(TRACE_MARK - i), which fails with EBADF and enters no time syscall.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_entry.h"

#define TRACE_MARK (-1000L)	/* close(TRACE_MARK - i) marks item i */

/* struct ptrace_syscall_info (include/uapi/linux/ptrace.h), the entry part:
 * the kernel copies no more than the size we pass. */
struct trace_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t ip, sp;
	uint64_t nr;
	uint64_t args[6];
};
#define TRACE_OP_ENTRY 1
#define TRACE_GET_SYSCALL_INFO 0x420e	/* Linux 5.3 */

static int is_time_syscall(uint64_t nr)
{
#ifdef SYS_time
	if (nr == SYS_time)
		return 1;
#endif
	return nr == SYS_clock_gettime || nr == SYS_gettimeofday;
}

/* The traced child: stops itself for the tracer, then the marked reads. */
static void traced_child(trace_read_fn read, void *arg, size_t n, int calls)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		_exit(3);
	raise(SIGSTOP);
	for (size_t i = 0; i < n; i++) {
		syscall(SYS_close, TRACE_MARK - (long)i);
		for (int k = 0; k < calls; k++)
			read(arg, i);
	}
	_exit(0);
}

/* One syscall-entry stop: a marker moves *cur, a time syscall counts for it. */
static void count_entry(const struct trace_info *info, size_t n, long *cur, uint64_t *count)
{
	int64_t fd = (int64_t)info->args[0];

	if (info->nr == SYS_close && fd <= TRACE_MARK && fd > TRACE_MARK - (int64_t)n)
		*cur = TRACE_MARK - fd;
	else if (*cur >= 0 && is_time_syscall(info->nr))
		count[*cur]++;
}

/*
 * Resumes the child to each syscall stop until it ends, forwarding the
 * signals it gets; *st is its last wait status. 0 or -errno.
 */
static int trace_loop(pid_t pid, size_t n, uint64_t *count, int *st)
{
	long cur = -1;
	int sig = 0;

	for (;;) {
		struct trace_info info;

		if (ptrace(PTRACE_SYSCALL, pid, 0, (void *)(long)sig))
			return -errno;
		sig = 0;
		if (waitpid(pid, st, 0) != pid)
			return -errno;
		if (WIFEXITED(*st) || WIFSIGNALED(*st))
			return 0;
		if (!WIFSTOPPED(*st))
			continue;
		if (WSTOPSIG(*st) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(*st) == SIGSTOP || WSTOPSIG(*st) == SIGTRAP ? 0 : WSTOPSIG(*st);
			continue;
		}
		memset(&info, 0, sizeof(info));
		if (ptrace(TRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0)
			return -errno;
		if (info.op == TRACE_OP_ENTRY)
			count_entry(&info, n, &cur, count);
	}
}

int trace_time_syscalls(trace_read_fn read, void *arg, size_t n, int calls, uint64_t *count)
{
	int st, err;
	pid_t pid;

	memset(count, 0, n * sizeof(*count));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		traced_child(read, arg, n, calls);
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		waitpid(pid, &st, 0);
		return -EPERM;	/* PTRACE_TRACEME refused */
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)))
		err = -errno;
	else
		err = trace_loop(pid, n, count, &st);
	if (err) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return err;
	}
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -ECHILD;
}
