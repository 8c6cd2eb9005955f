// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/family.c, against values computed by hand:
 * Simes' combination, Benjamini-Hochberg's step-up rule, and the
 * hierarchical procedure (one hypothesis per result) with a case it must
 * select that a flat Benjamini-Hochberg over every statistic would not,
 * and one it must not select that the flat rule would.
 */
#include <stddef.h>

#include "../../tools/report/family.h"
#include "../unit/tap.h"

#define Q 0.05

static void test_simes(void)
{
	double p[] = { 0.04, 0.01, 0.03 }, one[] = { 0.2 };

	/* sorted .01 .03 .04: 3 x .01 / 1 = .03, 3 x .03 / 2 = .045, 3 x .04 / 3 = .04 */
	is_near(family_simes(p, 3), 0.03, 1e-12, "simes: min(.03, .045, .04) = 0.03");
	is_near(family_simes(one, 1), 0.2, 0, "simes: one test is its own p");
	is_near(family_simes(p, 0), 1, 0, "simes: no test: 1");
}

static void test_bh(void)
{
	double p[] = { 0.5, 0.02, 0.01, 0.03 }, none[] = { 0.03, 0.6 };
	size_t k = 99;

	/* k q / 4: .0125 .025 .0375 .05 against .01 .02 .03 .5 */
	is_near(family_bh(p, 4, Q, &k), 0.03, 0, "bh: the largest p_(k) <= k q / m is 0.03");
	is_int(k, 3, "bh: three pass");
	is_near(family_bh(none, 2, Q, &k), -1, 0, "bh: .03 > .05 / 2 and .6 > .05: none passes, -1");
	is_int(k, 0, "bh: none passes: 0");
}

/*
 * Must select: a result of one statistic at p 0.01 among two of four at
 * 0.5. Its Simes p 0.01 <= 0.05 / 3 selects it (R 1), and within it 0.01 <=
 * 0.05 x 1 / 3. A flat rule over the 9 statistics asks 0.05 / 9 = 0.0056.
 */
static void test_selects(void)
{
	double p[] = { 0.01, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
	size_t g[] = { 7, 8, 8, 8, 8, 9, 9, 9, 9 }, size[9];
	int pass[9];
	struct family_outcome o;

	family_select(p, g, 9, Q, pass, size, &o);
	is_int(o.families, 3, "select: three results");
	is_int(o.selected, 1, "select: one selected");
	ok(pass[0], "select: the one-statistic result's 0.01 passes (flat BH over 9 would not)");
	ok(family_bh(p, 9, Q, NULL) < 0, "select: ... the flat rule indeed passes none");
	is_int(size[0], 1, "select: its result has 1 statistic");
	is_int(size[1], 4, "select: the others 4");
	ok(!pass[1] && !pass[8], "select: the unmoved results pass nothing");
}

/*
 * Must not select: one of four statistics at p 0.005, the other results
 * single at 0.5. Its result's Simes p is 4 x 0.005 = 0.02 > 0.05 / 6 =
 * 0.0083: not selected. A flat rule over the 9 asks 0.0056 and passes it.
 */
static void test_not_selects(void)
{
	double p[] = { 0.005, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
	size_t g[] = { 1, 1, 1, 1, 2, 3, 4, 5, 6 };
	int pass[9];
	struct family_outcome o;

	family_select(p, g, 9, Q, pass, NULL, &o);
	is_int(o.families, 6, "not: six results");
	is_int(o.selected, 0, "not: none selected");
	ok(!pass[0], "not: a statistic moving alone in a result of four does not pass at 0.005");
	ok(family_bh(p, 9, Q, NULL) == 0.005, "not: ... where the flat rule over 9 passes it");
}

/*
 * A whole result moving: four statistics at 0.004, Simes 4 x .004 / 4 =
 * .004 <= .05 / 6; within it, all four at .05 / 6 = .0083.
 */
static void test_whole_result(void)
{
	double p[] = { 0.004, 0.004, 0.004, 0.004, 0.5, 0.5, 0.5, 0.5, 0.5 };
	size_t g[] = { 1, 1, 1, 1, 2, 3, 4, 5, 6 };
	int pass[9];
	struct family_outcome o;

	family_select(p, g, 9, Q, pass, NULL, &o);
	ok(pass[0] && pass[1] && pass[2] && pass[3] && !pass[4], "whole: every statistic of it passes");
	is_int(o.selected, 1, "whole: one result selected");
}

/*
 * Two results selected widen the level within each to q R / m: A (0.001,
 * 0.02), B (0.004), C, D (0.9). Simes: A 0.002, B 0.004; BH over 4 selects
 * both (0.004 <= 2 / 4 x .05), R 2; within A at .05 x 2 / 4 = .025, 0.02
 * passes (at q / m = .0125 it would not).
 */
static void test_level_within(void)
{
	double p[] = { 0.001, 0.02, 0.004, 0.9, 0.9 };
	size_t g[] = { 1, 1, 2, 3, 4 };
	int pass[5];
	struct family_outcome o;

	family_select(p, g, 5, Q, pass, NULL, &o);
	is_int(o.selected, 2, "within: two results selected");
	ok(pass[0] && pass[1] && pass[2] && !pass[3], "within: 0.02 passes at q R / m = 0.025");
}

int main(void)
{
	test_simes();
	test_bh();
	test_selects();
	test_not_selects();
	test_whole_result();
	test_level_within();
	return tap_done();
}
