// SPDX-License-Identifier: MIT
/*
 * The stub's per-CPU records across the joint (common/stubcpu.h): 1 024
 * CPUs' `stub_tscsync` pairs and `stub_hwlat` scans written with the keys
 * the stub writes them with, put in the stub's file and archive
 * (common/stubfile.c), and read back by PID 1's reader (userland/stubread.c,
 * userland/stubcpus.c): every CPU arrives with its figures, and records that
 * lie (an interval wider than its round trip, lo above hi, a CPU twice, an
 * ID beyond 32 bits, a pair against another BSP, coverage above 100 %) are
 * refused by name. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../userland/stubcpus.h"
#include "stubjoint.h"
#include "tap.h"

#define CPUS 1024
#define BSP_APIC 7

static struct tp_rec r;

static void put(char *text, size_t *n, size_t cap)
{
	const char *line = tp_rec_finish(&r);

	if (line && *n + r.len <= cap) {
		memcpy(text + *n, line, r.len);
		*n += r.len;
	}
}

/* AP k's pair and CPU k's scan, figures that differ by CPU. */
static struct tp_sc_pair pair_of(uint32_t k)
{
	return (struct tp_sc_pair){ .apic = BSP_APIC + 1 + 3 * k, .lo_ticks = -(int64_t)k - 40,
				       .hi_ticks = (int64_t)k % 17, .rtt_ticks = 900 + k,
				       .samples = 200 + k, .consistent = (int)(k & 1),
				       .adjust = { .present = (int)(k % 3 != 0), .value = -(int64_t)k } };
}

static struct tp_sc_cpu scan_of(uint32_t k)
{
	uint32_t apic = k ? BSP_APIC + 1 + 3 * (k - 1) : BSP_APIC;

	return (struct tp_sc_cpu){ .apic = apic, .reported = k % 100 != 99,
					   .coverage_ppm = k % 100 != 99 ? 990000 + k : 0,
					   .count = k % 100 != 99 ? k : 0,
					   .max_ns = k % 100 != 99 ? 1000 * k : 0,
					   .total_ns = k % 100 != 99 ? 3000 * k : 0,
					   .smi_read = (int)(k % 100 != 99 && k % 2),
					   .smi = k % 100 != 99 && k % 2 ? k / 2 : 0 };
}

/* The stub's records for CPUS CPUs, as boot/mp.c and boot/hwlatrec.c write them. */
static size_t stub_records(char *text, size_t cap)
{
	size_t n = 0;
	struct tp_sc_adjust none = { 0 };
	struct tp_stub_values v = { .tsc_hz = 2445407644 };

	tp_rec_begin(&r, TP_STUB_HANDOFF);
	tp_stub_handoff(&r, &v);
	put(text, &n, cap);

	tp_rec_begin(&r, TP_SC_TSCSYNC);
	tp_rec_str(&r, TP_SC_WHAT, TP_SC_BSP);
	tp_rec_uint(&r, TP_SC_APIC, BSP_APIC);
	tp_sc_adjust_keys(&r, &none);
	put(text, &n, cap);
	for (uint32_t k = 0; k < CPUS - 1; k++) {
		struct tp_sc_pair e = pair_of(k);

		tp_rec_begin(&r, TP_SC_TSCSYNC);
		tp_rec_str(&r, TP_SC_WHAT, TP_SC_PAIR);
		tp_rec_uint(&r, TP_SC_APIC "_a", BSP_APIC);
		tp_rec_uint(&r, TP_SC_APIC "_b", e.apic);
		tp_sc_pair_keys(&r, &e);
		tp_sc_adjust_keys(&r, &e.adjust);
		put(text, &n, cap);
	}
	for (uint32_t k = 0; k < CPUS; k++) {
		struct tp_sc_cpu c = scan_of(k);

		tp_rec_begin(&r, TP_SC_HWLAT);
		tp_rec_str(&r, TP_SC_WHAT, TP_SC_CPU);
		tp_sc_scan_keys(&r, TP_SC_APIC, &c);
		put(text, &n, cap);
	}
	tp_rec_begin(&r, TP_SC_HWLAT);
	tp_rec_str(&r, TP_SC_WHAT, TP_SC_SUMMARY);
	tp_rec_bool(&r, TP_SC_SCANNED, 1);
	tp_rec_uint(&r, TP_SC_WINDOW, 1000);
	tp_rec_uint(&r, TP_SC_THRESH, 1);
	tp_rec_uint(&r, TP_SC_SYSTEM_WIDE, 2);
	tp_rec_uint(&r, TP_SC_SYSTEM_WIDE_MAX, 5000);
	put(text, &n, cap);
	return n;
}

static int same_pair(const struct tp_sc_pair *a, const struct tp_sc_pair *b)
{
	return a->apic == b->apic && a->lo_ticks == b->lo_ticks && a->hi_ticks == b->hi_ticks &&
	       a->rtt_ticks == b->rtt_ticks && a->samples == b->samples &&
	       a->consistent == b->consistent && a->adjust.present == b->adjust.present &&
	       (!a->adjust.present || a->adjust.value == b->adjust.value);
}

static int same_cpu(const struct tp_sc_cpu *a, const struct tp_sc_cpu *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* The text through the stub's archive and PID 1's reader into s; errors in errs. */
static void across(const char *text, size_t n, struct stubcpus *s, struct opt_errors *errs)
{
	static uint8_t a[4u << 20];
	static struct stub_handoff st;
	struct stubfile_report rep;
	struct tp_cpio c;
	size_t len = 0;
	const char *t;

	tp_cpio_init(&c, a, sizeof(a));
	tp_cpio_stub(&c, text, n);
	t = c.overflow ? NULL : tp_cpio_find(a, c.len, TP_STUB_FILE, &len);
	st = (struct stub_handoff){ .cpus = s };
	*errs = (struct opt_errors){ 0 };
	if (t)
		stubfile_apply(&st, t, len, errs, 0, &rep);
}

static void test_every_cpu(const char *text, size_t n)
{
	static struct stubcpus s;
	struct opt_errors errs;
	size_t pairs = 0, scans = 0;

	across(text, n, &s, &errs);
	for (uint32_t k = 0; k < CPUS - 1 && k < s.preos.n; k++) {
		struct tp_sc_pair want = pair_of(k);

		pairs += same_pair(&s.preos.pair[k], &want);
	}
	for (uint32_t k = 0; k < CPUS && k < s.scan.n; k++) {
		struct tp_sc_cpu want = scan_of(k);

		scans += same_cpu(&s.scan.cpu[k], &want);
	}
	ok(s.preos.have_bsp && s.preos.bsp_apic == BSP_APIC && !s.preos.bsp_adjust.present,
	   "the BSP arrives (APIC %u)", s.preos.bsp_apic);
	ok(s.preos.n == CPUS - 1 && pairs == CPUS - 1, "every AP's pair arrives equal (%zu of %d)",
	   pairs, CPUS - 1);
	ok(s.scan.n == CPUS && scans == CPUS, "every CPU's scan arrives equal (%zu of %d)", scans, CPUS);
	ok(s.scan.have_summary && s.scan.window_ms == 1000 && s.scan.system_wide == 2 &&
	   s.scan.system_wide_max_ns == 5000, "the scan's summary arrives");
	ok(errs.n == 0 && s.refused == 0 && s.taken == 2 * CPUS + 1,
	   "no record refused (%zu errors, %u taken)", errs.n, s.taken);
	printf("# %zu bytes of records for %d CPUs\n", n, CPUS);
}

/* One lying record (its CRC right) after the good ones: refused with a reason, the good ones kept. */
static void lie(const char *text, size_t n, const char *name, const char *reason)
{
	static char t[4u << 20];
	static struct stubcpus s;
	struct opt_errors errs;
	size_t m = n;

	memcpy(t, text, n);
	put(t, &m, sizeof(t));
	across(t, m, &s, &errs);
	ok(s.refused == 1 && errs.n == 1 && strstr(errs.e[0].reason, reason) &&
	   s.preos.n == CPUS - 1 && s.scan.n == CPUS,
	   "%s: refused (%s)", name, errs.n ? errs.e[0].reason : "no error");
}

/* A pair record in r: a against b, [lo, hi], round trip rtt. */
static void pair_rec(uint64_t a, uint64_t b, int64_t lo, int64_t hi, uint64_t rtt)
{
	tp_rec_begin(&r, TP_SC_TSCSYNC);
	tp_rec_str(&r, TP_SC_WHAT, TP_SC_PAIR);
	tp_rec_uint(&r, TP_SC_APIC "_a", a);
	tp_rec_uint(&r, TP_SC_APIC "_b", b);
	tp_rec_int(&r, TP_SC_LO, lo);
	tp_rec_int(&r, TP_SC_HI, hi);
	tp_rec_uint(&r, TP_SC_RTT, rtt);
	tp_rec_uint(&r, TP_SC_SAMPLES, 1);
	tp_rec_bool(&r, TP_SC_CONSISTENT, 1);
}

static void cpu_rec(uint32_t apic, int reported, uint32_t coverage_ppm)
{
	struct tp_sc_cpu c = { .apic = apic, .reported = reported,
				       .coverage_ppm = coverage_ppm };

	tp_rec_begin(&r, TP_SC_HWLAT);
	tp_rec_str(&r, TP_SC_WHAT, TP_SC_CPU);
	tp_sc_scan_keys(&r, TP_SC_APIC, &c);
}

int main(void)
{
	static char text[4u << 20];
	size_t n = stub_records(text, sizeof(text));

	test_every_cpu(text, n);
	pair_rec(BSP_APIC, 5000, -500, 500, 10);
	lie(text, n, "an interval wider than its round trip", "wider");
	pair_rec(BSP_APIC, 5000, 5, 4, 10);
	lie(text, n, "lo above hi", "lo_ticks above");
	pair_rec(BSP_APIC, BSP_APIC + 1, 0, 4, 10);
	lie(text, n, "an AP twice", "twice");
	pair_rec(BSP_APIC, 1ull << 32, 0, 4, 10);
	lie(text, n, "an ID beyond 32 bits", "missing");
	pair_rec(BSP_APIC - 1, 5000, 0, 4, 10);
	lie(text, n, "a pair against another BSP", "BSP");
	pair_rec(BSP_APIC, BSP_APIC, 0, 4, 10);
	lie(text, n, "the BSP as its own AP", "own AP");
	cpu_rec(5000, 1, 1000001);
	lie(text, n, "coverage above 100 %", "coverage");
	cpu_rec(BSP_APIC, 0, 0);
	lie(text, n, "a CPU scanned twice", "twice");
	return tap_done();
}
