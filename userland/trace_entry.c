// SPDX-License-Identifier: MIT
/*
 * The traced-child check of trace_entry.h. Every syscall stop is read with
 * PTRACE_GET_SYSCALL_INFO (Linux 5.3), which says entry or exit and the
 * number on any architecture; each item's reads are bracketed by a marker
 * close(TRACE_MARK - i), which fails with EBADF and enters no time syscall.
 * Then the same check for every clock id through the vDSO's own
 * TRACE_VDSO_CLOCK_GETTIME (trace_entry.h), found in the ELF image the kernel maps into every
 * process, so libc's choices (musl refuses the vDSO for some clocks) are
 * not in the way.
 */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace_entry.h"

#define TRACE_MARK (-1000L)	/* close(TRACE_MARK - i) marks item i */
#define CLOCK_CALLS 4		/* calls per clock id under the tracer */

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

/* ------------------------------------------------------------------ */
/* The vDSO's own entry points                                         */

/* System V gABI, "Dynamic Section", "Symbol Table" and "Hash Table". */
const void *trace_vdso_symbol(const void *base, const char *name)
{
	const Elf64_Ehdr *eh = base;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = 0;
	const Elf64_Sym *sym = 0;
	const char *str = 0;
	const uint32_t *hash = 0;
	intptr_t bias = -1;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	ph = (const void *)((const char *)base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && bias == -1)
			bias = (intptr_t)base + (intptr_t)ph[i].p_offset - (intptr_t)ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)base + ph[i].p_offset);
	}
	for (; dyn && bias != -1 && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			sym = (const void *)(bias + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			str = (const void *)(bias + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const void *)(bias + dyn->d_un.d_ptr);
	}
	if (!sym || !str || !hash)
		return 0;
	/* DT_HASH: nbucket, nchain; nchain is the number of symbols */
	for (uint32_t i = 0; i < hash[1]; i++)
		if (sym[i].st_shndx != SHN_UNDEF && ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC &&
		    !strcmp(str + sym[i].st_name, name))
			return (const void *)(bias + (intptr_t)sym[i].st_value);
	return 0;
}

static const char *const clock_names[TRACE_MAX_CLOCK_ID + 1] = {
	"CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
	"CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME",
	"CLOCK_REALTIME_ALARM", "CLOCK_BOOTTIME_ALARM", 0, "CLOCK_TAI",
};

const char *trace_clock_name(int clock_id)
{
	return clock_id >= 0 && clock_id <= TRACE_MAX_CLOCK_ID ? clock_names[clock_id] : 0;
}

typedef int (*vdso_cgt_fn)(clockid_t, struct timespec *);

struct vdso_cgt {
	vdso_cgt_fn fn;
};

/* Item ID of the traced child: clock_gettime(ID) through the vDSO, if ID has a name. */
static void read_clock(void *arg, size_t id)
{
	const struct vdso_cgt *cgt = arg;
	struct timespec ts;

	if (trace_clock_name((int)id))
		cgt->fn((clockid_t)id, &ts);
}

void trace_clocks_enter_kernel(int out[TRACE_MAX_CLOCK_ID + 1])
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	const void *fn = base ? trace_vdso_symbol(base, TRACE_VDSO_CLOCK_GETTIME) : 0;
	struct vdso_cgt cgt = { (vdso_cgt_fn)fn };
	uint64_t count[TRACE_MAX_CLOCK_ID + 1];
	int rc;

	for (int id = 0; id <= TRACE_MAX_CLOCK_ID; id++)
		out[id] = !base ? -ENOENT : -ENOSYS;
	if (!fn)
		return;
	rc = trace_time_syscalls(read_clock, &cgt, TRACE_MAX_CLOCK_ID + 1, CLOCK_CALLS, count);
	for (int id = 0; id <= TRACE_MAX_CLOCK_ID; id++)
		if (clock_names[id])
			out[id] = rc ? rc : count[id] > 0;
}
