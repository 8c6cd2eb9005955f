// SPDX-License-Identifier: MIT
/*
 * The interruption counters' pure parts (userland/irqstat.c) on recorded
 * text: /proc/interrupts and /proc/softirqs of two-CPU KVM guests read
 * twice (once more with CPU1 offline, its column gone), their differences,
 * the online CPU list, and the SMI counts' difference over a 32-bit wrap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../userland/irqstat.h"
#include "tap.h"

static const char interrupts0[] =
    "           CPU0       CPU1       \n"
    " 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
    " 31:          0        420 PCI-MSIX-0000:00:01.0   3-edge      virtio0-stats\n"
    " 36:          0     124388 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
    "NMI:          0          0   Non-maskable interrupts\n"
    "LOC:     352844     372922   Local timer interrupts\n"
    "RES:     105601      85468   Rescheduling interrupts\n"
    "CAL:    1105071     772071   Function call interrupts\n"
    "ERR:          0\n"
    "MIS:          0\n";

static const char interrupts1[] =
    "           CPU0       CPU1       \n"
    " 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
    " 31:          0        421 PCI-MSIX-0000:00:01.0   3-edge      virtio0-stats\n"
    " 36:          0     124400 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
    " 44:          3          0 PCI-MSIX-0000:00:06.0   0-edge      nvme0q0\n"
    "NMI:          0          0   Non-maskable interrupts\n"
    "LOC:     353844     373922   Local timer interrupts\n"
    "RES:     105601      85470   Rescheduling interrupts\n"
    "CAL:    1105071     772071   Function call interrupts\n"
    "ERR:          2\n"
    "MIS:          0\n";

static const char softirqs[] = "                    CPU0       CPU1       \n"
			       "          HI:          0          0\n"
			       "       TIMER:      61448      48420\n"
			       "      NET_TX:          3          1\n"
			       "         RCU:     130162     137327\n";

static const char *row_name(const struct irqstat_table *t, size_t i)
{
	return i < t->nrows ? t->row[i].name : "";
}

static uint64_t find(const struct irqstat_table *t, const char *name, int col)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->row[i].name, name))
			return col < 0 ? t->row[i].total
				       : t->count[i * (size_t)t->ncol + (size_t)col];
	return (uint64_t)-1;
}

static void test_parse(void)
{
	struct irqstat_table a, b, d, s;

	ok(irqstat_parse_interrupts(interrupts0, &a) == 0, "irq: parses");
	is_int(a.ncol, 2, "irq: two CPU columns");
	is_int(a.nrows, 9, "irq: nine rows");
	is_str(row_name(&a, 0), "24:ACPI:Ged", "irq: numbered line named by its device");
	is_str(row_name(&a, 2), "36:virtio1-req.0", "irq: device after a chip name with colons");
	is_int(find(&a, "LOC", -1), 352844 + 372922, "irq: LOC total");
	is_int(find(&a, "LOC", 1), 372922, "irq: LOC on CPU1");
	is_int(find(&a, "ERR", -1), 0, "irq: ERR is one figure");

	ok(irqstat_parse_interrupts(interrupts1, &b) == 0, "irq: second snapshot parses");
	ok(irqstat_delta(&a, &b, &d) == 0, "irq: delta");
	is_int(find(&d, "LOC", -1), 2000, "delta: LOC summed over CPUs");
	is_int(find(&d, "LOC", 0), 1000, "delta: LOC on CPU0");
	is_int(find(&d, "36:virtio1-req.0", 1), 12, "delta: a device on CPU1");
	is_int(find(&d, "44:nvme0q0", -1), 3,
	       "delta: a line new in the second snapshot counts from 0");
	is_int(find(&d, "ERR", -1), 2, "delta: ERR total");
	is_int(find(&d, "ERR", 0), 0, "delta: ERR not put on CPU0");
	is_int(find(&d, "CAL", -1), 0, "delta: unchanged is 0");
	irqstat_table_free(&d);
	ok(irqstat_delta(&b, &a, &d) == 0 && find(&d, "LOC", -1) == 0,
	   "delta: a counter going down gives 0");
	irqstat_table_free(&d);

	ok(irqstat_parse_softirqs(softirqs, &s) == 0, "softirq: parses");
	is_int(s.ncol, 2, "softirq: two columns");
	is_int(s.nrows, 4, "softirq: four rows");
	is_str(row_name(&s, 1), "TIMER", "softirq: leading spaces stripped from names");
	is_int(find(&s, "RCU", 0), 130162, "softirq: RCU on CPU0");
	irqstat_table_free(&s);

	ok(irqstat_parse_interrupts("", &s) < 0, "irq: empty text is an error");
	ok(irqstat_parse_interrupts("garbage\nLOC: 1 2\n", &s) < 0, "irq: no header is an error");
	ok(irqstat_parse_softirqs("\n\n   CPU0\nHI: 5\nweird line\nX:\n", &s) == 0 && s.nrows == 2 &&
	       find(&s, "HI", 0) == 5 && find(&s, "X", -1) == 0,
	   "softirq: blank lines, odd lines survive");
	irqstat_table_free(&s);
	irqstat_table_free(&a);
	irqstat_table_free(&b);
}

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

static uint64_t row(const struct irqstat_table *t, const uint64_t *d, const char *name)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->row[i].name, name))
			return d[i];
	return (uint64_t)-1;
}

/* A row name that fills the name alone (a harness may feed any text): no overflow. */
static void test_long_name(void)
{
	static const char text[] =
		"           CPU0       CPU1\n"
		"123456789012345678901234567890123456789012:  1  2  IR-PCI-MSI  dev-with-a-name\n"
		"12345678901234567890123456789012345678:  3  4  IR-PCI-MSI  devname\n"
		"1234567890123456789012345678901234567:  5  6  IR-PCI-MSI  devname\n";
	struct irqstat_table t;

	ok(irqstat_parse_interrupts(text, &t) == 0 && t.nrows == 3, "irq: long row names parse");
	is_str(row_name(&t, 0), "123456789012345678901234567890123456789", "a 42-byte number: cut to 39");
	is_str(row_name(&t, 1), "12345678901234567890123456789012345678",
	       "38 bytes: no room for a device after it");
	is_str(row_name(&t, 2), "1234567890123456789012345678901234567:d",
	       "37 bytes: one byte of the device");
	irqstat_table_free(&t);
}

static void test_row_delta(void)
{
	struct irqstat_table b, a, o, sb, sa;
	uint64_t d[16];

	ok(!irqstat_parse_interrupts(irq_before, &b) && !irqstat_parse_interrupts(irq_after, &a) &&
	   !irqstat_parse_interrupts(irq_offline, &o), "three /proc/interrupts parse");
	is_int(irqstat_row_delta(&b, &a, d), 0, "same CPUs: not changed");
	is_int(row(&a, d, "LOC"), 125 + 100, "LOC: both CPUs' ticks");
	is_int(row(&a, d, "36:virtio1-req.0"), 8, "a numbered line, named by its device");
	is_int(row(&a, d, "24:ACPI:Ged"), 0, "an idle line: 0");
	is_int(row(&a, d, "44:virtio5-config"), 0, "a line new since: 0 (its counts began before)");
	is_int(row(&a, d, "ERR"), 1, "ERR: machine-wide total");
	is_int(row(&a, d, "RES"), 8, "RES");

	is_int(irqstat_row_delta(&a, &o, d), 1, "CPU1 went offline: changed");
	is_int(row(&o, d, "LOC"), 3061300 - 3061245, "LOC over CPU0 only, not minus CPU1's column");
	is_int(row(&o, d, "36:virtio1-req.0"), 2, "an interrupt that moved to CPU0: CPU0's count");
	is_int(row(&o, d, "ERR"), 0, "ERR unchanged");
	is_int(irqstat_row_delta(&o, &a, d), 1, "CPU1 back online: changed");
	is_int(row(&a, d, "LOC"), 0, "LOC: CPU0 went back (3061300 -> 3061245): 0, and CPU1's old counts are not new");

	ok(!irqstat_parse_softirqs(soft_before, &sb) && !irqstat_parse_softirqs(soft_after, &sa), "softirqs parse");
	is_int(irqstat_row_delta(&sb, &sa, d), 0, "softirqs: same CPUs");
	is_int(row(&sa, d, "TIMER"), 17, "TIMER softirqs");
	is_int(row(&sa, d, "RCU"), 6, "RCU softirqs");
	is_int(row(&sa, d, "HI"), 0, "HI idle");
	irqstat_table_free(&b);
	irqstat_table_free(&a);
	irqstat_table_free(&o);
	irqstat_table_free(&sb);
	irqstat_table_free(&sa);
}

static void test_cpulist(void)
{
	int c[8];

	ok(irqstat_parse_cpulist("0-1\n", c, 8) == 2 && c[0] == 0 && c[1] == 1, "0-1");
	ok(irqstat_parse_cpulist("0,2-3,7", c, 8) == 4 && c[1] == 2 && c[3] == 7, "0,2-3,7");
	ok(irqstat_parse_cpulist("0-100", c, 8) == 8, "capped at max");
	ok(irqstat_parse_cpulist("3-1", c, 8) == -EINVAL, "a range backwards: -EINVAL");
	ok(irqstat_parse_cpulist("a", c, 8) == -EINVAL, "not a number: -EINVAL");
	ok(irqstat_parse_cpulist("", c, 8) == 0, "empty: none");
}

static void test_smi(void)
{
	struct irqstat_smi b = { .n = 2, .cpu = { 0, 1 }, .count = { 0xfffffff0u, 10 } };
	struct irqstat_smi a = { .n = 2, .cpu = { 0, 1 }, .count = { 0x00000005u, 13 } };
	struct irqstat_smi off = { .n = 1, .cpu = { 0 }, .count = { 0x00000007u } };
	int changed = -1;

	is_int(irqstat_smi_delta(&b, &a, &changed), 0x15 + 3, "sum over CPUs, a 32-bit wrap counts forward");
	is_int(changed, 0, "same CPUs");
	is_int(irqstat_smi_delta(&a, &off, &changed), 2, "CPU1 went offline: CPU0's alone");
	is_int(changed, 1, "CPU1 went offline: changed");
	is_int(irqstat_smi_delta(&off, &a, &changed), 0xfffffffeu, "CPU0 counted back from 7 to 5: a wrap, as the hardware would");
	is_int(changed, 1, "CPU1 came back: changed");
}

int main(void)
{
	test_long_name();
	test_parse();
	test_row_delta();
	test_cpulist();
	test_smi();
	return tap_done();
}
