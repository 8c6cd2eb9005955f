// SPDX-License-Identifier: MIT
/* Host tests of the counter probe's errata scan (userland/probes/counter_scan.c):
 * synthetic read sequences with each erratum's signature, and healthy ones
 * (interrupts between reads, bit-32 and low-bit rollovers) that must show
 * none. TAP. */
#include <stdint.h>

#include "../../userland/probes/counter.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct counter_scan scan(const uint64_t *v, size_t n)
{
	struct counter_scan s;

	counter_scan_init(&s);
	counter_scan_run(&s, v, n);
	return s;
}

/* A healthy counter: small steps, an interrupt (a long step), equal reads;
 * then bit 32 and the low 9 bits rolling over. */
static void healthy(void)
{
	const uint64_t v[] = { 100, 103, 103, 110, 110 + 625000, 110 + 625003 };
	const uint64_t roll[] = { 0xfffffffeull, 0x100000001ull, 0x1000001ffull, 0x100000200ull,
				  0x100000201ull };
	struct counter_scan s = scan(v, N(v));

	is_int(s.pairs, N(v) - 1, "healthy: every consecutive pair scanned");
	is_int(counter_scan_signatures(&s), 0, "healthy: no signature");
	is_int(s.backwards, 0, "healthy: nothing backwards");
	is_int(s.equal, 1, "healthy: one pair read the same value");
	is_int(s.max_step, 625000, "healthy: the interrupt is the largest step");
	is_int(s.min_step, 0, "healthy: the smallest step is 0");
	is_int(s.steps_32, 1, "healthy: one step of >= 32 ticks (context, not a signature)");
	s = scan(roll, N(roll));
	is_int(counter_scan_signatures(&s) + s.backwards, 0,
	       "healthy: bit 32 and the low bits rolling over show nothing");
}

/* Freescale A-008585: an erroneous value between two good ones. */
static void fsl(void)
{
	const uint64_t v[] = { 5000, 5004, 5900, 5010, 5013 };
	struct counter_scan s = scan(v, N(v));

	is_int(s.sig[COUNTER_SIG_FSL_HISI], 1, "A-008585: the read after the wrong one goes back");
	is_int(s.max_back, 890, "A-008585: by 890 ticks");
	is_str(counter_sig_name(COUNTER_SIG_FSL_HISI), "Freescale A-008585 or HiSilicon 161010101",
	       "A-008585: named with HiSilicon's (one step cannot tell them apart)");
}

/* HiSilicon 161010101: a read >= 32 ticks off, then the right value. */
static void hisi(void)
{
	const uint64_t v[] = { 0x7000, 0x7002, 0x7042, 0x7005, 0x7007 };
	struct counter_scan s = scan(v, N(v));

	is_int(s.sig[COUNTER_SIG_FSL_HISI], 1, "161010101: one backward step");
	is_int(counter_scan_signatures(&s), 1, "161010101: and no other signature");
}

/* Cortex-A73 858921: while bit 32 toggles, a read off by 2^32. */
static void a73(void)
{
	const uint64_t up[] = { 0xfffffff0ull, 0xfffffff8ull, 0x1fffffffcull, 0x100000002ull };
	const uint64_t down[] = { 0xfffffff0ull, 0x100000004ull, 0x000000008ull, 0x10000000cull };
	struct counter_scan s = scan(up, N(up));

	is_int(s.sig[COUNTER_SIG_858921], 2, "858921: the jump up and the return both carry it");
	is_int(s.sig[COUNTER_SIG_FSL_HISI] + s.sig[COUNTER_SIG_SUN50I], 0,
	       "858921: named as itself only");
	s = scan(down, N(down));
	is_int(s.sig[COUNTER_SIG_858921], 2, "858921: a read 2^32 low, and back");
	is_str(counter_sig_name(COUNTER_SIG_858921), "arm64 erratum 858921 (Cortex-A73)", "858921: its name");
}

/* Allwinner A64 UNKNOWN1: 7ff -> 000 -> 800 and 7ff -> fff -> 800. */
static void sun50i(void)
{
	const uint64_t back[] = { 0x7fd, 0x7ff, 0x000, 0x800, 0x802 };
	const uint64_t fwd[] = { 0x17fd, 0x17ff, 0x1fff, 0x1800, 0x1803 };
	struct counter_scan s = scan(back, N(back));

	is_int(s.sig[COUNTER_SIG_SUN50I], 1, "UNKNOWN1: 7ff -> 000 goes back to an all-0 low value");
	s = scan(fwd, N(fwd));
	is_int(s.sig[COUNTER_SIG_SUN50I], 1, "UNKNOWN1: fff -> 800 comes back from an all-1 low value");
	is_int(s.sig[COUNTER_SIG_FSL_HISI], 0, "UNKNOWN1: not named as another erratum");
	is_str(counter_sig_name(COUNTER_SIG_SUN50I), "Allwinner A64 UNKNOWN1", "UNKNOWN1: its name");
}

/* Reads fed in pieces scan as one sequence. */
static void pieces(void)
{
	const uint64_t a[] = { 10, 20 }, b[] = { 15, 30 };
	struct counter_scan s;

	counter_scan_init(&s);
	counter_scan_run(&s, a, N(a));
	counter_scan_run(&s, b, N(b));
	is_int(s.pairs, 3, "pieces: the pair across two calls is scanned");
	is_int(s.backwards, 1, "pieces: 20 -> 15 across the calls goes back");
	is_str(counter_sig_name(COUNTER_SIGS), "none", "no signature is named none");
}

int main(void)
{
	healthy();
	fsl();
	hisi();
	a73();
	sun50i();
	pieces();
	return tap_done();
}
