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

/* ---- timeprobe.tsc_calib ---- */

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

size_t tp_calib_list_next(const char *list, size_t *pos, const char **item)
{
	size_t i = *pos, n;

	if (!list)
		return 0;
	while (list[i] == ',')
		i++;
	*item = list + i;
	for (n = 0; list[i] && list[i] != ','; i++)
		n++;
	*pos = i;
	return n;
}

/* "12" or "1.5": ppm with up to 3 decimals, as thousandths. */
static const char *parse_spread(const char *s, size_t n, uint64_t *mppm)
{
	size_t dot = 0, frac;
	uint64_t whole, part = 0;

	while (dot < n && s[dot] != '.')
		dot++;
	frac = dot < n ? n - dot - 1 : 0;
	if (dec_u64(s, dot, &whole) || whole > 1000000000 || (dot < n && !frac) || frac > 3 ||
	    (frac && dec_u64(s + dot + 1, frac, &part)))
		return "spread_ppm not a non-negative number (up to 3 decimals)";
	for (; frac < 3; frac++)
		part *= 10;
	*mppm = whole * 1000 + part;
	return 0;
}

const char *tp_calib_item_parse(const char *s, size_t n, struct tp_calib_item *it)
{
	size_t c1 = 0, c2, c3;
	uint64_t hz;
	const char *why;

	it->ref[0] = 0;
	it->hz = 0;
	it->spread_mppm = 0;
	while (c1 < n && s[c1] != ':')
		c1++;
	for (c2 = c1 + (c1 < n); c2 < n && s[c2] != ':'; c2++)
		;
	for (c3 = c2 + (c2 < n); c3 < n && s[c3] != ':'; c3++)
		;
	if (c2 >= n)
		return "fewer than 3 fields (want ref:hz:spread_ppm)";
	if (c3 < n)
		return "more than 3 fields (want ref:hz:spread_ppm)";
	if (c1 == 0 || c1 > TP_CALIB_REF_MAX)
		return "reference name empty or longer than 15";
	for (size_t i = 0; i < c1; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !is_digit(s[i]) && s[i] != '_')
			return "reference name not [a-z0-9_]";
	if (dec_u64(s + c1 + 1, c2 - c1 - 1, &hz))
		return "hz not an integer";
	if (hz < TP_CALIB_HZ_MIN || hz > TP_CALIB_HZ_MAX)
		return "hz out of range 1e6..1e11";
	why = parse_spread(s + c2 + 1, n - c2 - 1, &it->spread_mppm);
	if (why)
		return why;
	for (size_t i = 0; i < c1; i++)
		it->ref[i] = s[i];
	it->ref[c1] = 0;
	it->hz = (int64_t)hz;
	return 0;
}

const char *tp_calib_list_check(const char *s, size_t n)
{
	struct tp_calib_item it;
	const char *why;

	/* the list is one word: split it on commas within n bytes */
	for (size_t i = 0; i < n;) {
		size_t len = 0;

		while (i + len < n && s[i + len] != ',')
			len++;
		if (len && (why = tp_calib_item_parse(s + i, len, &it)) != 0)
			return why;
		i += len + 1;
	}
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

/* ---- timeprobe.bootpart ---- */

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
		if (dec_u64(s + 13, n - 13, &part) || part < 1 || part > 255)
			return "mbr: partition number not 1..255";
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

/* ---- timeprobe.firmware ---- */

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
			return "vendor longer than 64 bytes";
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

/* ---- timeprobe.tsc_preos ---- */

/* Signed decimal s[0..n) into *v; -1 when not one or outside int64_t. */
static int dec_i64(const char *s, size_t n, int64_t *v)
{
	uint64_t x = 0;
	int neg = n && s[0] == '-';

	if (n - (size_t)neg == 0 || n - (size_t)neg > 19)
		return -1;
	for (size_t i = (size_t)neg; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');	/* 19 digits: no wrap */
	}
	if (x > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

static void preos_put_adjust(struct tp_buf *b, const struct tp_preos_adjust *a)
{
	tp_buf_putc(b, ':');
	if (a->present)
		tp_buf_puti(b, a->value);
	else
		tp_buf_putc(b, 'x');
}

size_t tp_preos_fmt(struct tp_buf *b, const struct tp_preos *p)
{
	size_t start = b->len, n = p->n < TP_PREOS_MAX_APS ? p->n : TP_PREOS_MAX_APS;

	tp_buf_putu(b, p->bsp_apic);
	preos_put_adjust(b, &p->bsp_adjust);
	for (size_t i = 0; i < n; i++) {
		const struct tp_preos_pair *e = &p->pair[i];
		size_t before = b->len;

		tp_buf_putc(b, ',');
		tp_buf_putu(b, e->apic);
		tp_buf_putc(b, ':');
		tp_buf_puti(b, e->lo_ticks);
		tp_buf_putc(b, ':');
		tp_buf_puti(b, e->hi_ticks);
		tp_buf_putc(b, ':');
		tp_buf_putu(b, e->rtt_ticks);
		tp_buf_putc(b, ':');
		tp_buf_putu(b, e->samples);
		tp_buf_putc(b, ':');
		tp_buf_putc(b, e->consistent ? '1' : '0');
		preos_put_adjust(b, &e->adjust);
		if (b->overflow || b->len - start > TP_PREOS_WORD_MAX) {
			/* this entry does not fit: none after it is tried */
			b->len = before;
			b->overflow = 0;
			b->s[before] = 0;
			return n - i;
		}
	}
	return 0;
}

/* Splits s[0..n) at ':' into at most max fields; returns how many, max + 1 if more. */
static size_t preos_fields(const char *s, size_t n, const char **f, size_t *len, size_t max)
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

static const char *preos_adjust(const char *s, size_t n, struct tp_preos_adjust *a)
{
	a->present = !(n == 1 && s[0] == 'x');
	a->value = 0;
	if (a->present && dec_i64(s, n, &a->value))
		return "TSC_ADJUST not a signed decimal or x";
	return 0;
}

static const char *preos_apic(const char *s, size_t n, uint32_t *apic)
{
	uint64_t v;

	if (dec_u64(s, n, &v) || v > 0xffffffffu)
		return "APIC ID not a decimal 0..4294967295";
	*apic = (uint32_t)v;
	return 0;
}

/* One AP entry: apic:lo:hi:rtt:samples:c:adj. */
static const char *preos_pair(const char *s, size_t n, struct tp_preos_pair *e)
{
	const char *f[7], *why;
	size_t len[7];

	if (preos_fields(s, n, f, len, 7) != 7)
		return "an AP entry is not apic:lo:hi:rtt:samples:c:adj";
	if ((why = preos_apic(f[0], len[0], &e->apic)) != 0)
		return why;
	if (dec_i64(f[1], len[1], &e->lo_ticks) || dec_i64(f[2], len[2], &e->hi_ticks))
		return "lo or hi not a signed decimal";
	if (dec_u64(f[3], len[3], &e->rtt_ticks) || e->rtt_ticks > INT64_MAX)
		return "rtt not a decimal";
	if (dec_u64(f[4], len[4], &e->samples) || !e->samples)
		return "samples not a decimal >= 1";
	if (len[5] != 1 || (f[5][0] != '0' && f[5][0] != '1'))
		return "consistency flag not 0 or 1";
	e->consistent = f[5][0] == '1';
	if (e->lo_ticks > e->hi_ticks ||
	    (uint64_t)e->hi_ticks - (uint64_t)e->lo_ticks > e->rtt_ticks)
		return "interval not lo <= hi within one round trip";
	return preos_adjust(f[6], len[6], &e->adjust);
}

const char *tp_preos_parse(const char *s, size_t n, struct tp_preos *p)
{
	const char *f[2], *why;
	size_t len[2], i = 0, end;

	*p = (struct tp_preos){ 0 };
	if (n > TP_PREOS_WORD_MAX)
		return "longer than 767 bytes";
	for (end = 0; end < n && s[end] != ','; end++)
		;
	if (preos_fields(s, end, f, len, 2) != 2)
		return "the BSP entry is not apic:adj";
	if ((why = preos_apic(f[0], len[0], &p->bsp_apic)) != 0 ||
	    (why = preos_adjust(f[1], len[1], &p->bsp_adjust)) != 0)
		return why;
	for (i = end + 1; i <= n && end < n; i = end + 1) {
		struct tp_preos_pair *e = &p->pair[p->n];

		for (end = i; end < n && s[end] != ','; end++)
			;
		if (p->n == TP_PREOS_MAX_APS)
			return "more than 15 AP entries";
		if ((why = preos_pair(s + i, end - i, e)) != 0)
			return why;
		if (e->apic == p->bsp_apic)
			return "an AP entry has the BSP's APIC ID";
		for (size_t k = 0; k < p->n; k++)
			if (p->pair[k].apic == e->apic)
				return "two AP entries with one APIC ID";
		p->n++;
	}
	return 0;
}

const char *tp_preos_check(const char *s, size_t n)
{
	struct tp_preos p;

	return tp_preos_parse(s, n, &p);
}

/* ---- timeprobe.hwlat_preos ---- */

/* Decimals separated by ':'. */
static void put_u64s(struct tp_buf *b, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			tp_buf_putc(b, ':');
		tp_buf_putu(b, v[i]);
	}
}

static void hwlat_put_cpu(struct tp_buf *b, const struct tp_hwlat_word_cpu *c)
{
	const uint64_t v[] = { c->apic, c->coverage_ppm, c->count, c->max_ns, c->total_ns };

	tp_buf_putc(b, ',');
	if (!c->reported) {
		tp_buf_putu(b, c->apic);
		tp_buf_puts(b, ":-");
		return;
	}
	put_u64s(b, v, 5);
	tp_buf_putc(b, ':');
	if (c->smi_read)
		tp_buf_putu(b, c->smi);
	else
		tp_buf_putc(b, 'x');
}

size_t tp_hwlat_word_fmt(struct tp_buf *b, const struct tp_hwlat_word *w)
{
	size_t start = b->len, n = w->n < TP_HWLAT_WORD_CPUS ? w->n : TP_HWLAT_WORD_CPUS;
	const uint64_t head[] = { w->window_ms, w->thresh_us, w->system_wide, w->system_wide_max_ns };

	put_u64s(b, head, 4);
	for (size_t i = 0; i < n; i++) {
		size_t before = b->len;

		hwlat_put_cpu(b, &w->cpu[i]);
		if (b->overflow || b->len - start > TP_HWLAT_WORD_MAX) {
			b->len = before;
			b->overflow = 0;
			b->s[before] = 0;
			return w->n - i;
		}
	}
	return w->n - n;
}

/* Decimal into *v when it is at most max. */
static int dec_max(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	return dec_u64(s, n, v) || *v > max ? -1 : 0;
}

static const char *hwlat_cpu(const char *s, size_t n, struct tp_hwlat_word_cpu *c)
{
	const char *f[6], *why;
	size_t len[6], k = preos_fields(s, n, f, len, 6);
	uint64_t cov;

	*c = (struct tp_hwlat_word_cpu){ 0 };
	if (k < 2 || (why = preos_apic(f[0], len[0], &c->apic)) != 0)
		return k < 2 ? "a CPU entry is not apic:cov:count:max:total:smi or apic:-" : why;
	if (k == 2 && len[1] == 1 && f[1][0] == '-')
		return 0;
	if (k != 6)
		return "a CPU entry is not apic:cov:count:max:total:smi or apic:-";
	c->reported = 1;
	if (dec_max(f[1], len[1], 1000000, &cov))
		return "coverage not 0..1000000 ppm";
	c->coverage_ppm = (uint32_t)cov;
	if (dec_u64(f[2], len[2], &c->count) || dec_u64(f[3], len[3], &c->max_ns) ||
	    dec_u64(f[4], len[4], &c->total_ns))
		return "count, max or total not a decimal";
	if (c->max_ns > c->total_ns || (c->count && !c->max_ns) || (!c->count && c->total_ns))
		return "max, total and count disagree";
	c->smi_read = !(len[5] == 1 && f[5][0] == 'x');
	if (c->smi_read && dec_u64(f[5], len[5], &c->smi))
		return "SMI count not a decimal or x";
	return 0;
}

static const char *hwlat_head(const char *s, size_t n, struct tp_hwlat_word *w)
{
	const char *f[4];
	size_t len[4];
	uint64_t v[3];

	if (preos_fields(s, n, f, len, 4) != 4)
		return "the head is not window_ms:thresh_us:system_wide:max_ns";
	if (dec_max(f[0], len[0], 0xffffffffu, &v[0]) || dec_max(f[1], len[1], 0xffffffffu, &v[1]) ||
	    dec_max(f[2], len[2], 0xffffffffu, &v[2]) || dec_u64(f[3], len[3], &w->system_wide_max_ns))
		return "the head's fields are not decimals";
	w->window_ms = (uint32_t)v[0];
	w->thresh_us = (uint32_t)v[1];
	w->system_wide = (uint32_t)v[2];
	return 0;
}

const char *tp_hwlat_word_parse(const char *s, size_t n, struct tp_hwlat_word *w)
{
	const char *why;
	size_t i, end;

	*w = (struct tp_hwlat_word){ 0 };
	if (n > TP_HWLAT_WORD_MAX)
		return "longer than 767 bytes";
	for (end = 0; end < n && s[end] != ','; end++)
		;
	if ((why = hwlat_head(s, end, w)) != 0)
		return why;
	for (i = end + 1; i <= n && end < n; i = end + 1) {
		struct tp_hwlat_word_cpu *c = &w->cpu[w->n];

		for (end = i; end < n && s[end] != ','; end++)
			;
		if (w->n == TP_HWLAT_WORD_CPUS)
			return "more than 32 CPU entries";
		if ((why = hwlat_cpu(s + i, end - i, c)) != 0)
			return why;
		for (size_t k = 0; k < w->n; k++)
			if (w->cpu[k].apic == c->apic)
				return "two CPU entries with one APIC ID";
		w->n++;
	}
	return 0;
}

const char *tp_hwlat_word_check(const char *s, size_t n)
{
	static struct tp_hwlat_word w;	/* 1.6 KiB: off the stub's stack */

	return tp_hwlat_word_parse(s, n, &w);
}

/* ---- timeprobe.boot_tsc ---- */

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
	if (n > TP_BOOT_TSC_WORD_MAX || preos_fields(s, n, f, len, TP_BOOT_TSC_N) != TP_BOOT_TSC_N)
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
