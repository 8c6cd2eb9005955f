// SPDX-License-Identifier: MIT
/*
 * Host tests of the SPCR parser (boot/spcr.c) on table blobs built from the
 * Microsoft SPCR specification's layout: which console= word each table
 * gives Linux, and why a table gives none. TAP.
 */
#include <stdint.h>
#include <string.h>

#include "../../common/acpi.h"
#include "../../common/buf.h"
#include "../../boot/spcr.h"
#include "putle.h"
#include "tap.h"

static void fix_sum(uint8_t *t, size_t len)
{
	t[9] = 0;
	t[9] = (uint8_t)(0x100 - tp_acpi_sum(t, len));
}

/*
 * SPCR revision 2, 80 bytes (SPCR Table 3): Interface Type at 36, Base
 * Address GAS at 40 (space, bit width, bit offset, access size, address),
 * Baud Rate at 58, PCI Device/Vendor ID 0xffff (not a PCI device).
 */
static uint8_t spcr[96];

static size_t make(uint8_t type, uint8_t space, uint8_t width, uint8_t access, uint64_t addr,
		   uint8_t baud)
{
	memset(spcr, 0, sizeof(spcr));
	memcpy(spcr, "SPCR", 4);
	put32(spcr + 4, 80);
	spcr[8] = 2;
	memcpy(spcr + 10, "BOCHS ", 6);
	spcr[36] = type;
	spcr[40] = space;
	spcr[41] = width;
	spcr[43] = access;
	put64(spcr + 44, addr);
	spcr[52] = 1; /* interrupt type: 8259 */
	spcr[53] = 4; /* IRQ 4 */
	spcr[58] = baud;
	spcr[62] = 0; /* terminal type VT100 */
	spcr[64] = spcr[65] = spcr[66] = spcr[67] = 0xff;
	fix_sum(spcr, 80);
	return 80;
}

static const char *word(const struct tp_spcr *s)
{
	static char w[64];
	struct tp_buf b;

	tp_buf_init(&b, w, sizeof(w));
	tp_spcr_console_word(s, &b);
	return w;
}

static void test_legacy(void)
{
	struct tp_spcr s;
	const char *why = "x";
	size_t n = make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);

	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "COM1 16550 at I/O 0x3f8, 115200: usable");
	ok(why == NULL, "no reason");
	is_int(s.tty, 0, "0x3f8 is ttyS0");
	is_int(s.baud, 115200, "baud code 7 = 115200");
	is_str(word(&s), "console=ttyS0,115200", "console=ttyS0,115200");

	n = make(0x00, ACPI_GAS_IO, 8, 1, 0x2f8, 0);
	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "COM2, baud 0 (as configured)");
	is_str(word(&s), "console=ttyS1", "ttyS1 without a baud rate");
	n = make(0x01, ACPI_GAS_IO, 8, 1, 0x3e8, 3);
	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "16550 subset at 0x3e8, 9600");
	is_str(word(&s), "console=ttyS2,9600", "ttyS2,9600");
	n = make(0x12, ACPI_GAS_IO, 8, 1, 0x2e8, 4);
	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "16550 with GAS at 0x2e8, 19200");
	is_str(word(&s), "console=ttyS3,19200", "ttyS3,19200");
	n = make(0x00, ACPI_GAS_IO, 8, 1, 0xe000, 6);
	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "16550 at I/O 0xe000 (a PCI card), 57600");
	is_int(s.tty, -1, "not a legacy port");
	is_str(word(&s), "console=uart8250,io,0xe000,57600", "uart8250,io,0xe000,57600");
}

static void test_mmio(void)
{
	struct tp_spcr s;
	const char *why;
	size_t n = make(0x12, ACPI_GAS_MEMORY, 32, 3, 0xfe032000ull, 7);
	int rc;

	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "MMIO 16550, 32-bit access, 115200");
	is_str(s.iotype, "mmio32", "dword access is mmio32");
	is_str(word(&s), "console=uart8250,mmio32,0xfe032000,115200", "uart8250,mmio32,...,115200");
	n = make(0x00, ACPI_GAS_MEMORY, 8, 1, 0xfedc9000ull, 0);
	is_int(tp_spcr_parse(spcr, n, &s, &why), 0, "MMIO 16550, byte access, baud as is");
	is_str(word(&s), "console=uart8250,mmio,0xfedc9000", "byte access is mmio, no baud");
	n = make(0x00, ACPI_GAS_MEMORY, 16, 2, 0xfedc9000ull, 7);
	tp_spcr_parse(spcr, n, &s, &why);
	is_str(s.iotype, "mmio16", "word access is mmio16");
	n = make(0x00, ACPI_GAS_MEMORY, 32, 0, 0xfedc9000ull, 7);
	tp_spcr_parse(spcr, n, &s, &why);
	is_str(s.iotype, "mmio32", "access size 0 (legacy): the 32-bit register width decides");
	n = make(0x00, ACPI_GAS_MEMORY, 64, 4, 0xfedc9000ull, 7);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why, "qword access refused: %s", why ? why : "");
}

static void test_refused(void)
{
	struct tp_spcr s;
	const char *why;
	size_t n;
	int rc;

	n = make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	spcr[9] ^= 0x5a;
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why && !strcmp(why, "SPCR checksum bad"), "bad checksum: no console (%s)",
	   why);

	make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	put32(spcr + 4, 60);
	fix_sum(spcr, 60);
	rc = tp_spcr_parse(spcr, 60, &s, &why);
	ok(rc < 0 && why && strstr(why, "too short"), "a 60-byte table: no console (%s)", why);
	rc = tp_spcr_parse(spcr, 30, &s, &why);
	ok(rc < 0 && why, "30 bytes, shorter than an ACPI header: no console (%s)", why);
	make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	rc = tp_spcr_parse(spcr, 70, &s, &why);
	ok(rc < 0 && why && strstr(why, "beyond"),
	   "Length says 80, 70 bytes given: no console (%s)", why);

	n = make(0x03, ACPI_GAS_MEMORY, 32, 3, 0x9000000, 7);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why && strstr(why, "interface type"), "ARM PL011: no console (%s)", why);
	is_int(s.interface_type, 3, "the interface type is still reported");
	is_str(tp_spcr_interface_name(s.interface_type), "ARM PL011", "and named");
	n = make(0x42, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why, "unknown interface type 0x42: no console (%s)", why);
	is_str(tp_spcr_interface_name(0x42), "unknown", "named unknown");

	n = make(0x00, ACPI_GAS_IO, 8, 1, 0, 7);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why && strstr(why, "disabled"), "address 0: redirection disabled (%s)", why);
	n = make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 5);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why && strstr(why, "baud"), "baud code 5 (undefined): no console (%s)", why);
	n = make(0x00, 2, 8, 1, 0x3f8, 7);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why, "PCI configuration space: no console (%s)", why);
	n = make(0x00, ACPI_GAS_IO, 8, 1, 0x10000, 7);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why, "I/O port above 0xffff: no console (%s)", why);
	n = make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	memcpy(spcr, "DBG2", 4);
	rc = tp_spcr_parse(spcr, n, &s, &why);
	ok(rc < 0 && why, "another signature: refused (%s)", why);
	rc = tp_spcr_parse(NULL, 0, &s, &why);
	ok(rc < 0, "no table: refused");
}

static void test_named(void)
{
	struct tp_spcr com1, com2, mm;
	const char *why;

	make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	tp_spcr_parse(spcr, 80, &com1, &why);
	make(0x00, ACPI_GAS_IO, 8, 1, 0x2f8, 7);
	tp_spcr_parse(spcr, 80, &com2, &why);
	make(0x00, ACPI_GAS_MEMORY, 32, 3, 0xfe032000ull, 7);
	tp_spcr_parse(spcr, 80, &mm, &why);

	ok(tp_spcr_console_named("console=tty0 console=ttyS0,115200 initrd=x", &com1),
	   "console=ttyS0,115200 names COM1");
	ok(tp_spcr_console_named("console=ttyS0", &com1), "bare console=ttyS0 names COM1");
	ok(!tp_spcr_console_named("console=tty0 console=ttyS0,115200", &com2),
	   "ttyS0 does not name COM2");
	ok(!tp_spcr_console_named("console=ttyS10,115200", &com1), "ttyS10 is not ttyS1 or ttyS0");
	ok(tp_spcr_console_named("console=uart8250,io,0x3f8,115200n8", &com1),
	   "uart8250,io,0x3f8 names COM1");
	ok(tp_spcr_console_named("console=uart,io,1016", &com1),
	   "uart,io,1016 (decimal) names COM1");
	ok(!tp_spcr_console_named("earlycon=uart8250,io,0x3f8", &com1),
	   "earlycon= is not console=");
	ok(!tp_spcr_console_named("", &com1), "empty line names nothing");
	ok(tp_spcr_console_named("console=uart8250,mmio32,0xfe032000,115200", &mm),
	   "mmio32 at the address");
	ok(tp_spcr_console_named("console=uart,mmio,0xFE032000", &mm),
	   "mmio (other width, upper case) at the address");
	ok(!tp_spcr_console_named("console=uart8250,io,0xfe032000", &mm), "I/O space is not MMIO");
	ok(!tp_spcr_console_named("console=uart8250,mmio32,0xfe033000", &mm), "another address");
	ok(!tp_spcr_console_named("console=ttyS0", &mm), "ttyS0 does not name an MMIO UART");
}

/* The stub's step: the word added to cmdline.txt's line, unless named or too long. */
static void test_add(void)
{
	struct tp_spcr com1;
	const char *why;
	char line[TP_CMDLINE_MAX + 1], word[64];
	struct tp_buf w;
	size_t len;

	make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	tp_spcr_parse(spcr, 80, &com1, &why);

	strcpy(line, "quiet");
	tp_buf_init(&w, word, sizeof(word));
	is_int(tp_spcr_console_add(line, &com1, &w), TP_SPCR_ADDED, "add: appended");
	is_str(line, "quiet console=ttyS0,115200", "add: after a space");
	is_str(word, "console=ttyS0,115200", "add: the word");

	line[0] = 0;
	tp_buf_init(&w, word, sizeof(word));
	is_int(tp_spcr_console_add(line, &com1, &w), TP_SPCR_ADDED, "add: to an empty line");
	is_str(line, "console=ttyS0,115200", "add: no leading space");

	strcpy(line, "console=ttyS0 quiet");
	tp_buf_init(&w, word, sizeof(word));
	is_int(tp_spcr_console_add(line, &com1, &w), TP_SPCR_NAMED, "add: already named");
	is_str(line, "console=ttyS0 quiet", "add: named: line unchanged");
	is_str(word, "console=ttyS0,115200", "add: named: the word still given");

	/* the word (20) and its space fit exactly, then one character too many */
	len = TP_CMDLINE_MAX - 21;
	memset(line, 'x', len);
	line[len] = 0;
	tp_buf_init(&w, word, sizeof(word));
	is_int(tp_spcr_console_add(line, &com1, &w), TP_SPCR_ADDED, "add: fits to the last character");
	is_int(strlen(line), TP_CMDLINE_MAX, "add: line at TP_CMDLINE_MAX");
	memset(line, 'x', len + 1);
	line[len + 1] = 0;
	tp_buf_init(&w, word, sizeof(word));
	is_int(tp_spcr_console_add(line, &com1, &w), TP_SPCR_NO_ROOM, "add: one over: no room");
	is_int(strlen(line), len + 1, "add: no room: line unchanged");
}

/* Through the ACPI walk: a bad SPCR checksum is skipped and counted. */
struct region {
	uint64_t at;
	const uint8_t *p;
	size_t len;
};

static struct region regions[2];

static const void *map(uint64_t phys, size_t len, void *ctx)
{
	(void)ctx;
	for (int i = 0; i < 2; i++)
		if (phys >= regions[i].at && phys + len <= regions[i].at + regions[i].len)
			return regions[i].p + (phys - regions[i].at);
	return NULL;
}

static void test_walk(void)
{
	static uint8_t xsdt[36 + 8];
	struct tp_acpi_root root = { .revision = 2, .xsdt = 0x1000 };
	struct tp_spcr s;
	const void *t;
	const char *why;
	uint32_t len = 0;
	int bad = 0;

	memcpy(xsdt, "XSDT", 4);
	put32(xsdt + 4, sizeof(xsdt));
	put64(xsdt + 36, 0x2000);
	fix_sum(xsdt, sizeof(xsdt));
	make(0x00, ACPI_GAS_IO, 8, 1, 0x3f8, 7);
	regions[0] = (struct region){ 0x1000, xsdt, sizeof(xsdt) };
	regions[1] = (struct region){ 0x2000, spcr, 80 };
	t = tp_acpi_find(&root, "SPCR", map, NULL, &len, &bad);
	ok(t && len == 80 && bad == 0, "SPCR found through the XSDT");
	ok(t && tp_spcr_parse(t, len, &s, &why) == 0 && !strcmp(word(&s), "console=ttyS0,115200"),
	   "and parsed to console=ttyS0,115200");
	spcr[20] ^= 1;
	t = tp_acpi_find(&root, "SPCR", map, NULL, &len, &bad);
	ok(!t && bad == 1, "a bad checksum makes the walk skip it and count it");
}

int main(void)
{
	test_legacy();
	test_mmio();
	test_refused();
	test_named();
	test_add();
	test_walk();
	return tap_done();
}
