// SPDX-License-Identifier: MIT
/* The `tsc=reliable` decision table, vote and words; see readiness.h. Freestanding. */
#include "readiness.h"

/* docs/readiness.md gives each row's source at length; change both together. */
const struct rd_rule rd_rules[] = {
	{ "invariant_tsc", "TSC invariant (CPUID 0x80000007 EDX bit 8)", 0, 1, RD_REQUIRED,
	  "without it the TSC may change rate or stop (arch/x86/kernel/tsc.c)", 0 },
	{ "tsc_named_wrong", "the reference vote does not name the TSC", 0, 1, RD_CHECKED,
	  "a TSC that disagrees with every reference is the clock that is off", 0 },
	{ "stub_vs_kernel_ppm", "stub's frequency against the kernel's", "ppm", 200, RD_CHECKED,
	  "WATCHDOG_MAX_SKEW 100 us per 0.5 s (kernel/time/clocksource.c)", 0 },
	{ "stub_vs_cpuid15_ppm", "stub's frequency against CPUID 0x15", "ppm", 200, RD_CHECKED,
	  "WATCHDOG_MAX_SKEW 100 us per 0.5 s (kernel/time/clocksource.c)", 0 },
	{ "offset_ns", "cross-CPU offset after boot, |offset| + bound", "ns", 1000, RD_REQUIRED,
	  "any time going back between CPUs is a fault (arch/x86/kernel/tsc_sync.c)", 0 },
	{ "preos_offset_ns", "cross-CPU offset before the OS, largest |offset|", "ns", 1000,
	  RD_CHECKED, "any time going back between CPUs is a fault (x86 tsc_sync.c)", 0 },
	{ "warps", "CPU pairs where the TSC went back (the kernel's own test)", "count", 0,
	  RD_CHECKED, "check_tsc_warp() marks the TSC unstable on one (x86 tsc_sync.c)", 0 },
	{ "counter_errata", "reads that went back or bore a counter erratum's signature", "count",
	  0, RD_CHECKED, "Linux works around each (arm_arch_timer errata; tsc_sync.c on x86)", 0 },
	{ "tsc_adjust_changed", "CPUs whose IA32_TSC_ADJUST moved after the stub", "count", 0,
	  RD_CHECKED, "firmware writing it hides time (tsc_store_and_check_tsc_adjust)", 0 },
	{ "drift_ppm", "TSC rate against an independent reference", "ppm", 200, RD_REQUIRED,
	  "WATCHDOG_MAX_SKEW 100 us per 0.5 s (kernel/time/clocksource.c)", 1 },
	{ "hidden_gaps", "pre-OS gaps the TSC did not count", "count", 0, RD_CHECKED,
	  "SMM that stops or rewinds the TSC hides time from it", 0 },
	{ "sockets", "sockets (physical packages)", "count", 2, RD_ADVICE,
	  "up to 2 the kernel drops its watchdog itself (check_system_tsc_reliable)", 0 },
};

const size_t rd_rule_count = sizeof(rd_rules) / sizeof(rd_rules[0]);

const struct rd_rule *rd_rule_find(const char *id)
{
	for (size_t i = 0; i < rd_rule_count; i++)
		if (tp_streqn(id, tp_strlen(id), rd_rules[i].id))
			return &rd_rules[i];
	return 0;
}

static double absd(double x)
{
	return x < 0 ? -x : x;
}

int rd_rule_passes(const struct rd_rule *r, double v)
{
	if (!r->unit)
		return v == 1;
	return absd(v) <= r->bound;
}

const char *rd_answer_name(enum rd_answer a)
{
	return a == RD_SAFE ? "safe" : a == RD_NOT_SAFE ? "not safe" : "unknown";
}

/* 1 when some reason of rule r was measured. */
static int measured(const struct rd_reason_state *s, size_t n, const struct rd_rule *r)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].rule == r && s[i].pass != RD_NOT_MEASURED)
			return 1;
	return 0;
}

enum rd_answer rd_decide(const struct rd_reason_state *s, size_t n, int have_tsc)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].pass == RD_FAILED && s[i].rule->kind != RD_ADVICE)
			return RD_NOT_SAFE;
	for (size_t i = 0; i < rd_rule_count; i++)
		if (rd_rules[i].kind == RD_REQUIRED && (have_tsc || !rd_rules[i].x86_only) &&
		    !measured(s, n, &rd_rules[i]))
			return RD_UNKNOWN;
	return RD_SAFE;
}

static int agree(const struct rd_vote_in *a, const struct rd_vote_in *b)
{
	return absd(a->ppm - b->ppm) <= a->unc_ppm + b->unc_ppm + RD_VOTE_FLOOR_PPM;
}

/* 1 when entry i disagrees with every other and the others all agree. */
static int odd_one(const struct rd_vote_in *in, size_t n, size_t i)
{
	for (size_t a = 0; a < n; a++) {
		if (a == i)
			continue;
		if (agree(&in[i], &in[a]))
			return 0;
		for (size_t b = a + 1; b < n; b++)
			if (b != i && !agree(&in[a], &in[b]))
				return 0;
	}
	return 1;
}

static int all_agree(const struct rd_vote_in *in, size_t n)
{
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			if (!agree(&in[a], &in[b]))
				return 0;
	return 1;
}

void rd_vote(const struct rd_vote_in *in, size_t n, struct rd_vote_out *out)
{
	double sum = 0;

	out->named = -1;
	out->ppm = 0;
	if (n < 3) {
		out->res = RD_VOTE_TOO_FEW;
		return;
	}
	if (all_agree(in, n)) {
		out->res = RD_VOTE_AGREE;
		return;
	}
	out->res = RD_VOTE_SPLIT;
	for (size_t i = 0; i < n; i++)
		if (odd_one(in, n, i)) {
			out->res = RD_VOTE_NAMED;
			out->named = (int)i;
		}
	if (out->named < 0)
		return;
	for (size_t i = 0; i < n; i++)
		if ((int)i != out->named)
			sum += in[i].ppm;
	out->ppm = in[out->named].ppm - sum / (double)(n - 1);
}

const char *rd_vote_res_name(enum rd_vote_res r)
{
	static const char *const names[] = { "too few", "agree", "named", "split" };

	return names[r];
}

void rd_kernel_args(struct tp_buf *b, enum rd_answer a, int advice_failed, const char *clock)
{
	if (a == RD_SAFE) {
		tp_buf_puts(b, advice_failed ? "tsc=nowatchdog" : "tsc=reliable");
	} else if (a == RD_NOT_SAFE && clock) {
		tp_buf_puts(b, "clocksource=");
		tp_buf_puts(b, clock);
	}
}
