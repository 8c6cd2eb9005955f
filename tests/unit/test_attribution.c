// SPDX-License-Identifier: MIT
/*
 * The attribution's pure parts (userland/attribution.c) on recorded text:
 * /proc/interrupts and /proc/softirqs of a two-CPU KVM guest read twice,
 * the second time with CPU1 offline (its column gone), /proc/stat's ctxt,
 * the online CPU list, and MSR_SMI_COUNT reads as pread() returns them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../userland/attribution.h"
#include "../../userland/msr.h"
#include "tap.h"

static const char irq_before[] =
	"           CPU0       CPU1       \n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 36:          0     187942 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
	" 41:       4658          0 PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:    3061120    3102231   Local timer interrupts\n"
	"RES:     811360     803322   Rescheduling interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";

/* 0.5 s later: 36 moved on CPU1, timers on both, one ERR. */
static const char irq_after[] =
	"           CPU0       CPU1       \n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 36:          0     187950 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
	" 41:       4660          0 PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx\n"
	" 44:          3          0 PCI-MSIX-0000:00:06.0   0-edge      virtio5-config\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:    3061245    3102331   Local timer interrupts\n"
	"RES:     811360     803330   Rescheduling interrupts\n"
	"ERR:          1\n"
	"MIS:          0\n";

/* The same after `echo 0 > /sys/devices/system/cpu/cpu1/online`:
 * show_interrupts() prints online CPUs only. */
static const char irq_offline[] =
	"           CPU0       \n"
	" 24:          1  IO-APIC   5-edge      ACPI:Ged\n"
	" 36:          2 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
	" 41:       4661 PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx\n"
	"NMI:          0   Non-maskable interrupts\n"
	"LOC:    3061300   Local timer interrupts\n"
	"RES:     811361   Rescheduling interrupts\n"
	"ERR:          1\n"
	"MIS:          0\n";

static const char soft_before[] =
	"                    CPU0       CPU1       \n"
	"          HI:          0          0\n"
	"       TIMER:     143386     173227\n"
	"         RCU:     531262     554764\n";

static const char soft_after[] =
	"                    CPU0       CPU1       \n"
	"          HI:          0          0\n"
	"       TIMER:     143400     173230\n"
	"         RCU:     531262     554770\n";

static uint64_t row(const struct irq_table *t, const uint64_t *d, const char *name)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->row[i].name, name))
			return d[i];
	return (uint64_t)-1;
}

static void test_irq(void)
{
	struct irq_table b, a, o, sb, sa;
	uint64_t d[16];

	ok(!irq_parse_interrupts(irq_before, &b) && !irq_parse_interrupts(irq_after, &a) &&
	   !irq_parse_interrupts(irq_offline, &o), "three /proc/interrupts parse");
	is_int(attr_irq_delta(&b, &a, d), 0, "same CPUs: not changed");
	is_int(row(&a, d, "LOC"), 125 + 100, "LOC: both CPUs' ticks");
	is_int(row(&a, d, "36:virtio1-req.0"), 8, "a numbered line, named by its device");
	is_int(row(&a, d, "24:ACPI:Ged"), 0, "an idle line: 0");
	is_int(row(&a, d, "44:virtio5-config"), 0, "a line new since: 0 (its counts began before)");
	is_int(row(&a, d, "ERR"), 1, "ERR: machine-wide total");
	is_int(row(&a, d, "RES"), 8, "RES");

	is_int(attr_irq_delta(&a, &o, d), 1, "CPU1 went offline: changed");
	is_int(row(&o, d, "LOC"), 3061300 - 3061245, "LOC over CPU0 only, not minus CPU1's column");
	is_int(row(&o, d, "36:virtio1-req.0"), 2, "an interrupt that moved to CPU0: CPU0's count");
	is_int(row(&o, d, "ERR"), 0, "ERR unchanged");
	is_int(attr_irq_delta(&o, &a, d), 1, "CPU1 back online: changed");
	is_int(row(&a, d, "LOC"), 0, "LOC: CPU0 went back (3061300 -> 3061245): 0, and CPU1's old counts are not new");

	ok(!irq_parse_softirqs(soft_before, &sb) && !irq_parse_softirqs(soft_after, &sa), "softirqs parse");
	is_int(attr_irq_delta(&sb, &sa, d), 0, "softirqs: same CPUs");
	is_int(row(&sa, d, "TIMER"), 17, "TIMER softirqs");
	is_int(row(&sa, d, "RCU"), 6, "RCU softirqs");
	is_int(row(&sa, d, "HI"), 0, "HI idle");
	irq_table_free(&b);
	irq_table_free(&a);
	irq_table_free(&o);
	irq_table_free(&sb);
	irq_table_free(&sa);
}

static void test_ctxt(void)
{
	uint64_t c = 0;

	ok(!attr_parse_ctxt("cpu  1 2 3\nintr 99 0 1\nctxt 362309014\nbtime 1764690000\n", &c) &&
	   c == 362309014, "ctxt from /proc/stat");
	ok(attr_parse_ctxt("cpu  1 2 3\nbtime 1\n", &c) == -EINVAL, "no ctxt line: -EINVAL");
	ok(attr_parse_ctxt("ctxt x\n", &c) == -EINVAL, "not a number: -EINVAL");
	ok(!attr_parse_ctxt("ctxt 5", &c) && c == 5, "last line without newline");
}

static void test_cpulist(void)
{
	int c[8];

	ok(attr_parse_cpulist("0-1\n", c, 8) == 2 && c[0] == 0 && c[1] == 1, "0-1");
	ok(attr_parse_cpulist("0,2-3,7", c, 8) == 4 && c[1] == 2 && c[3] == 7, "0,2-3,7");
	ok(attr_parse_cpulist("0-100", c, 8) == 8, "capped at max");
	ok(attr_parse_cpulist("3-1", c, 8) == -EINVAL, "a range backwards: -EINVAL");
	ok(attr_parse_cpulist("a", c, 8) == -EINVAL, "not a number: -EINVAL");
	ok(attr_parse_cpulist("", c, 8) == 0, "empty: none");
}

static void test_msr(void)
{
	/* 0x34 on a Xeon: EAX = 0x00000103 SMIs, EDX = 0 */
	unsigned char buf[8] = { 0x03, 0x01, 0, 0, 0x55, 0x55, 0, 0 };
	struct attr_smi b = { .n = 2, .cpu = { 0, 1 }, .count = { 0xfffffff0u, 10 } };
	struct attr_smi a = { .n = 2, .cpu = { 0, 1 }, .count = { 0x00000005u, 13 } };
	struct attr_smi off = { .n = 1, .cpu = { 0 }, .count = { 0x00000007u } };
	uint64_t c = 0;
	int changed = -1;

	ok(!msr_decode(8, 0, buf, &c) && c == 0x555500000103ull, "8 bytes: EDX:EAX, little-endian");
	is_int(msr_decode(-1, EIO, buf, &c), -EIO, "rdmsr refused (#GP): -EIO");
	is_int(msr_decode(-1, EACCES, buf, &c), -EACCES, "not root: -EACCES");
	is_int(msr_decode(4, 0, buf, &c), -EIO, "short read: -EIO");
	is_int(attr_smi_delta(&b, &a, &changed), 0x15 + 3, "sum over CPUs, a 32-bit wrap counts forward");
	is_int(changed, 0, "same CPUs");
	is_int(attr_smi_delta(&a, &off, &changed), 2, "CPU1 went offline: CPU0's alone");
	is_int(changed, 1, "CPU1 went offline: changed");
	is_int(attr_smi_delta(&off, &a, &changed), 0xfffffffeu, "CPU0 counted back from 7 to 5: a wrap, as the hardware would");
	is_int(changed, 1, "CPU1 came back: changed");
}

static void test_group(void)
{
	char b[32];

	attr_group(1210, b, sizeof(b));
	is_str(b, "1 210", "1 210");
	attr_group(0, b, sizeof(b));
	is_str(b, "0", "0");
	attr_group(999, b, sizeof(b));
	is_str(b, "999", "999");
	attr_group(1234567, b, sizeof(b));
	is_str(b, "1 234 567", "1 234 567");
	attr_group(1234567, b, 5);
	is_str(b, "1 23", "cut to fit");
}

int main(void)
{
	test_irq();
	test_ctxt();
	test_cpulist();
	test_msr();
	test_group();
	return tap_done();
}
