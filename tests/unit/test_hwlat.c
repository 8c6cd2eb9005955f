// SPDX-License-Identifier: MIT
/*
 * The pre-OS scan's arithmetic (common/hwlat.h): bins, the largest gaps
 * kept, coverage, the merge into system-wide and per-CPU gaps, and when
 * IA32_SMI_COUNT may be read. A 1 GHz TSC makes ticks and ns the same.
 */
#include <stdint.h>
#include <string.h>

#include "../../common/hwlat.h"
#include "../../userland/probes/hwlat_impl.h"
#include "tap.h"

#define GHZ 1000000000ull

static void test_bins(void)
{
	struct tp_hwlat_plan p;

	tp_hwlat_plan_init(&p, GHZ, 1);
	is_int(p.thresh_ticks, 1000, "threshold 1 us = 1000 ticks at 1 GHz");
	is_int(p.smi_ticks, 10000, "SMI counter read from 10 us");
	is_int(tp_hwlat_bin(&p, 1000), 0, "1.000 us: bin 0 [1,2)");
	is_int(tp_hwlat_bin(&p, 1999), 0, "1.999 us: bin 0");
	is_int(tp_hwlat_bin(&p, 2000), 1, "2 us: bin 1");
	is_int(tp_hwlat_bin(&p, 99999), 98, "99.999 us: the last 1 us bin");
	is_int(tp_hwlat_bin(&p, 100000), 99, "100 us: the first doubling bin");
	is_int(tp_hwlat_bin(&p, 399999), 100, "399 us: [200,400)");
	is_int(tp_hwlat_bin(&p, 60ull * GHZ), TP_HWLAT_BINS - 1, "60 s: the open last bin");
	is_int(tp_hwlat_bin_lo_us(0), 1, "bin 0 from 1 us");
	is_int(tp_hwlat_bin_lo_us(99), 100, "bin 99 from 100 us");
	is_int(tp_hwlat_bin_lo_us(TP_HWLAT_BINS - 1), 100ull << 14, "last bin from 1.6384 s");
	tp_hwlat_plan_init(&p, 3000000000ull, 0);
	is_int(p.thresh_ticks, 3000, "threshold 0 clamps to 1 us (3 GHz)");
	tp_hwlat_plan_init(&p, 3000000000ull, 5000);
	is_int(p.thresh_ticks, 3000000, "threshold clamps to 1000 us");
	is_int(tp_hwlat_ns(3000, 3000000000ull), 1000, "3000 ticks at 3 GHz = 1000 ns");
	is_int(tp_hwlat_ns(5, 0), 0, "no rate: 0 ns");
}

static void test_note(void)
{
	struct tp_hwlat_plan p;
	struct tp_hwlat_cpu c;

	memset(&c, 0, sizeof(c));
	tp_hwlat_plan_init(&p, GHZ, 1);
	for (uint64_t i = 1; i <= 40; i++)
		tp_hwlat_note(&c, &p, i * 1000000, i * 1000, TP_HWLAT_SMI_UNKNOWN);
	is_int(c.count, 40, "40 gaps");
	is_int(c.max_ticks, 40000, "max 40 us");
	is_int(c.total_ticks, 820000, "total 1+2+..+40 us");
	is_int(c.ntop, TP_HWLAT_TOP, "the largest kept up to the cap");
	is_int(c.top[0].ticks, 40000, "largest first");
	is_int(c.top[TP_HWLAT_TOP - 1].ticks, (40 - TP_HWLAT_TOP + 1) * 1000, "the cap's smallest");
	is_int(c.hist[0], 1, "one gap in [1,2) us");
	is_int(c.hist[39], 1, "one gap in [40,41) us");
	tp_hwlat_note(&c, &p, 5, 1000, TP_HWLAT_SMI_UNKNOWN);
	is_int(c.top[TP_HWLAT_TOP - 1].ticks, (40 - TP_HWLAT_TOP + 1) * 1000,
	       "a small gap does not displace a kept one");
	c.samples = 100;
	c.first_tsc = 0;
	c.last_tsc = 990;
	is_int(tp_hwlat_coverage_ppm(&c, 1000), 990000, "coverage 99 %");
	c.last_tsc = 2000;
	is_int(tp_hwlat_coverage_ppm(&c, 1000), 1000000, "coverage caps at 100 %");
	c.samples = 1;
	is_int(tp_hwlat_coverage_ppm(&c, 1000), 0, "one read covers nothing");
}

/* CPU i with one read span [0, 1e9) and gaps at the given starts of the given lengths */
static void cpu_with(struct tp_hwlat_cpu *c, const uint64_t *start, const uint64_t *len, int n)
{
	struct tp_hwlat_plan p;

	memset(c, 0, sizeof(*c));
	tp_hwlat_plan_init(&p, GHZ, 1);
	c->samples = 1000;
	c->last_tsc = GHZ;
	for (int i = 0; i < n; i++)
		tp_hwlat_note(c, &p, start[i], len[i], TP_HWLAT_SMI_UNKNOWN);
}

static void test_merge(void)
{
	struct tp_hwlat_cpu c[3];
	struct tp_hwlat_merge m;
	/* a 50 us stall at 1 ms on all three, seen a little apart; own gaps too */
	const uint64_t s0[] = { 1000000, 5000000 }, l0[] = { 50000, 20000 };
	const uint64_t s1[] = { 1000300, 7000000 }, l1[] = { 49000, 3000 };
	const uint64_t s2[] = { 999800 }, l2[] = { 50500 };

	cpu_with(&c[0], s0, l0, 2);
	cpu_with(&c[1], s1, l1, 2);
	cpu_with(&c[2], s2, l2, 1);
	tp_hwlat_merge(c, 3, 1000, &m);
	is_int(m.sampling, 3, "three CPUs sampled");
	is_int(m.system_wide, 1, "one stall on every CPU");
	is_int(m.system_wide_max_ticks, 50000, "its length on the first CPU");
	is_int(m.per_cpu, 2, "two gaps of one CPU each");
	is_int(c[0].top[0].shared, 3, "the stall is shared by 3");
	is_int(c[0].top[1].shared, 1, "CPU 0's own gap by 1");

	/* a CPU that never read does not keep a stall from being system-wide */
	c[2].samples = 0;
	tp_hwlat_merge(c, 3, 1000, &m);
	is_int(m.sampling, 2, "two CPUs sampled");
	is_int(m.system_wide, 1, "the stall is on both that sampled");

	/* one CPU: nothing is system-wide */
	tp_hwlat_merge(c, 1, 1000, &m);
	is_int(m.system_wide, 0, "one CPU: no system-wide gap");
	is_int(m.per_cpu, 2, "one CPU: its gaps are its own");
}

static void test_smi(void)
{
	/* family 6 model 0x55 (Skylake-SP): eax 0x00050654 */
	ok(tp_hwlat_smi_readable("GenuineIntel", 0x00050654, ""), "Skylake-SP, bare metal: read");
	ok(tp_hwlat_smi_readable("GenuineIntel", 0x00050654, "KVMKVMKVM"), "under KVM: read");
	ok(!tp_hwlat_smi_readable("GenuineIntel", 0x00050654, "TCGTCGTCGTCG"), "under TCG: not");
	ok(!tp_hwlat_smi_readable("GenuineIntel", 0x00050654, "Microsoft Hv"), "Hyper-V: not");
	ok(!tp_hwlat_smi_readable("GenuineIntel", 0x000006f6, ""), "Core 2 (model 0x0f): not");
	ok(!tp_hwlat_smi_readable("AuthenticAMD", 0x00a20f12, ""), "AMD: not");
	ok(tp_hwlat_smi_readable("GenuineIntel", 0x000106a5, ""), "Nehalem (model 0x1a): read");
}

/* The kernel's tracer lines (kernel/trace/trace_output.c, trace_hwlat_print) in tracefs. */
static void test_trace_lines(void)
{
	struct hwlat_trace_cpu t;

	memset(&t, 0, sizeof(t));
	ok(hwlat_trace_line("           <...>-105   [001] d....   123.456789: #1     inner/outer(us):   "
			    "12/11    ts:1700000123.456789012 count:3\n", &t), "an event line");
	ok(hwlat_trace_line("  <...>-105 [001] d.... 124.4: #2     inner/outer(us):    4/30    "
			    "ts:1700000124.4 count:1 nmi-total:7 nmi-count:2\n", &t), "one with NMIs");
	ok(!hwlat_trace_line("# tracer: hwlat\n", &t), "a header is not an event");
	ok(!hwlat_trace_line("inner/outer(us): x/y\n", &t), "junk is not an event");
	is_int(t.samples_n, 2, "two events");
	is_int(t.gaps_n, 4, "their counts summed");
	is_int(t.max_ns, 30000, "the largest inner or outer, in ns");
	is_int(t.nmi_n, 2, "NMIs counted");
	memset(&t, 0, sizeof(t));
	hwlat_trace_line("#1 inner/outer(us): 15/0 ts:1.2\n", &t);
	is_int(t.gaps_n, 1, "a kernel without count: one gap an event");
}

int main(void)
{
	test_trace_lines();
	test_bins();
	test_note();
	test_merge();
	test_smi();
	return tap_done();
}
