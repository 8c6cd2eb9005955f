// SPDX-License-Identifier: MIT
/* The `tsc=reliable` rules' arithmetic, the decision, the vote and the words; see readiness.h.
 * Freestanding. */
#include "readiness.h"

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

enum rd_answer rd_decide(const struct rd_reason_state *s, size_t n,
			 const struct rd_rule *const *rules, size_t nrules, int have_tsc)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].pass == RD_FAILED && s[i].rule->kind != RD_ADVICE)
			return RD_NOT_SAFE;
	for (size_t i = 0; i < nrules; i++)
		if (rules[i]->kind == RD_REQUIRED && (have_tsc || !rules[i]->x86_only) &&
		    !measured(s, n, rules[i]))
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
