// SPDX-License-Identifier: MIT
/*
 * Probe `counter`: the CPU's own counter read back to back on every CPU
 * (CNTVCT_EL0 on arm64, the TSC on x86; timeutil.h), scanned for the
 * signatures of the counter errata Linux works around (counter.h,
 * counter_scan.c): per CPU, the pairs read, each signature's count named
 * after its erratum, the largest steps, and the frequency the CPU claims
 * (CNTFRQ_EL0, which firmware programs per CPU and has got wrong on
 * secondary CPUs). Then once: whether the kernel enabled a counter
 * workaround (its log: "Enabling ... workaround"; arm_arch_timer.c then
 * turns the vDSO's clock_gettime into a system call) and ECV (HWCAP2_ECV).
 * 10^8 pairs per CPU in profile full, 2 x 10^6 in quick (counter-pairs=).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../affinity.h"
#include "../emit.h"
#include "../kmsg.h"
#include "../probe.h"
#include "../timeutil.h"
#include "counter.h"

#define P "counter"
#define CHUNK 4096			/* reads stored, then scanned */
#define FULL_PAIRS 100000000LL
#define QUICK_PAIRS 2000000LL

static int pairs_opt;	/* --counter-pairs=; 0: by profile */

/* n reads as fast as the CPU goes, into v. */
static void read_chunk(uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = tp_counter();
}

static void scan_cpu(struct counter_scan *s, int64_t pairs, int64_t deadline_ns)
{
	uint64_t v[CHUNK];

	counter_scan_init(s);
	while ((int64_t)s->pairs < pairs && mono_ns() < deadline_ns) {
		read_chunk(v, CHUNK);
		counter_scan_run(s, v, CHUNK);
	}
}

static void emit_cpu(int cpu, const struct counter_scan *s, int64_t ns)
{
	struct tp_rec r;
	char name[32];

	snprintf(name, sizeof(name), "cpu %d", cpu);
	emit_result_begin(&r, P, name);
	tp_rec_int(&r, "cpu", cpu);
	tp_rec_str(&r, "counter", TP_COUNTER_NAME);
	tp_rec_uint(&r, "pairs", s->pairs);
	tp_rec_uint(&r, "signatures", counter_scan_signatures(s));
	/* the errata are the Arm generic timer's: on the TSC, only the count */
	if (!TP_HAVE_TSC) {
		tp_rec_uint(&r, "sig_858921", s->sig[COUNTER_SIG_858921]);
		tp_rec_uint(&r, "sig_sun50i_unknown1", s->sig[COUNTER_SIG_SUN50I]);
		tp_rec_uint(&r, "sig_fsl_a008585_hisi_161010101", s->sig[COUNTER_SIG_FSL_HISI]);
	}
	tp_rec_uint(&r, "backwards", s->backwards);
	tp_rec_uint(&r, "max_back_ticks", s->max_back);
	tp_rec_uint(&r, "max_step_ticks", s->max_step);
	tp_rec_uint(&r, "min_step_ticks", s->min_step == UINT64_MAX ? 0 : s->min_step);
	tp_rec_uint(&r, "steps_32", s->steps_32);
	tp_rec_uint(&r, "equal_reads", s->equal);
	if (tp_counter_claimed_hz())
		tp_rec_uint(&r, "cntfrq_hz", tp_counter_claimed_hz());
	tp_rec_int(&r, "duration_ms", ns / NS_PER_MS);
	emit_end(&r);
	emit_human("  cpu %-3d %12llu pairs  %llu signature(s)  max step %llu ticks%s\n", cpu,
		   (unsigned long long)s->pairs, (unsigned long long)counter_scan_signatures(s),
		   (unsigned long long)s->max_step, s->backwards ? "  WENT BACKWARDS" : "");
}

/* The kernel log's counter workaround line (arm_arch_timer.c), or NULL. */
static const char *kernel_workaround(char *out, size_t size)
{
	char *text = NULL, *hit, *end;
	const char *how;
	size_t len = 0;

	if (kmsg_read_all(&text, &len, &how) || !text)
		return NULL;
	hit = strstr(text, "arch_timer: Enabling ");
	if (hit && (end = strchr(hit, '\n')) != NULL)
		*end = 0;
	if (hit)
		snprintf(out, size, "%s", hit);
	free(text);
	return hit ? out : NULL;
}

static void emit_kernel(void)
{
	char line[160];
	const char *wa = kernel_workaround(line, sizeof(line));
	struct tp_rec r;

	emit_result_begin(&r, P, "kernel");
	tp_rec_bool(&r, "workaround", wa != NULL);
	if (wa)
		tp_rec_str(&r, "workaround_line", wa);
	if (tp_counter_ecv() >= 0)
		tp_rec_bool(&r, "ecv", tp_counter_ecv());
	emit_end(&r);
	emit_human("  kernel counter workaround: %s\n", wa ? wa : "none");
}

static enum probe_status counter_probe_run(struct probe_ctx *ctx)
{
	int64_t pairs = pairs_opt > 0 ? pairs_opt : ctx->quick ? QUICK_PAIRS : FULL_PAIRS;
	int ncpu = ctx->ncpu > 0 ? ctx->ncpu : 1;
	/* each CPU its share of the time left, less a margin for the records */
	int64_t share = (ctx->deadline_ns - mono_ns()) * 8 / 10 / ncpu;

	const char *why = tsccal_no_counter();

	if (why) {
		emit_skip(P, 0, why);
		return PROBE_SKIPPED;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct counter_scan s;
		cpu_set_t old;
		int64_t t0;

		if (affinity_pin_self(cpu, &old) < 0) {
			char why[64];

			snprintf(why, sizeof(why), "cannot pin to CPU %d: %s", cpu, strerror(errno));
			emit_skip(P, "cpu", why);
			continue;
		}
		t0 = mono_ns();
		scan_cpu(&s, pairs, t0 + share);
		emit_cpu(cpu, &s, mono_ns() - t0);
		affinity_unpin(&old);
	}
	emit_kernel();
	return PROBE_OK;
}

static const struct probe_opt counter_opts[] = {
	{ .w = {
		.name = "counter-pairs", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.hi = 1000000000, .dflt = "2000000 quick, 100000000 full",
		.help = "`counter`: back-to-back read pairs scanned per CPU",
	  }, .store = &pairs_opt },
};

static const struct probe_key counter_keys[] = {
	PKEY_ID("cpu", 0, "the CPU scanned (one result per CPU)"),
	PKEY_ID("counter", 0, "the counter read: cntvct (arm64) or tsc (x86)"),
	PKEY_BUDGET("pairs", "count", "back-to-back read pairs scanned"),
	PKEY_BUDGET("duration_ms", "ms", "time scanning"),
	PKEY_FIG("signatures", "count", PK_LOWER, "steps with any erratum's signature"),
	PKEY_FIG("sig_*", "count", PK_LOWER, "steps with that erratum's signature (counter.h; arm64 only)"),
	PKEY_FIG("backwards", "count", PK_LOWER, "reads that went back"),
	PKEY_FIG("max_back_ticks", "ticks", PK_LOWER, "largest backward step"),
	PKEY_FIG("max_step_ticks", "ticks", PK_LOWER, "largest forward step (interrupts included)"),
	PKEY_FIG("min_step_ticks", "ticks", PK_LOWER, "smallest forward step: the read's resolution"),
	PKEY_FIG("steps_32", "count", PK_NEITHER, "forward steps of 32 ticks or more"),
	PKEY_FIG("equal_reads", "count", PK_NEITHER, "pairs that read the same value"),
	PKEY_FIG("cntfrq_hz", "Hz", PK_NEITHER, "CNTFRQ_EL0 on this CPU: the frequency firmware claims"),
	PKEY_CTX("workaround", 0, "the kernel enabled a counter workaround (vDSO then off)"),
	PKEY_CTX("workaround_line", 0, "the kernel's line saying which"),
	PKEY_CTX("ecv", 0, "HWCAP2_ECV: self-synchronising counter reads"),
};

/*
 * The run's estimate (probe.h): its pairs on every CPU, about 50 ns a pair
 * on a host (measured: 0.2 s for 2 CPUs x 2e6 pairs), 100 ns under QEMU TCG
 * (0.4 s, tests/data/serial-arm64-virt-quick.log).
 */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	int64_t pairs = pairs_opt ? pairs_opt : ctx->quick ? QUICK_PAIRS : FULL_PAIRS;
	int64_t ns_per_pair = ctx->time_scale > 1 ? 100 : 50;

	return pairs * ctx->ncpu * ns_per_pair / 1000000 + probe_expect(ctx, 20, 200);
}

/* What the scan tells the tsc_readiness record (docs/readiness.md): bad reads over every CPU. */
static const struct probe_fact counter_facts[] = {
	{ .fact = RF_COUNTER_BAD, .key = "signatures", .pick = PP_SUM },
	{ .fact = RF_COUNTER_BAD, .key = "backwards", .pick = PP_SUM },
};

static const struct probe_reason counter_reasons[] = {
	{ .rule = { "counter_errata", "reads that went back or bore a counter erratum's signature",
		    "count", 0, RD_CHECKED,
		    "Linux works around each (arm_arch_timer errata; tsc_sync.c on x86)", 0 },
	  .place = 7, .fact = RF_COUNTER_BAD, .from = "counter: each CPU's scan",
	  .absent = "no counter scan (probe counter)" },
};

const struct probe counter_probe = {
	.name = "counter", .summary = "the CPU counter read back to back on every CPU: errata signatures",
	.run = counter_probe_run, .limit_quick_s = 30, .limit_full_s = 600, .expect_ms = expect_ms,
	PROBE_OPTS(counter_opts), PROBE_FIGURES("signatures"),
	PROBE_KEYS(counter_keys),
	PROBE_FACTS(counter_facts),
	PROBE_REASONS(counter_reasons),
	.rounds = { .whole = "a scan for errata signatures: one bad read anywhere in its "
			    "window is the finding, not a sample to pool" },
};
