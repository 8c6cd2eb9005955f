// SPDX-License-Identifier: MIT
/*
 * A probe's own options kept in its own file (struct probe_opt .store), as
 * docs/adding-a-probe.md shows: this test is its own registry (probe_table
 * here, so registry.o is not linked) with one such probe, and reads its
 * options through options.c the way the suite does.
 */
#include <string.h>

#include "tap.h"
#include "../../userland/options.h"
#include "../../userland/probe.h"

static int count;
static struct int_list sizes;
static int mode;

static enum probe_status run(struct probe_ctx *ctx)
{
	(void)ctx;
	return PROBE_OK;
}

static const struct probe_opt demo_opts[] = {
	{ .w = { .name = "demo-count", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		 .lo = 1, .hi = 100, .def = 10, .dflt = "10", .help = "`demo`: how many" },
	  .store = &count },
	{ .w = { .name = "demo-sizes", .type = TP_WT_INTS, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		 .lo = 1, .hi = 4096, .dflt = "64", .help = "`demo`: sizes" },
	  .store = &sizes },
	{ .w = { .name = "demo-mode", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		 .lo = 0, .hi = 9, .def = -1, .dflt = "3", .dflt_host = "5", .help = "`demo`: mode" },
	  .store = &mode, .by_env = 1, .env_def = { 3, 5 } },
};

static const struct probe demo_probe = {
	.name = "demo", .summary = "a probe with its options in its own file", .run = run,
	.limit_quick_s = 1, .limit_full_s = 1, PROBE_OPTS(demo_opts), PROBE_FIGURES("x"),
};

const struct probe *const probe_table[] = { &demo_probe };
const size_t probe_count = 1;

int main(void)
{
	struct options o;
	struct opt_errors errs = { 0 };
	const struct tp_word *w;
	int found = 0;

	count = 99;
	options_defaults(&o);
	is_int(count, 10, "defaults: the probe's static gets its row's default");
	is_int(sizes.n, 0, "defaults: a list starts empty");
	ok(!options_set(&o, "demo-count", "42", &errs) && count == 42, "set: the value lands in the probe's static");
	ok(!options_set(&o, "demo-sizes", "1,2,4096", &errs) && sizes.n == 3 && sizes.v[2] == 4096,
	   "set: a list too");
	ok(options_set(&o, "demo-count", "101", &errs) == -1 && count == 42, "a value out of bounds: refused, kept");
	options_from_cmdline(&o, "quiet timeprobe.demo-count=7", &errs);
	is_int(count, 7, "the kernel command line reaches it");
	options_resolve(&o, OPT_ENV_HOST);
	is_int(mode, 5, "resolve: the host's default");
	mode = -1;
	options_resolve(&o, OPT_ENV_APPLIANCE);
	is_int(mode, 3, "resolve: the appliance's default");
	for (size_t i = 0; (w = options_row(i)); i++)
		found += !strcmp(w->name, "demo-count") || !strcmp(w->name, "demo-mode");
	is_int(found, 2, "help and README see its rows (options_row)");
	return tap_done();
}
