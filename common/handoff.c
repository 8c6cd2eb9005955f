// SPDX-License-Identifier: MIT
/* The stub's hand-off formats; see handoff.h and docs/stub.md. Freestanding. */
#include "handoff.h"
#include "le.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_val(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decimal s[0..n) into *v, at most 19 digits; -1 when not a number. */
static int dec_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (!n || n > 19)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* Hex s[0..n) of exactly n digits (n <= 16) into *v. */
static int hex_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (!n || n > 16)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int h = hex_val(s[i]);

		if (h < 0)
			return -1;
		x = x << 4 | (uint64_t)h;
	}
	*v = x;
	return 0;
}

/* ---- the calibration ---- */

void tp_calib_list_add(struct tp_buf *b, const char *ref, uint64_t hz, uint32_t spread_ppm)
{
	if (b->len)
		tp_buf_putc(b, ',');
	tp_buf_puts(b, ref);
	tp_buf_putc(b, ':');
	tp_buf_putu(b, hz);
	tp_buf_putc(b, ':');
	tp_buf_putu(b, spread_ppm);
}

const char *tp_calib_ref_check(const char *s, size_t n)
{
	if (!n || n > TP_CALIB_REF_MAX)
		return "a reference's name is 1 to " TP_STR(TP_CALIB_REF_MAX) " bytes";
	for (size_t i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !is_digit(s[i]) && s[i] != '_')
			return "a reference's name is [a-z0-9_]";
	return 0;
}

/* ---- GUID text ---- */

void tp_fmt_guid(struct tp_buf *b, const uint8_t g[16])
{
	/* Data1 (LE u32) - Data2 (LE u16) - Data3 (LE u16) - Data4[0..1] - [2..7] */
	tp_buf_puthex(b, le32(g), 8);
	tp_buf_putc(b, '-');
	tp_buf_puthex(b, (uint64_t)(g[4] | g[5] << 8), 4);
	tp_buf_putc(b, '-');
	tp_buf_puthex(b, (uint64_t)(g[6] | g[7] << 8), 4);
	tp_buf_putc(b, '-');
	for (int i = 8; i < 16; i++) {
		if (i == 10)
			tp_buf_putc(b, '-');
		tp_buf_puthex(b, g[i], 2);
	}
}

int tp_guid_parse(const char *s, size_t n, uint8_t g[16])
{
	uint64_t d1, d2, d3, d4, d5;

	if (n != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
		return -1;
	if (hex_u64(s, 8, &d1) || hex_u64(s + 9, 4, &d2) || hex_u64(s + 14, 4, &d3) ||
	    hex_u64(s + 19, 4, &d4) || hex_u64(s + 24, 12, &d5))
		return -1;
	for (int i = 0; i < 4; i++)
		g[i] = (uint8_t)(d1 >> (8 * i));
	g[4] = (uint8_t)d2;
	g[5] = (uint8_t)(d2 >> 8);
	g[6] = (uint8_t)d3;
	g[7] = (uint8_t)(d3 >> 8);
	g[8] = (uint8_t)(d4 >> 8);
	g[9] = (uint8_t)d4;
	for (int i = 0; i < 6; i++)
		g[10 + i] = (uint8_t)(d5 >> (8 * (5 - i)));
	return 0;
}

/* ---- bootpart ---- */

void tp_bootpart_fmt(struct tp_buf *b, const struct tp_bootpart *bp)
{
	if (bp->kind == TP_BOOTPART_GPT) {
		tp_buf_puts(b, "gpt:");
		tp_fmt_guid(b, bp->guid);
	} else if (bp->kind == TP_BOOTPART_MBR) {
		tp_buf_puts(b, "mbr:");
		tp_buf_puthex(b, bp->mbr_sig, 8);
		tp_buf_putc(b, ':');
		tp_buf_putu(b, bp->part);
	} else {
		tp_buf_puts(b, "unknown");
	}
}

const char *tp_bootpart_parse(const char *s, size_t n, struct tp_bootpart *bp)
{
	uint64_t sig, part;

	*bp = (struct tp_bootpart){ .kind = TP_BOOTPART_UNKNOWN };
	if (tp_streqn(s, n, "unknown"))
		return 0;
	if (n >= 4 && tp_streqn(s, 4, "gpt:")) {
		if (tp_guid_parse(s + 4, n - 4, bp->guid))
			return "gpt: wants a GUID 8-4-4-4-12 hex digits";
		bp->kind = TP_BOOTPART_GPT;
		return 0;
	}
	if (n >= 4 && tp_streqn(s, 4, "mbr:")) {
		if (n < 14 || s[12] != ':' || hex_u64(s + 4, 8, &sig))
			return "mbr: wants <8 hex digits>:<partition>";
		if (dec_u64(s + 13, n - 13, &part) || part < 1 || part > TP_MBR_PART_MAX)
			return "mbr: partition number not 1.." TP_STR(TP_MBR_PART_MAX);
		bp->kind = TP_BOOTPART_MBR;
		bp->mbr_sig = (uint32_t)sig;
		bp->part = (uint32_t)part;
		return 0;
	}
	return "not gpt:<guid>, mbr:<sig>:<n> or unknown";
}

const char *tp_bootpart_check(const char *s, size_t n)
{
	struct tp_bootpart bp;

	return tp_bootpart_parse(s, n, &bp);
}

void tp_bootpart_partuuid(struct tp_buf *b, const struct tp_bootpart *bp)
{
	if (bp->kind == TP_BOOTPART_GPT) {
		tp_fmt_guid(b, bp->guid);
	} else if (bp->kind == TP_BOOTPART_MBR) {
		tp_buf_puthex(b, bp->mbr_sig, 8);
		tp_buf_putc(b, '-');
		tp_buf_puthex(b, bp->part, 2);
	}
}

/* ---- firmware ---- */

static int fw_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit((char)c) ||
	       c == '.' || c == '_' || c == '-';
}

/* One byte of the vendor's UTF-8, encoded; 0 when it would pass the cap. */
static int fw_put_byte(struct tp_buf *b, unsigned char c, size_t *bytes)
{
	if (*bytes >= TP_FW_VENDOR_MAX)
		return 0;
	(*bytes)++;
	if (fw_plain(c)) {
		tp_buf_putc(b, (char)c);
	} else {
		tp_buf_putc(b, '%');
		tp_buf_puthex(b, c, 2);
	}
	return 1;
}

/* One UCS-2 code unit as UTF-8 (surrogate halves as U+FFFD); whole or nothing. */
static int fw_put_char(struct tp_buf *b, uint16_t c, size_t *bytes)
{
	unsigned char u[3];
	size_t n;

	if (c >= 0xd800 && c <= 0xdfff)
		c = 0xfffd;
	if (c < 0x80) {
		u[0] = (unsigned char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (unsigned char)(0xc0 | c >> 6);
		u[1] = (unsigned char)(0x80 | (c & 0x3f));
		n = 2;
	} else {
		u[0] = (unsigned char)(0xe0 | c >> 12);
		u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (unsigned char)(0x80 | (c & 0x3f));
		n = 3;
	}
	if (*bytes + n > TP_FW_VENDOR_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		fw_put_byte(b, u[i], bytes);
	return 1;
}

void tp_firmware_fmt(struct tp_buf *b, const uint16_t *vendor, uint32_t revision, uint32_t uefi)
{
	size_t bytes = 0;

	tp_buf_puthex(b, revision, 8);
	tp_buf_putc(b, ':');
	tp_buf_puthex(b, uefi, 8);
	tp_buf_putc(b, ':');
	for (size_t i = 0; vendor && vendor[i]; i++)
		if (!fw_put_char(b, vendor[i], &bytes))
			break;
}

const char *tp_firmware_parse(const char *s, size_t n, struct tp_firmware *fw)
{
	uint64_t rev, uefi;
	size_t o = 0;

	if (n < 18 || s[8] != ':' || s[17] != ':')
		return "not <8 hex>:<8 hex>:<vendor>";
	if (hex_u64(s, 8, &rev) || hex_u64(s + 9, 8, &uefi))
		return "a revision is not 8 hex digits";
	for (size_t i = 18; i < n; i++) {
		int hi, lo;
		unsigned char c = (unsigned char)s[i];

		if (o >= TP_FW_VENDOR_MAX)
			return "vendor longer than " TP_STR(TP_FW_VENDOR_MAX) " bytes";
		if (c != '%') {
			if (!fw_plain(c))
				return "vendor has a character that should be %-encoded";
			fw->vendor[o++] = (char)c;
			continue;
		}
		if (i + 2 >= n || (hi = hex_val(s[i + 1])) < 0 || (lo = hex_val(s[i + 2])) < 0)
			return "vendor has a % without two hex digits";
		if (!(hi | lo))
			return "vendor has %00";
		fw->vendor[o++] = (char)(hi << 4 | lo);
		i += 2;
	}
	fw->vendor[o] = 0;
	fw->revision = (uint32_t)rev;
	fw->uefi = (uint32_t)uefi;
	return 0;
}

const char *tp_firmware_check(const char *s, size_t n)
{
	struct tp_firmware fw;

	return tp_firmware_parse(s, n, &fw);
}

void tp_fmt_uefi_revision(struct tp_buf *b, uint32_t revision)
{
	uint32_t minor = revision & 0xffff;

	tp_buf_putu(b, revision >> 16);
	tp_buf_putc(b, '.');
	tp_buf_putu(b, minor / 10);
	if (minor % 10) {
		tp_buf_putc(b, '.');
		tp_buf_putu(b, minor % 10);
	}
}

/* ---- boot_tsc ---- */

/* Splits s[0..n) at ':' into at most max fields; returns how many, max + 1 if more. */
static size_t fields(const char *s, size_t n, const char **f, size_t *len, size_t max)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != ':')
			continue;
		if (k == max)
			return max + 1;
		f[k] = s + start;
		len[k++] = i - start;
		start = i + 1;
	}
	return k;
}

/* Decimals separated by ':'. */
static void put_u64s(struct tp_buf *b, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			tp_buf_putc(b, ':');
		tp_buf_putu(b, v[i]);
	}
}

/* The moments in the word's order. */
static uint64_t *boot_tsc_at(struct tp_boot_tsc *t, size_t i)
{
	uint64_t *const at[TP_BOOT_TSC_N] = { &t->entry, &t->calib_start, &t->calibrated,
					      &t->scan_start, &t->scanned, &t->handover };

	return at[i];
}

void tp_boot_tsc_fmt(struct tp_buf *b, const struct tp_boot_tsc *t)
{
	const uint64_t v[TP_BOOT_TSC_N] = { t->entry, t->calib_start, t->calibrated, t->scan_start,
					    t->scanned, t->handover };

	put_u64s(b, v, TP_BOOT_TSC_N);
}

const char *tp_boot_tsc_parse(const char *s, size_t n, struct tp_boot_tsc *t)
{
	const char *f[TP_BOOT_TSC_N];
	size_t len[TP_BOOT_TSC_N];

	*t = (struct tp_boot_tsc){ 0 };
	if (n > TP_BOOT_TSC_WORD_MAX || fields(s, n, f, len, TP_BOOT_TSC_N) != TP_BOOT_TSC_N)
		return "not entry:calib_start:calibrated:scan_start:scanned:handover";
	for (size_t i = 0; i < TP_BOOT_TSC_N; i++) {
		if (dec_u64(f[i], len[i], boot_tsc_at(t, i)))
			return "a TSC value is not a decimal";
		if (i && *boot_tsc_at(t, i) < *boot_tsc_at(t, i - 1))
			return "the TSC values do not rise";
	}
	return 0;
}

const char *tp_boot_tsc_check(const char *s, size_t n)
{
	struct tp_boot_tsc t;

	return tp_boot_tsc_parse(s, n, &t);
}
