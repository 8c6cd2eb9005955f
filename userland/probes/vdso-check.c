// SPDX-License-Identifier: MIT
/*
 * Probe `vdso-check`: for each clock id, and for gettimeofday() and time(),
 * does the vDSO answer in user space on this kernel and clocksource, or fall
 * back to the system call? Seconds, exact, no timing involved.
 *
 * The vDSO's own entry points (__vdso_clock_gettime, ... on x86;
 * __kernel_clock_gettime, ... on arm64: trace_entry.h) are found in the
 * ELF image the kernel maps into every process (getauxval(AT_SYSINFO_EHDR);
 * System V gABI, "Dynamic Section" and "Symbol Table") and called directly,
 * so libc's choices (musl refuses the vDSO for some clocks) are not in the
 * way. Every entry is called in one child traced with PTRACE_SYSCALL, and the
 * time system calls each makes are counted (userland/trace_entry.c, the check
 * `clocks` and the fingerprint use too, and the ELF lookup): 0 per call is
 * the vDSO path, 1 the fallback. Linux 6.1 lib/vdso/gettimeofday.c serves the high-resolution
 * clocks only when the clocksource can be read in user space (tsc, not hpet
 * or acpi_pm), the coarse clocks always, the CPU-time clocks never.
 * See docs/probes/vdso-check.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/time.h>
#include <time.h>

#include "../emit.h"
#include "../probe.h"
#include "../sysinfo.h"
#include "../trace_entry.h"

#define PROBE "vdso-check"
#define CALLS 4			/* calls per entry under the tracer */
#define MAX_CLOCK_ID TRACE_MAX_CLOCK_ID	/* 10 (CLOCK_SGI_CYCLE) is gone */
#define MAX_ENTRIES (MAX_CLOCK_ID + 3)	/* the clock ids, gettimeofday(), time() */

struct entry {
	const char *name;	/* record name */
	const char *symbol;
	int clock_id;		/* clock_gettime only; -1 otherwise */
};

typedef int (*cgt_fn)(clockid_t, struct timespec *);
typedef int (*gtod_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);

/* One call of the entry: 0, or the -errno the fallback system call gave. */
static long call(const struct entry *e, const void *fn)
{
	struct timespec ts;
	struct timeval tv;

	if (e->clock_id >= 0)
		return ((cgt_fn)fn)(e->clock_id, &ts);
	if (!strcmp(e->symbol, TRACE_VDSO_GETTIMEOFDAY))
		return ((gtod_fn)fn)(&tv, 0);
	return ((time_fn)fn)(0) < 0 ? -EINVAL : 0;
}

/* The entries read in the traced child; fn[i] NULL: not exported, not read. */
struct traced_list {
	const struct entry *list;
	const void *const *fn;
};

static void read_entry(void *arg, size_t i)
{
	const struct traced_list *t = arg;

	if (t->fn[i])
		call(&t->list[i], t->fn[i]);
}

/*
 * Time system calls per call of each of the n entries, all in one traced
 * child (trace_entry.h): k[i] is 0 or 1. 0, or -errno when tracing is
 * refused here.
 */
static int kernel_entries(const struct entry *list, const void *const *fn, size_t n, double *k)
{
	struct traced_list t = { list, fn };
	uint64_t count[MAX_ENTRIES];
	int rc = trace_time_syscalls(read_entry, &t, n, CALLS, count);

	for (size_t i = 0; i < n; i++)
		k[i] = rc ? rc : (double)count[i] / CALLS;
	return rc;
}

/* One entry, k its kernel entries per call: its record and its line. */
static void say_entry(const struct entry *e, const void *fn, double k, const char *cs)
{
	long rc = call(e, fn);
	const char *path = k == 0 ? "vdso" : "syscall";
	struct tp_rec r;

	emit_result_begin(&r, PROBE, e->name);
	tp_rec_str(&r, "symbol", e->symbol);
	if (e->clock_id >= 0)
		tp_rec_int(&r, "clock_id", e->clock_id);
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "path", path);
	emit_rec_double(&r, "kernel_entries", k);
	tp_rec_str(&r, "status", rc ? strerror((int)-rc) : "ok");
	emit_end(&r);
	emit_human("  %-44s %-8s %s\n", e->name, path, rc ? strerror((int)-rc) : "");
}

/* Every entry point the probe asks about, named in names; returns how many. */
static size_t entry_list(struct entry *list, char (*names)[48])
{
	size_t n = 0;

	for (int id = 0; id <= MAX_CLOCK_ID; id++) {
		if (!trace_clock_name(id))
			continue;
		snprintf(names[id], sizeof(names[id]), "clock_gettime(%s)", trace_clock_name(id));
		list[n++] = (struct entry){ names[id], TRACE_VDSO_CLOCK_GETTIME, id };
	}
	list[n++] = (struct entry){ "gettimeofday()", TRACE_VDSO_GETTIMEOFDAY, -1 };
	list[n++] = (struct entry){ "time()", TRACE_VDSO_TIME, -1 };
	return n;
}

static enum probe_status run(struct probe_ctx *ctx)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct entry list[MAX_ENTRIES];
	const void *fn[MAX_ENTRIES];
	double k[MAX_ENTRIES];
	char names[MAX_CLOCK_ID + 1][48], cs[64];
	size_t n, found = 0;
	int rc = 0;

	(void)ctx;
	if (!base) {
		emit_skip(PROBE, 0, "no vDSO mapped (AT_SYSINFO_EHDR is 0)");
		return PROBE_SKIPPED;
	}
	if (sysinfo_current_clocksource(cs, sizeof(cs)) <= 0)
		snprintf(cs, sizeof(cs), "unknown");
	n = entry_list(list, names);
	for (size_t i = 0; i < n; i++)
		found += (fn[i] = list[i].symbol ? trace_vdso_symbol(base, list[i].symbol) : 0) != 0;
	if (found)
		rc = kernel_entries(list, fn, n, k);
	emit_human("  %-44s %-8s %s   (clocksource %s)\n", "vDSO entry", "path", "status", cs);
	for (size_t i = 0; i < n; i++) {
		if (!list[i].symbol)
			emit_skip(PROBE, list[i].name, "this architecture's vDSO has no such entry "
				  "(libc's time() reads clock_gettime)");
		else if (!fn[i])
			emit_skip(PROBE, list[i].name, "the vDSO does not export this entry");
		else if (rc)
			break;	/* as before the first traced entry */
		else
			say_entry(&list[i], fn[i], k[i], cs);
	}
	if (rc) {
		char why[96];

		snprintf(why, sizeof(why), "cannot trace a child here: %s", strerror(-rc));
		emit_skip(PROBE, 0, why);
		return PROBE_SKIPPED;
	}
	return PROBE_OK;
}

/* The run's estimate (probe.h): a few traced calls per clock, measured. */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	return ctx->quick ? probe_expect(ctx, 50, 200) : probe_expect(ctx, 50, 500);
}

/* ---- the registry's row (probes/registry.c) ---- */

/* Every key of a vdso-check record (struct probe_key). */
static const struct probe_key vdso_check_keys[] = {
	PKEY_ID("symbol", 0, "the vDSO symbol called"),
	PKEY_ID("clock_id", 0, "the clockid_t read"),
	PKEY_CTX("clocksource", 0, "the kernel's clocksource during the check"),
	PKEY_CTX("path", 0, "what the check found: vdso or syscall"),
	PKEY_CTX("status", 0, "ok, or why the clock could not be checked"),
	PKEY_FIG("kernel_entries", "count", PK_LOWER, "time system calls seen under ptrace"),
};

const struct probe vdso_check_probe = {
	.name = "vdso-check",
	.summary = "does each clock id take the vDSO path on this kernel and clocksource",
	.run = run, .limit_quick_s = 10, .limit_full_s = 30, .expect_ms = expect_ms,
	PROBE_FIGURES("kernel_entries", "path"),
	PROBE_KEYS(vdso_check_keys),
	.rounds = { .whole = "one answer per clock (vDSO or a syscall), not a sample" },
};
