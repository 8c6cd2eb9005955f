// SPDX-License-Identifier: MIT
/*
 * The attribution's pure parts (userland/attribution.c) on recorded text:
 * /proc/stat's ctxt, MSR_SMI_COUNT reads as pread() returns them, the
 * probe's own share (its children's rusage, its CPUs' interrupts) and the
 * digit groups of its human line. Its /proc tables and SMI counts are
 * irqstat's (tests/unit/test_irqstat.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../userland/attribution.h"
#include "../../userland/msr.h"
#include "tap.h"

static void test_ctxt(void)
{
	uint64_t c = 0;

	ok(!attribution_parse_ctxt("cpu  1 2 3\nintr 99 0 1\nctxt 362309014\nbtime 1764690000\n", &c) &&
	   c == 362309014, "ctxt from /proc/stat");
	ok(attribution_parse_ctxt("cpu  1 2 3\nbtime 1\n", &c) == -EINVAL, "no ctxt line: -EINVAL");
	ok(attribution_parse_ctxt("ctxt x\n", &c) == -EINVAL, "not a number: -EINVAL");
	ok(!attribution_parse_ctxt("ctxt 5", &c) && c == 5, "last line without newline");
}

static void test_msr(void)
{
	/* 0x34 on a Xeon: EAX = 0x00000103 SMIs, EDX = 0 */
	unsigned char buf[8] = { 0x03, 0x01, 0, 0, 0x55, 0x55, 0, 0 };
	uint64_t c = 0;

	ok(!msr_decode(8, 0, buf, &c) && c == 0x555500000103ull, "8 bytes: EDX:EAX, little-endian");
	is_int(msr_decode(-1, EIO, buf, &c), -EIO, "rdmsr refused (#GP): -EIO");
	is_int(msr_decode(-1, EACCES, buf, &c), -EACCES, "not root: -EACCES");
	is_int(msr_decode(4, 0, buf, &c), -EIO, "short read: -EIO");
}

static struct rusage ru(long vol, long invol, long user_us, long sys_us)
{
	struct rusage r = { 0 };

	r.ru_nvcsw = vol;
	r.ru_nivcsw = invol;
	r.ru_utime.tv_sec = user_us / 1000000;
	r.ru_utime.tv_usec = user_us % 1000000;
	r.ru_stime.tv_sec = sys_us / 1000000;
	r.ru_stime.tv_usec = sys_us % 1000000;
	return r;
}

static void test_own(void)
{
	struct rusage b = ru(10, 2, 1900000, 300000), a = ru(1436, 228, 2150000, 1100000);
	struct attribution_own d;

	attribution_own_delta(&b, &a, &d);
	ok(d.vol_ctxsw == 1426 && d.invol_ctxsw == 226, "own: switches are the children's growth");
	is_int(d.cpu_us, 1050000, "own: CPU time is user + system growth, across a second boundary");
	attribution_own_delta(&a, &b, &d);
	ok(!d.vol_ctxsw && !d.invol_ctxsw && !d.cpu_us, "own: counters that went down give 0");
}

/* Two snapshots of 4 CPUs; CPU 2 went offline in the second. */
static const char irq_before[] =
	"           CPU0       CPU1       CPU2       CPU3\n"
	"  0:         10          0          0          0  IO-APIC   2-edge      timer\n"
	"LOC:       1000       2000       3000       4000   Local timer interrupts\n"
	"RES:          5          6          7          8   Rescheduling interrupts\n"
	"ERR:          3\n";
static const char irq_after[] =
	"           CPU0       CPU1       CPU3\n"
	"  0:         11          0          0  IO-APIC   2-edge      timer\n"
	"LOC:       1100       2250       4400   Local timer interrupts\n"
	"RES:          5          9         18   Rescheduling interrupts\n"
	"NMI:          0          4          4   Non-maskable interrupts\n"
	"ERR:          9\n";

static void test_cpus(void)
{
	struct irqstat_table b, a;
	const int one_three[] = { 1, 3 }, two[] = { 2 }, all[] = { 0, 1, 2, 3 };

	ok(!irqstat_parse_interrupts(irq_before, &b) && !irqstat_parse_interrupts(irq_after, &a),
	   "cpus: snapshots parse");
	/* CPU1: LOC 250 + RES 3; CPU3: LOC 400 + RES 10; NMI is new, ERR machine-wide */
	is_int((long long)attribution_cpus_delta(&b, &a, one_three, 2), 663,
	       "cpus: LOC and RES on CPUs 1 and 3; a new row and ERR left out");
	is_int((long long)attribution_cpus_delta(&b, &a, two, 1), 0, "cpus: a CPU gone offline counts 0");
	is_int((long long)attribution_cpus_delta(&b, &a, all, 4), 764, "cpus: every CPU present in both");
	irqstat_table_free(&b);
	irqstat_table_free(&a);
}

static void test_cpulist(void)
{
	const int l[] = { 1, 2, 3, 5, 7, 8 }, one[] = { 4 };
	char b[32];

	attribution_cpulist(l, 6, b, sizeof(b));
	is_str(b, "1-3,5,7-8", "cpulist: ranges and singles");
	attribution_cpulist(one, 1, b, sizeof(b));
	is_str(b, "4", "cpulist: one CPU");
	attribution_cpulist(l, 6, b, 4);
	ok(strlen(b) < 4, "cpulist: cut to fit");
}

static void test_group(void)
{
	char b[32];

	attribution_group(1210, b, sizeof(b));
	is_str(b, "1 210", "1 210");
	attribution_group(0, b, sizeof(b));
	is_str(b, "0", "0");
	attribution_group(999, b, sizeof(b));
	is_str(b, "999", "999");
	attribution_group(1234567, b, sizeof(b));
	is_str(b, "1 234 567", "1 234 567");
	attribution_group(1234567, b, 5);
	is_str(b, "1 23", "cut to fit");
}

int main(void)
{
	test_ctxt();
	test_msr();
	test_own();
	test_cpus();
	test_cpulist();
	test_group();
	return tap_done();
}
