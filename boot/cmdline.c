// SPDX-License-Identifier: MIT
/*
 * The kernel command line: finding words, assembling the stub's line and
 * checking it; see cmdline.h and docs/stub.md. EFI-free.
 */
#include "cmdline.h"
#include "../common/buf.h"
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

/* Is w[0..wl) the word `name` or `name=...`? */
static int is_named(const char *w, size_t wl, const char *name)
{
	size_t nl = tp_strlen(name), i;

	for (i = 0; i < nl && i < wl && w[i] == name[i]; i++)
		;
	return i == nl && (wl == nl || w[nl] == '=');
}

/* Does w[0..wl) hold `sub` anywhere? */
static int holds(const char *w, size_t wl, const char *sub)
{
	size_t sl = tp_strlen(sub);

	for (size_t i = 0; i + sl <= wl; i++)
		if (tp_streqn(w + i, sl, sub))
			return 1;
	return 0;
}

/* Removes every word of line that drop(word, len, arg) picks; how many. */
static unsigned int drop_words(char *line, int (*drop)(const char *, size_t, const char *),
			       const char *arg)
{
	size_t pos = 0, out = 0, wl;
	unsigned int dropped = 0;
	const char *w;

	if (!line)
		return 0;
	/* words move only leftwards: copying in place is safe */
	while ((wl = tp_line_word(line, &pos, &w)) != 0) {
		if (drop(w, wl, arg)) {
			dropped++;
			continue;
		}
		if (out)
			line[out++] = ' ';
		for (size_t i = 0; i < wl; i++)
			line[out++] = w[i];
	}
	line[out] = 0;
	return dropped;
}

unsigned int tp_cmdline_drop(char *line, const char *name)
{
	return drop_words(line, is_named, name);
}

/*
 * Removes every word that holds `sub` anywhere (Linux's EFI stub finds
 * initrd= as a substring of its line: drivers/firmware/efi/libstub/file.c,
 * find_file_option). Returns how many were removed.
 */
unsigned int tp_cmdline_drop_substr(char *line, const char *sub)
{
	return drop_words(line, holds, sub);
}

/* ---- assembly ---- */

/* " NAME=" of a bare contract row (the kernel's own words). */
static void put_key(struct tp_buf *b, enum tp_word_id id)
{
	tp_buf_putc(b, ' ');
	tp_buf_puts(b, tp_words[id].name);
	tp_buf_putc(b, '=');
}

static int has_word(const char *line, enum tp_word_id id, size_t *vlen)
{
	return tp_cmdline_find(line, tp_words[id].name, vlen) != 0;
}

/* The stub's words for the kernel, each preceded by a space (docs/stub.md). */
static void stub_words(struct tp_buf *e, const char *user, const struct tp_cmdline_extras *x,
		       struct tp_cmdline_report *rep)
{
	size_t vlen;
	int64_t off = 0;
	const char *v;

	if (!has_word(user, TPW_PANIC, &vlen)) {
		put_key(e, TPW_PANIC);
		tp_buf_puti(e, tp_words[TPW_PANIC].def);
		rep->added_panic = 1;
	}
	if (!x->tsc_hz)
		return;
	v = tp_cmdline_find(user, TP_WORD_PREFIX "tsc_early", &vlen);
	if (v)
		tp_word_choice(&tp_words[TPW_TSC_EARLY], v, vlen, &off);
	if (TP_ARCH_TSC_EARLY && !has_word(user, TPW_TSC_EARLY_KHZ, &vlen) && off != 1) {
		put_key(e, TPW_TSC_EARLY_KHZ);
		tp_buf_putu(e, (x->tsc_hz + 500) / 1000);
		rep->added_tsc_early = 1;
	}
}

/* Offset of the first word "--" of line[0..n) (blanks before it kept out), or n. */
static size_t dashes_at(const char *line, size_t n)
{
	size_t pos = 0, wl;
	const char *w;

	while ((wl = tp_line_word(line, &pos, &w)) != 0 && (size_t)(w - line) < n)
		if (wl == 2 && w[0] == '-' && w[1] == '-') {
			size_t at = (size_t)(w - line);

			while (at > 0 && tp_line_blank(line[at - 1]))
				at--;
			return at;
		}
	return n;
}

int tp_cmdline_assemble(char *out, size_t cap, const char *user,
			const struct tp_cmdline_extras *x, struct tp_cmdline_report *rep)
{
	char ess[128];
	struct tp_buf e, b;
	size_t ul = tp_strlen(user), keep, pos, dd;
	int dropped = 0;

	*rep = (struct tp_cmdline_report){ 0 };
	if (cap < TP_CMDLINE_MAX + 1)
		return -1;
	tp_buf_init(&e, ess, sizeof(ess));
	stub_words(&e, user, x, rep);

	/* What fits of the user's line, cut at a word boundary; the stub's words always. */
	keep = ul;
	if (keep + e.len > TP_CMDLINE_MAX) {
		size_t room = TP_CMDLINE_MAX - e.len;
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
	/* Linux reads no parameter after "--" (init/main.c): the stub's go before it */
	dd = dashes_at(user ? user : "", keep);
	rep->before_dashes = dd < keep;
	tp_buf_init(&b, out, cap);
	tp_buf_putn(&b, user ? user : "", dd);
	/* no leading space when cmdline.txt was empty (or began with "--") */
	if (e.len)
		tp_buf_putn(&b, ess + (b.len ? 0 : 1), e.len - (b.len ? 0 : 1));
	if (dd < keep) {
		size_t from = dd;

		while (from < keep && tp_line_blank(user[from]))
			from++;
		if (b.len)
			tp_buf_putc(&b, ' ');
		tp_buf_putn(&b, user + from, keep - from);
	}
	rep->len = b.len;
	return dropped;
}

/* ---- what Linux takes from the line for init ---- */

/*
 * Kernel parameters Linux consumes itself (__setup, early_param,
 * core_param), so they never become init's arguments or environment. A
 * word not listed counts, which can only make the cap drop early.
 */
static const char *const kernel_words[] = {
	"console", "earlycon", "earlyprintk", "initrd", "noinitrd", "panic", "tsc_early_khz",
	"tsc", "notsc", "clocksource", "quiet", "debug", "loglevel", "ignore_loglevel",
	"nokaslr", "root", "rootfstype", "rdinit", "init", "mem", "memmap", "maxcpus",
	"nr_cpus", "nosmp", "isolcpus", "nohz", "nohz_full", "rcu_nocbs", "irqaffinity",
	"idle", "mitigations", "noapic", "nolapic", "acpi", "hpet", "nmi_watchdog",
	"nowatchdog", "threadirqs", "lpj", "efi", "noefi", "apic", "lapic", "hugepages",
};

static int kernel_word(const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(kernel_words) / sizeof(kernel_words[0]); i++)
		if (tp_streqn(w, n, kernel_words[i]))
			return 1;
	return 0;
}

/* The name of word w[0..wl) (up to '='); its length. */
static size_t name_len(const char *w, size_t wl)
{
	size_t n = 0;

	while (n < wl && w[n] != '=')
		n++;
	return n;
}

/* 1 when a kept env word of kept[0..n) had w's name (Linux replaces the entry). */
static int env_seen(const char *kept, size_t n, const char *w, size_t nl)
{
	size_t pos = 0, wl;
	const char *v;

	while (pos < n && (wl = tp_line_word(kept, &pos, &v)) != 0)
		if (name_len(v, wl) == nl && nl < wl) {
			size_t i;

			for (i = 0; i < nl && v[i] == w[i]; i++)
				;
			if (i == nl)
				return 1;
		}
	return 0;
}

/* What one word becomes in init/main.c: 0 nothing, 1 an argument, 2 an environment entry. */
static int init_kind(const char *kept, size_t n, const char *w, size_t wl)
{
	size_t nl = name_len(w, wl);

	for (size_t i = 0; i < nl; i++)
		if (w[i] == '.')
			return 0;	/* a module's parameter */
	if (kernel_word(w, nl))
		return 0;
	if (nl == wl)
		return 1;
	if (tp_streqn(w, nl, "HOME") || tp_streqn(w, nl, "TERM") || env_seen(kept, n, w, nl))
		return 0;	/* replaces an entry */
	return 2;
}

static int is_dashes(const char *w, size_t wl)
{
	return wl == 2 && w[0] == '-' && w[1] == '-';
}

unsigned int tp_cmdline_cap_init(char *line, struct tp_init_cap *cap)
{
	char kept[TP_CMDLINE_MAX + 1];
	struct tp_buf b;
	size_t pos = 0, wl;
	const char *w;
	int after = 0;

	*cap = (struct tp_init_cap){ 0 };
	if (!line)
		return 0;
	tp_buf_init(&b, kept, sizeof(kept));
	while ((wl = tp_line_word(line, &pos, &w)) != 0) {
		/* after "--" every word is init's argument (init/main.c, set_init_arg) */
		int kind = after ? 1 : is_dashes(w, wl) ? 0 : init_kind(kept, b.len, w, wl);
		unsigned int *n = kind == 1 ? &cap->args : &cap->envs;

		after |= is_dashes(w, wl);
		if (kind && ++*n > (kind == 1 ? TP_INIT_ARGS_MAX : TP_INIT_ENVS_MAX)) {
			if (!cap->args_dropped && !cap->envs_dropped)
				cap->first_dropped = (size_t)(w - line);
			if (kind == 1)
				cap->args_dropped++;
			else
				cap->envs_dropped++;
			continue;
		}
		if (b.len)
			tp_buf_putc(&b, ' ');
		tp_buf_putn(&b, w, wl);
	}
	for (size_t i = 0; i <= b.len; i++)
		line[i] = kept[i];
	return cap->args_dropped + cap->envs_dropped;
}

/* ---- checks before the kernel starts ---- */

/* 1 when line has name=<something> (a bare name, or an empty value, names nothing). */
static int has(const char *line, const char *name)
{
	size_t pos = 0, vlen;

	while (tp_cmdline_next(line, name, &pos, &vlen))
		if (vlen)
			return 1;
	return 0;
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
	tp_buf_puts(b, " bytes: dropped the last ");
	tp_buf_putu(b, rep->user_words_dropped);
	tp_buf_puts(b, " word(s) of cmdline.txt");
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
