// SPDX-License-Identifier: MIT
/* The kernel hand-off; see bootcmd.h and docs/stub.md. EFI-free. */
#include "bootcmd.h"
#include "../common/le.h"
#include "../common/record.h"

static int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* ---- cmdline.txt ---- */

/* Appends one code point as UTF-8. */
static void put_utf8(struct tp_buf *b, uint32_t cp)
{
	if (cp < 0x80) {
		tp_buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		tp_buf_putc(b, (char)(0xc0 | cp >> 6));
		tp_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
	} else {
		tp_buf_putc(b, (char)(0xe0 | cp >> 12));
		tp_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		tp_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
	}
}

/*
 * The cleaner reads the input as a stream of bytes (UTF-16LE input is first
 * turned into UTF-8 one unit at a time) and keeps a little state: where the
 * current line started, whether it is a comment, whether we are in quotes.
 */
struct cleaner {
	struct tp_buf out;
	size_t word_end;	/* out.len after the last complete word */
	int at_line_start;	/* nothing but blanks seen on this line */
	int in_comment;
	int in_quotes;
	int pending_space;	/* a separator is due before the next byte */
};

static void clean_byte(struct cleaner *c, unsigned char ch)
{
	/* controls count as blanks: collapsed outside quotes, kept as ' ' inside */
	int blank = is_blank(ch) || ch < 0x20 || ch == 0x7f;

	if (ch == '\n') {
		c->at_line_start = 1;
		c->in_comment = 0;
		/* A newline ends a word even inside an unbalanced quote. */
		c->in_quotes = 0;
		if (c->out.len)
			c->pending_space = 1;
		return;
	}
	if (c->in_comment)
		return;
	if (c->at_line_start && blank)
		return;
	if (c->at_line_start && ch == '#') {
		c->in_comment = 1;
		return;
	}
	c->at_line_start = 0;
	if (!c->in_quotes && blank) {
		if (c->out.len)
			c->pending_space = 1;
		return;
	}
	if (blank)
		ch = ' ';
	if (c->pending_space) {
		if (!c->out.overflow)
			c->word_end = c->out.len;
		tp_buf_putc(&c->out, ' ');
		c->pending_space = 0;
	}
	if (ch == '"')
		c->in_quotes = !c->in_quotes;
	tp_buf_putc(&c->out, (char)ch);
}

size_t tp_cmdline_clean(char *out, size_t cap, const void *in, size_t in_len, int *cut)
{
	const unsigned char *p = in;
	struct cleaner c = { .at_line_start = 1 };

	tp_buf_init(&c.out, out, cap);
	if (in_len >= 2 && p[0] == 0xff && p[1] == 0xfe) {
		/* UTF-16LE with BOM: what some Windows editors write */
		for (size_t i = 2; i + 1 < in_len; i += 2) {
			uint32_t u = (uint32_t)(p[i] | p[i + 1] << 8);
			char tmp[4];
			struct tp_buf t;

			if (u == 0)
				break;
			if (u >= 0xd800 && u < 0xe000)
				u = 0xfffd;
			tp_buf_init(&t, tmp, sizeof(tmp));
			put_utf8(&t, u);
			for (size_t k = 0; k < t.len; k++)
				clean_byte(&c, (unsigned char)tmp[k]);
		}
	} else {
		size_t i = 0;

		if (in_len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
			i = 3;
		for (; i < in_len; i++) {
			if (p[i] == 0)
				break;
			clean_byte(&c, p[i]);
		}
	}
	if (!c.out.overflow)
		c.word_end = c.out.len;
	if (c.out.overflow) {
		/* Cut back to the last complete word. */
		c.out.len = c.word_end;
		if (cap)
			out[c.out.len] = 0;
	}
	if (cut)
		*cut = c.out.overflow;
	return c.out.len;
}

/* ---- parameter lookup ---- */

/* Next word of line at *pos: sets *start and returns its length (0 at end). */
static size_t next_word(const char *line, size_t *pos, const char **start)
{
	size_t i = *pos, n;
	int q = 0;

	while (line[i] == ' ')
		i++;
	*start = line + i;
	for (n = 0; line[i]; i++, n++) {
		if (line[i] == '"')
			q = !q;
		else if (line[i] == ' ' && !q)
			break;
	}
	*pos = i;
	return n;
}

const char *tp_cmdline_next(const char *line, const char *name, size_t *pos, size_t *vlen)
{
	size_t nl = tp_strlen(name), wl;
	const char *w;

	if (!line)
		return 0;
	while ((wl = next_word(line, pos, &w)) != 0) {
		size_t i;

		if (wl < nl)
			continue;
		for (i = 0; i < nl && w[i] == name[i]; i++)
			;
		if (i < nl)
			continue;
		if (wl == nl) {
			*vlen = 0;
			return w + wl;
		}
		if (w[nl] == '=') {
			*vlen = wl - nl - 1;
			return w + nl + 1;
		}
	}
	return 0;
}

const char *tp_cmdline_find(const char *line, const char *name, size_t *vlen)
{
	size_t pos = 0, n;
	const char *v, *found = 0;

	while ((v = tp_cmdline_next(line, name, &pos, &n)) != 0) {
		found = v;
		*vlen = n;
	}
	return found;
}

int tp_cmdline_get_uint(const char *line, const char *name, uint64_t *v)
{
	size_t n = 0;
	const char *s = tp_cmdline_find(line, name, &n);
	uint64_t x = 0;

	if (!s || n == 0 || n > 19)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 1;
}

int tp_cmdline_value_is(const char *line, const char *name, const char *val)
{
	size_t n = 0, vl = tp_strlen(val);
	const char *s = tp_cmdline_find(line, name, &n);

	if (!s || n != vl)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != val[i])
			return 0;
	return 1;
}

unsigned int tp_cmdline_drop(char *line, const char *name)
{
	size_t nl = tp_strlen(name), pos = 0, out = 0, wl;
	unsigned int dropped = 0;
	const char *w;

	if (!line)
		return 0;
	/* words move only leftwards: copying in place is safe */
	while ((wl = next_word(line, &pos, &w)) != 0) {
		size_t i;

		for (i = 0; i < nl && i < wl && w[i] == name[i]; i++)
			;
		if (i == nl && (wl == nl || w[nl] == '=')) {
			dropped++;
			continue;
		}
		if (out)
			line[out++] = ' ';
		for (i = 0; i < wl; i++)
			line[out++] = w[i];
	}
	line[out] = 0;
	return dropped;
}

/* ---- assembly ---- */

int tp_cmdline_assemble(char *out, size_t cap, const char *user,
			const struct tp_cmdline_extras *x, struct tp_cmdline_report *rep)
{
	char ess[512], opt[512];
	struct tp_buf e, o, b;
	size_t ul = tp_strlen(user), keep, pos;
	int dropped = 0;

	rep->added_panic = 0;
	rep->added_tsc_early = 0;
	rep->dropped_tsc_calib = 0;
	rep->user_words_dropped = 0;
	rep->len = 0;
	if (cap < TP_CMDLINE_MAX + 1)
		return -1;

	/* The stub's essential parameters, each preceded by a space. */
	tp_buf_init(&e, ess, sizeof(ess));
	if (!tp_cmdline_find(user, "panic", &pos)) {
		/* reboot 10 s after a panic instead of hanging the appliance */
		tp_buf_puts(&e, " panic=10");
		rep->added_panic = 1;
	}
	if (x->tsc_hz) {
		if (!tp_cmdline_find(user, "tsc_early_khz", &pos) &&
		    !tp_cmdline_value_is(user, "timeprobe.tsc_early", "off")) {
			tp_buf_puts(&e, " tsc_early_khz=");
			tp_buf_putu(&e, (x->tsc_hz + 500) / 1000);
			rep->added_tsc_early = 1;
		}
		tp_buf_puts(&e, " timeprobe.tsc_hz=");
		tp_buf_putu(&e, x->tsc_hz);
		tp_buf_puts(&e, " timeprobe.tsc_ref=");
		tp_buf_puts(&e, x->tsc_ref ? x->tsc_ref : "none");
	}
	tp_buf_puts(&e, " timeprobe.bootpart=");
	tp_buf_puts(&e, x->bootpart ? x->bootpart : "unknown");

	tp_buf_init(&o, opt, sizeof(opt));
	if (x->tsc_calib && x->tsc_calib[0]) {
		tp_buf_puts(&o, " timeprobe.tsc_calib=");
		tp_buf_puts(&o, x->tsc_calib);
	}
	if (o.overflow) {
		o.len = 0;
		dropped = rep->dropped_tsc_calib = 1;
	}

	/* What fits of the user's line, cut at a word boundary. */
	keep = ul;
	if (keep + e.len + o.len > TP_CMDLINE_MAX && o.len) {
		o.len = 0;
		dropped = rep->dropped_tsc_calib = 1;
	}
	if (keep + e.len > TP_CMDLINE_MAX) {
		size_t room = TP_CMDLINE_MAX > e.len ? TP_CMDLINE_MAX - e.len : 0;
		const char *w;
		size_t wl;

		keep = 0;
		pos = 0;
		while ((wl = next_word(user, &pos, &w)) != 0) {
			if ((size_t)(w - user) + wl <= room)
				keep = (size_t)(w - user) + wl;
			else
				rep->user_words_dropped++;
		}
		dropped = 1;
	}

	tp_buf_init(&b, out, cap);
	tp_buf_putn(&b, user ? user : "", keep);
	/* no leading space when cmdline.txt was empty */
	tp_buf_putn(&b, ess + (b.len ? 0 : 1), e.len - (b.len ? 0 : 1));
	tp_buf_putn(&b, opt, o.len);
	rep->len = b.len;
	return dropped;
}

/* ---- device path ---- */

/* UEFI 2.10, 10.3.1 Generic Device Path Structures */
#define DP_TYPE_MEDIA 0x04
#define DP_MEDIA_HARDDRIVE 0x01
#define DP_TYPE_END 0x7f
#define DP_END_ENTIRE 0xff
#define DP_HD_LEN 42

int tp_devpath_find_hd(const void *dp, size_t max_len, struct tp_hd_node *hd)
{
	const uint8_t *p = dp;
	size_t off = 0;
	int found = 0;

	while (p && off + 4 <= max_len) {
		uint8_t type = p[off], sub = p[off + 1];
		uint16_t len = (uint16_t)(p[off + 2] | p[off + 3] << 8);

		if (type == DP_TYPE_END && sub == DP_END_ENTIRE)
			return found ? 0 : -1;
		if (len < 4 || off + len > max_len)
			return -1;
		if (type == DP_TYPE_MEDIA && sub == DP_MEDIA_HARDDRIVE && len >= DP_HD_LEN) {
			const uint8_t *n = p + off;

			hd->part_number = le32(n + 4);
			hd->part_start = le64(n + 8);
			hd->part_size = le64(n + 16);
			for (int i = 0; i < 16; i++)
				hd->signature[i] = n[24 + i];
			hd->mbr_type = n[40];
			hd->sig_type = n[41];
			found = 1;
		}
		off += len;
	}
	return -1;
}

void tp_bootpart_format(struct tp_buf *b, const struct tp_hd_node *hd)
{
	struct tp_bootpart bp = { .kind = TP_BOOTPART_UNKNOWN };

	if (hd->sig_type == 2) {
		bp.kind = TP_BOOTPART_GPT;
		for (int i = 0; i < 16; i++)
			bp.guid[i] = hd->signature[i];
	} else if (hd->sig_type == 1) {
		/* the MBR disk signature, offset 0x1b8 of the MBR, as a LE u32 */
		bp.kind = TP_BOOTPART_MBR;
		bp.mbr_sig = le32(hd->signature);
		bp.part = hd->part_number;
	}
	tp_bootpart_fmt(b, &bp);
}

/* ---- kernel header ---- */

#define PE_MACHINE_X64 0x8664
#define PE_OPT_MAGIC_PE32PLUS 0x20b
#define PE_SUBSYSTEM_EFI_APPLICATION 10
/* Linux x86 boot protocol (Documentation/x86/boot.rst) */
#define LINUX_HDR_MAGIC_OFF 0x202
#define LINUX_HDR_VERSION_OFF 0x206
#define LINUX_HDR_KVER_OFF 0x20e

int tp_kernel_check(const void *buf, size_t len, struct tp_kernel_info *ki, const char **why)
{
	const uint8_t *p = buf;
	uint32_t pe;

	ki->machine = 0;
	ki->subsystem = 0;
	ki->is_linux = 0;
	ki->boot_protocol = 0;
	ki->version[0] = 0;
	*why = 0;
	if (!p || len < 0x40 || p[0] != 'M' || p[1] != 'Z') {
		*why = "no MZ signature";
		return -1;
	}
	pe = le32(p + 0x3c);	/* e_lfanew */
	/* PE signature, COFF header (20), PE32+ optional header up to Subsystem */
	if (pe > len || len - pe < 4 + 20 + 70) {
		*why = "PE header offset out of range";
		return -2;
	}
	if (p[pe] != 'P' || p[pe + 1] != 'E' || p[pe + 2] || p[pe + 3]) {
		*why = "no PE signature";
		return -3;
	}
	ki->machine = (uint16_t)(p[pe + 4] | p[pe + 5] << 8);
	if (ki->machine != PE_MACHINE_X64) {
		*why = "PE machine is not x86-64";
		return -4;
	}
	if ((p[pe + 24] | p[pe + 25] << 8) != PE_OPT_MAGIC_PE32PLUS) {
		*why = "not a PE32+ image";
		return -5;
	}
	ki->subsystem = (uint16_t)(p[pe + 24 + 68] | p[pe + 24 + 69] << 8);
	if (ki->subsystem != PE_SUBSYSTEM_EFI_APPLICATION) {
		*why = "PE subsystem is not EFI application";
		return -6;
	}
	if (len > LINUX_HDR_KVER_OFF + 2 && p[0x202] == 'H' && p[0x203] == 'd' &&
	    p[0x204] == 'r' && p[0x205] == 'S') {
		uint32_t kv = (uint32_t)(p[LINUX_HDR_KVER_OFF] | p[LINUX_HDR_KVER_OFF + 1] << 8);
		size_t n = 0;

		ki->is_linux = 1;
		ki->boot_protocol =
			(uint16_t)(p[LINUX_HDR_VERSION_OFF] | p[LINUX_HDR_VERSION_OFF + 1] << 8);
		/* kernel_version: offset from 0x200 of a NUL-terminated string */
		if (kv) {
			kv += 0x200;
			while (kv + n < len && n < sizeof(ki->version) - 1 && p[kv + n] >= 0x20 &&
			       p[kv + n] < 0x7f) {
				ki->version[n] = (char)p[kv + n];
				n++;
			}
		}
		ki->version[n] = 0;
	}
	return 0;
}

/* ---- text ---- */

size_t tp_utf8_to_ucs2(uint16_t *out, size_t cap_units, const char *in)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = 0;

	if (!cap_units)
		return 0;
	while (*p && n + 1 < cap_units) {
		uint32_t cp;
		int extra;

		if (p[0] < 0x80) {
			cp = p[0];
			extra = 0;
		} else if ((p[0] & 0xe0) == 0xc0) {
			cp = p[0] & 0x1f;
			extra = 1;
		} else if ((p[0] & 0xf0) == 0xe0) {
			cp = p[0] & 0x0f;
			extra = 2;
		} else if ((p[0] & 0xf8) == 0xf0) {
			cp = p[0] & 0x07;
			extra = 3;
		} else {
			out[n++] = '?';
			p++;
			continue;
		}
		p++;
		for (int i = 0; i < extra; i++) {
			if ((*p & 0xc0) != 0x80) {
				cp = '?';
				extra = -1;
				break;
			}
			cp = cp << 6 | (*p++ & 0x3f);
		}
		if (extra == 3 || (cp >= 0xd800 && cp < 0xe000))
			cp = 0xfffd;
		out[n++] = (uint16_t)cp;
	}
	out[n] = 0;
	return n;
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

/* UEFI 2.10, Appendix D: error codes have the high bit set. */
static const char *const efi_errors[] = {
	[1] = "Load Error", [2] = "Invalid Parameter", [3] = "Unsupported",
	[4] = "Bad Buffer Size", [5] = "Buffer Too Small", [6] = "Not Ready",
	[7] = "Device Error", [8] = "Write Protected", [9] = "Out of Resources",
	[10] = "Volume Corrupted", [11] = "Volume Full", [12] = "No Media",
	[13] = "Media Changed", [14] = "Not Found", [15] = "Access Denied",
	[16] = "No Response", [17] = "No Mapping", [18] = "Timeout",
	[19] = "Not Started", [20] = "Already Started", [21] = "Aborted",
	[22] = "ICMP Error", [23] = "TFTP Error", [24] = "Protocol Error",
	[25] = "Incompatible Version", [26] = "Security Violation",
	[27] = "CRC Error", [28] = "End of Media", [31] = "End of File",
	[32] = "Invalid Language", [33] = "Compromised Data",
	[34] = "IP Address Conflict", [35] = "HTTP Error",
};

const char *tp_efi_status_str(uint64_t status)
{
	uint64_t code = status & ~(1ull << 63);

	if (status == 0)
		return "Success";
	if (!(status >> 63))
		return "Warning";
	if (code < sizeof(efi_errors) / sizeof(efi_errors[0]) && efi_errors[code])
		return efi_errors[code];
	return "Unknown Error";
}
