// SPDX-License-Identifier: MIT
/*
 * The kernel command line: finding words, assembling the stub's line and
 * checking it; see cmdline.h and docs/stub.md. EFI-free.
 */
#include "cmdline.h"
#include "../common/buf.h"
#include "../common/seal.h"
#include "../common/words.h"

/* ---- parameter lookup (words split by tp_line_word, common/words.c) ---- */

const char *tp_cmdline_next(const char *line, const char *name, size_t *pos, size_t *vlen)
{
	size_t nl = tp_strlen(name), wl;
	const char *w;

	if (!line)
		return 0;
	while ((wl = tp_line_word(line, pos, &w)) != 0) {
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

unsigned int tp_cmdline_drop(char *line, const char *name)
{
	size_t nl = tp_strlen(name), pos = 0, out = 0, wl;
	unsigned int dropped = 0;
	const char *w;

	if (!line)
		return 0;
	/* words move only leftwards: copying in place is safe */
	while ((wl = tp_line_word(line, &pos, &w)) != 0) {
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

/* The longest " timeprobe.seal=<words>:<crc32>" (common/seal.h). */
#define SEAL_ROOM (sizeof(" " TP_SEAL_WORD "64:00000000") - 1)

/* " timeprobe.NAME=" (or " NAME=" for the kernel's own words) of a contract row. */
static void put_key(struct tp_buf *b, enum tp_word_id id)
{
	const struct tp_word *w = &tp_words[id];

	tp_buf_putc(b, ' ');
	if (!(w->flags & TP_WF_BARE))
		tp_buf_puts(b, TP_WORD_PREFIX);
	tp_buf_puts(b, w->name);
	tp_buf_putc(b, '=');
}

/* 1 when line has the contract row's word (prefixed unless bare). */
static int has_word(const char *line, enum tp_word_id id, size_t *vlen)
{
	char key[48];
	struct tp_buf k;

	tp_buf_init(&k, key, sizeof(key));
	put_key(&k, id);
	key[k.len - 1] = 0;	/* without the '=' */
	return tp_cmdline_find(line, key + 1, vlen) != 0;
}

/* The stub's essential words, each preceded by a space (docs/stub.md). */
static void stub_words(struct tp_buf *e, const char *user, const struct tp_cmdline_extras *x,
		       struct tp_cmdline_report *rep)
{
	size_t vlen;
	int64_t off = 0;
	const char *v;

	if (!has_word(user, TPW_PANIC, &vlen)) {
		/* reboot 10 s after a panic instead of hanging the appliance */
		put_key(e, TPW_PANIC);
		tp_buf_puti(e, tp_words[TPW_PANIC].def);
		rep->added_panic = 1;
	}
	if (x->tsc_hz) {
		v = tp_cmdline_find(user, TP_WORD_PREFIX "tsc_early", &vlen);
		if (v)
			tp_word_choice(&tp_words[TPW_TSC_EARLY], v, vlen, &off);
		if (TP_ARCH_TSC_EARLY && !has_word(user, TPW_TSC_EARLY_KHZ, &vlen) && off != 1) {
			put_key(e, TPW_TSC_EARLY_KHZ);
			tp_buf_putu(e, (x->tsc_hz + 500) / 1000);
			rep->added_tsc_early = 1;
		}
		put_key(e, TPW_TSC_HZ);
		tp_buf_putu(e, x->tsc_hz);
		put_key(e, TPW_TSC_REF);
		tp_buf_puts(e, x->tsc_ref ? x->tsc_ref : "none");
	}
	put_key(e, TPW_BOOTPART);
	tp_buf_puts(e, x->bootpart ? x->bootpart : "unknown");
}

/*
 * Appends " timeprobe.<id>=<v>" to o when v is within the contract's bound
 * and the whole fits in room bytes; else sets *dropped and leaves o as it was.
 */
static void optional_word(struct tp_buf *o, enum tp_word_id id, const char *v, size_t room,
			  int *dropped)
{
	size_t before = o->len;

	if (!v || !v[0])
		return;
	put_key(o, id);
	tp_buf_puts(o, v);
	if (o->overflow || o->len > room || (int64_t)tp_strlen(v) > tp_words[id].hi) {
		o->len = before;
		o->overflow = 0;
		*dropped = 1;
	}
}

int tp_cmdline_assemble(char *out, size_t cap, const char *user,
			const struct tp_cmdline_extras *x, struct tp_cmdline_report *rep)
{
	char ess[512], opt[TP_CMDLINE_MAX + 1];
	struct tp_buf e, o, b;
	size_t ul = tp_strlen(user), keep, pos, room, from, need;
	int dropped = 0;

	*rep = (struct tp_cmdline_report){ 0 };
	if (cap < TP_CMDLINE_MAX + 1)
		return -1;
	tp_buf_init(&e, ess, sizeof(ess));
	stub_words(&e, user, x, rep);
	need = e.len + SEAL_ROOM;	/* the stub's words and their seal, always kept */

	/* the optional words take what the user's line and the essential leave */
	room = ul + need < TP_CMDLINE_MAX ? TP_CMDLINE_MAX - ul - need : 0;
	tp_buf_init(&o, opt, sizeof(opt));
	optional_word(&o, TPW_BOOT_TSC, x->boot_tsc, room, &rep->dropped_boot_tsc);
	optional_word(&o, TPW_TSC_CALIB, x->tsc_calib, room, &rep->dropped_tsc_calib);
	optional_word(&o, TPW_FIRMWARE, x->firmware, room, &rep->dropped_firmware);
	optional_word(&o, TPW_TSC_PREOS, x->tsc_preos, room, &rep->dropped_tsc_preos);
	optional_word(&o, TPW_HWLAT_PREOS, x->hwlat_preos, room, &rep->dropped_hwlat_preos);
	dropped = rep->dropped_tsc_calib | rep->dropped_firmware | rep->dropped_tsc_preos |
		  rep->dropped_boot_tsc | rep->dropped_hwlat_preos;
	/* What fits of the user's line, cut at a word boundary. */
	keep = ul;
	if (keep + need > TP_CMDLINE_MAX) {
		size_t room = TP_CMDLINE_MAX > need ? TP_CMDLINE_MAX - need : 0;
		const char *w;
		size_t wl;

		keep = 0;
		pos = 0;
		while ((wl = tp_line_word(user, &pos, &w)) != 0) {
			if ((size_t)(w - user) + wl <= room)
				keep = (size_t)(w - user) + wl;
			else
				rep->user_words_dropped++;
		}
		dropped = 1;
	}

	tp_buf_init(&b, out, cap);
	tp_buf_putn(&b, user ? user : "", keep);
	from = b.len;
	/* no leading space when cmdline.txt was empty */
	tp_buf_putn(&b, ess + (b.len ? 0 : 1), e.len - (b.len ? 0 : 1));
	tp_buf_putn(&b, opt, o.len);
	tp_seal_add(&b, from);
	rep->len = b.len;
	return dropped;
}

/* ---- checks before the kernel starts ---- */

static int has(const char *line, const char *name)
{
	size_t vlen;

	return tp_cmdline_find(line, name, &vlen) != 0;
}

unsigned int tp_cmdline_faults(const char *line, const struct tp_cmdline_env *env)
{
	unsigned int f = 0;

	if (env->user_empty)
		f |= TP_CF_EMPTY;
	if (env->initrd_file && !has(line, tp_words[TPW_INITRD].name))
		f |= TP_CF_NO_INITRD;
	if (env->serial && !has(line, tp_words[TPW_CONSOLE].name))
		f |= TP_CF_NO_CONSOLE;
	return f;
}

void tp_cmdline_faults_text(struct tp_buf *b, unsigned int faults)
{
	static const char *const text[] = {
		"no word survived decoding", "no initrd= (the initramfs is there)",
		"no console= (the firmware has a serial port)",
	};
	size_t start = b->len;

	for (unsigned int i = 0; i < 3; i++) {
		if (!(faults & (1u << i)))
			continue;
		if (b->len != start)
			tp_buf_puts(b, ", ");
		tp_buf_puts(b, text[i]);
	}
}

void tp_cmdline_report_text(struct tp_buf *b, const struct tp_cmdline_report *rep)
{
	tp_buf_puts(b, "WARNING: kernel command line over ");
	tp_buf_putu(b, TP_CMDLINE_MAX);
	tp_buf_puts(b, " bytes:");
	if (rep->dropped_tsc_calib)
		tp_buf_puts(b, " dropped timeprobe.tsc_calib=;");
	if (rep->dropped_firmware)
		tp_buf_puts(b, " dropped timeprobe.firmware=;");
	if (rep->dropped_tsc_preos)
		tp_buf_puts(b, " dropped timeprobe.tsc_preos=;");
	if (rep->dropped_boot_tsc)
		tp_buf_puts(b, " dropped timeprobe.boot_tsc=;");
	if (rep->dropped_hwlat_preos)
		tp_buf_puts(b, " dropped timeprobe.hwlat_preos=;");
	if (rep->user_words_dropped) {
		tp_buf_puts(b, " dropped the last ");
		tp_buf_putu(b, rep->user_words_dropped);
		tp_buf_puts(b, " word(s) of cmdline.txt;");
	}
}

/* A timeprobe.* word a person may write, with a value the contract accepts. */
static int valid_user_word(const char *w, size_t n)
{
	const struct tp_word *row;
	const char *reason;
	size_t k = TP_WORD_PREFIX_LEN, eq;

	if (n <= k || !tp_streqn(w, k, TP_WORD_PREFIX))
		return 0;
	for (eq = k; eq < n && w[eq] != '='; eq++)
		;
	row = tp_word_find(w + k, eq - k);
	if (!row || !(row->by & TP_BY_USER) || (row->flags & TP_WF_BARE))
		return 0;
	return tp_word_check(row, eq < n ? w + eq + 1 : 0, eq < n ? n - eq - 1 : 0, &reason) ==
	       TP_WE_OK;
}

unsigned int tp_cmdline_fallback(char *out, size_t cap, const char *user)
{
	struct tp_buf b;
	size_t pos = 0, n;
	const char *w;
	unsigned int kept = 0;

	tp_buf_init(&b, out, cap);
	tp_buf_puts(&b, TP_CMDLINE_DEFAULT);
	while (user && (n = tp_line_word(user, &pos, &w)) != 0) {
		size_t before = b.len;

		if (!valid_user_word(w, n))
			continue;
		tp_buf_putc(&b, ' ');
		tp_buf_putn(&b, w, n);
		if (b.overflow) {
			/* words are short; a line full of them keeps what fits */
			b.overflow = 0;
			b.len = before;
			out[before] = 0;
			break;
		}
		kept++;
	}
	return kept;
}

int tp_cmdline_final(char *out, size_t cap, char *user, const struct tp_cmdline_extras *x,
		     const struct tp_cmdline_env *env, struct tp_cmdline_final *f)
{
	char fb[TP_CMDLINE_MAX + 1];
	int rc = tp_cmdline_assemble(out, cap, user, x, &f->rep);

	f->fallback_kept = 0;
	f->faults = rc < 0 ? 0 : tp_cmdline_faults(out, env);
	if (!f->faults)
		return rc;
	f->fallback_kept = tp_cmdline_fallback(fb, sizeof(fb), user);
	if (env->drop_initrd)
		tp_cmdline_drop(fb, tp_words[TPW_INITRD].name);
	for (size_t i = 0; i < sizeof(fb); i++)
		if (!(user[i] = fb[i]))
			break;
	return tp_cmdline_assemble(out, cap, user, x, &f->rep);
}
