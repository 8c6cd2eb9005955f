// SPDX-License-Identifier: MIT
/* The ACPI SPCR table; see spcr.h. EFI-free, tested by tests/unit/test_spcr.c. */
#include "spcr.h"

#include "../common/acpi.h"
#include "../common/le.h"
#include "../common/words.h"

/* SPCR (Microsoft), Table 3: field offsets */
#define SPCR_INTERFACE_TYPE 36
#define SPCR_BASE_ADDRESS 40	/* ACPI Generic Address Structure, 12 bytes */
#define SPCR_BAUD_RATE 58

/* DBG2 (Microsoft, "Debug Port Table 2"), Table 3: serial port subtypes */
#define DBG2_16550_FULL 0x00
#define DBG2_16550_SUBSET 0x01
#define DBG2_16550_NVIDIA 0x05
#define DBG2_16550_GAS 0x12

const char *tp_spcr_interface_name(uint8_t t)
{
	switch (t) {
	case 0x00: return "16550";
	case 0x01: return "16550 subset";
	case 0x03: return "ARM PL011";
	case 0x05: return "NVIDIA 16550";
	case 0x0d: return "ARM SBSA 32-bit";
	case 0x0e: return "ARM SBSA generic";
	case 0x0f: return "ARM DCC";
	case 0x10: return "BCM2835";
	case 0x12: return "16550 with GAS";
	case 0x14: return "Intel LPSS";
	default: return "unknown";
	}
}

/*
 * Linux x86's legacy ports (arch/x86/include/asm/serial.h,
 * SERIAL_PORT_DFNS): ttyS0..3 are always these four, in this order.
 */
static const uint16_t legacy_ports[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };

/* The table's header: signature, length, checksum. 0 or negative with *why. */
static int check_header(const uint8_t *t, size_t len, const char **why)
{
	uint32_t tlen;

	if (!t || len < ACPI_HDR_LEN) {
		*why = "SPCR too short (under 80 bytes)";
		return -3;
	}
	if (t[0] != 'S' || t[1] != 'P' || t[2] != 'C' || t[3] != 'R') {
		*why = "not an SPCR table";
		return -1;
	}
	tlen = le32(t + 4);
	if (tlen > len) {
		*why = "SPCR length beyond the data";
		return -2;
	}
	if (tlen < TP_SPCR_MIN_LEN) {
		*why = "SPCR too short (under 80 bytes)";
		return -3;
	}
	/* ACPI 6.5, 5.2.6: all bytes of the table sum to zero */
	if (tp_acpi_sum(t, tlen)) {
		*why = "SPCR checksum bad";
		return -4;
	}
	return 0;
}

/* SPCR Baud Rate: 3 = 9600, 4 = 19200, 6 = 57600, 7 = 115200; 0 = as is
 * (rev. 1.04+: the firmware or loader configured it). -1 for the others. */
static int64_t baud_of(uint8_t code)
{
	switch (code) {
	case 0: return 0;
	case 3: return 9600;
	case 4: return 19200;
	case 6: return 57600;
	case 7: return 115200;
	default: return -1;
	}
}

/* Where the UART's registers are: I/O port or memory with its access width. */
static int address_kind(struct tp_spcr *s, const char **why)
{
	uint8_t access;

	if (s->space == ACPI_GAS_IO) {
		if (s->address > 0xffff) {
			*why = "I/O port above 0xffff";
			return -8;
		}
		s->iotype = "io";
		for (int i = 0; i < 4; i++)
			if (s->address == legacy_ports[i])
				s->tty = i;
		return 0;
	}
	if (s->space != ACPI_GAS_MEMORY) {
		*why = "base address neither in system memory nor I/O space";
		return -9;
	}
	/* ACPI 6.5, 5.2.3.2: Access Size 1 byte, 2 word, 3 dword, 4 qword,
	 * 0 "undefined (legacy reasons)": then the register bit width says */
	access = s->access_size;
	if (!access)
		access = s->bit_width == 32 ? 3 : s->bit_width == 16 ? 2 : 1;
	switch (access) {
	case 1: s->iotype = "mmio"; break;
	case 2: s->iotype = "mmio16"; break;
	case 3: s->iotype = "mmio32"; break;
	default:
		*why = "64-bit register access is not supported by the 8250 driver";
		return -10;
	}
	return 0;
}

int tp_spcr_parse(const void *table, size_t len, struct tp_spcr *s, const char **why)
{
	const uint8_t *t = table, *gas;
	int64_t baud;
	int rc;

	*s = (struct tp_spcr){ .tty = -1 };
	*why = 0;
	if ((rc = check_header(t, len, why)) != 0)
		return rc;
	s->revision = t[8];
	s->interface_type = t[SPCR_INTERFACE_TYPE];
	gas = t + SPCR_BASE_ADDRESS;
	s->space = gas[0];
	s->bit_width = gas[1];
	s->access_size = gas[3];
	s->address = le64(gas + 4);
	s->baud_code = t[SPCR_BAUD_RATE];

	/* drivers/acpi/spcr.c: these subtypes are driven by 8250 ("uart") */
	switch (s->interface_type) {
	case DBG2_16550_FULL:
	case DBG2_16550_SUBSET:
	case DBG2_16550_NVIDIA:
	case DBG2_16550_GAS:
		break;
	default:
		*why = "interface type is not a 16550-compatible UART";
		return -5;
	}
	/* SPCR: "a value of 0 ... indicates that console redirection is disabled" */
	if (!s->address) {
		*why = "base address is 0 (redirection disabled)";
		return -6;
	}
	if ((baud = baud_of(s->baud_code)) < 0) {
		*why = "unknown baud rate code";
		return -7;
	}
	s->baud = (uint32_t)baud;
	return address_kind(s, why);
}

void tp_spcr_console_word(const struct tp_spcr *s, struct tp_buf *b)
{
	tp_buf_puts(b, "console=");
	if (s->tty >= 0) {
		tp_buf_puts(b, "ttyS");
		tp_buf_putu(b, (uint64_t)s->tty);
	} else {
		/* Documentation/admin-guide/kernel-parameters.txt, console=:
		 * uart8250,io|mmio|mmio16|mmio32,<addr>[,options] */
		tp_buf_puts(b, "uart8250,");
		tp_buf_puts(b, s->iotype);
		tp_buf_puts(b, ",0x");
		tp_buf_puthex(b, s->address, 1);
	}
	if (s->baud) {
		tp_buf_putc(b, ',');
		tp_buf_putu(b, s->baud);
	}
}

/* Parses a decimal or 0x-hex number of n bytes; returns 1 on success. */
static int parse_num(const char *v, size_t n, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;
	int base = 10;

	if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return 0;
	for (; i < n; i++) {
		char c = v[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return 0;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	*out = x;
	return 1;
}

static int has_prefix(const char *v, size_t n, const char *pre, size_t *len)
{
	size_t i;

	for (i = 0; pre[i]; i++)
		if (i >= n || v[i] != pre[i])
			return 0;
	*len = i;
	return 1;
}

/* One console= value against the UART. */
static int value_names(const char *v, size_t n, const struct tp_spcr *s)
{
	size_t k, start, end;
	uint64_t x;
	int is_io;

	if (has_prefix(v, n, "ttyS", &k)) {
		for (end = k; end < n && v[end] != ','; end++)
			;
		return s->tty >= 0 && parse_num(v + k, end - k, &x) && x == (uint64_t)s->tty;
	}
	if (!has_prefix(v, n, "uart8250,", &k) && !has_prefix(v, n, "uart,", &k))
		return 0;
	if (has_prefix(v + k, n - k, "io,", &start))
		is_io = 1;
	else if (has_prefix(v + k, n - k, "mmio", &start))
		is_io = 0;
	else
		return 0;
	/* skip "16," / "32," / "32be," / "," after mmio */
	start += k;
	while (start < n && v[start - 1] != ',')
		start++;
	for (end = start; end < n && v[end] != ','; end++)
		;
	if (!parse_num(v + start, end - start, &x))
		return 0;
	return x == s->address && is_io == (s->space == ACPI_GAS_IO);
}

int tp_spcr_console_named(const char *line, const struct tp_spcr *s)
{
	size_t pos = 0, vlen;
	const char *v;

	while ((v = tp_cmdline_next(line, tp_words[TPW_CONSOLE].name, &pos, &vlen)) != 0)
		if (value_names(v, vlen, s))
			return 1;
	return 0;
}

enum tp_spcr_add tp_spcr_console_add(char *line, const struct tp_spcr *s, struct tp_buf *w)
{
	size_t len = tp_strlen(line);
	struct tp_buf b;

	tp_spcr_console_word(s, w);
	if (tp_spcr_console_named(line, s))
		return TP_SPCR_NAMED;
	if (len + 1 + w->len > TP_CMDLINE_MAX)
		return TP_SPCR_NO_ROOM;
	tp_buf_init(&b, line + len, TP_CMDLINE_MAX + 1 - len);
	if (len)
		tp_buf_putc(&b, ' ');
	tp_buf_puts(&b, w->s);
	return TP_SPCR_ADDED;
}
