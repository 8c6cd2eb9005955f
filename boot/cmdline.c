// SPDX-License-Identifier: MIT
/*
 * The kernel command line: finding words, assembling the stub's line and
 * checking it; see cmdline.h and docs/stub.md. EFI-free.
 */
#include "cmdline.h"
#include "../common/buf.h"
#include "../common/words.h"

/* ---- parameter lookup (words cut by tp_line_arg, common/words.c) ---- */

const char *tp_cmdline_next(const char *line, const char *name, size_t *pos, size_t *vlen)
{
	size_t nl = tp_strlen(name);
	struct tp_arg a;

	if (!line)
		return 0;
	/* Linux reads no parameter after "--" (kernel/params.c, parse_args) */
	while (tp_line_arg(line, pos, &a) && !tp_arg_dashes(&a)) {
		if (!tp_param_eq(a.name, a.name_len, name, nl))
			continue;
		*vlen = a.val_len;
		return a.has_val ? a.val : a.name + a.name_len;
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

/* Is a the word `name` or `name=...` (Linux's parameq: '-' and '_' alike)? */
static int is_named(const struct tp_arg *a, size_t kept, void *name)
{
	(void)kept;
	return tp_param_eq(a->name, a->name_len, name, tp_strlen(name));
}

/* Does the word hold `sub` anywhere? */
static int holds(const struct tp_arg *a, size_t kept, void *sub)
{
	size_t sl = tp_strlen(sub);

	(void)kept;
	for (size_t i = 0; i + sl <= a->len; i++)
		if (tp_streqn(a->word + i, sl, sub))
			return 1;
	return 0;
}

/*
 * Blanks are Linux's (0xA0 too), so cutting words out of a UTF-8 line can
 * leave a lead byte without its continuation, or a continuation byte
 * alone (C2 | A0 of U+00A0 are a word's last byte and a blank). Each byte
 * of an ill-formed sequence (Unicode 15, Table 3-7; BMP only, as the
 * LoadOptions are UCS-2) becomes ' ' when it is a blank, '?' otherwise:
 * every word stays where it was, and the line converts. Returns how many.
 */
unsigned int tp_cmdline_utf8_repair(char *line)
{
	unsigned char *p = (unsigned char *)line;
	unsigned int n = 0;

	for (size_t i = 0; p[i];) {
		unsigned char b = p[i], lo = 0x80, hi = 0xbf;
		size_t len = b < 0x80		    ? 1
			     : b >= 0xc2 && b < 0xe0 ? 2
			     : b >= 0xe0 && b < 0xf0 ? 3
						     : 0;
		size_t k = 1;

		if (b == 0xe0)
			lo = 0xa0;
		if (b == 0xed)
			hi = 0x9f;
		while (len > 1 && k < len && p[i + k] >= (k == 1 ? lo : 0x80) &&
		       p[i + k] <= (k == 1 ? hi : 0xbf))
			k++;
		if (len && k == len) {
			i += len;
			continue;
		}
		p[i] = tp_line_blank((char)b) ? ' ' : '?';
		n++;
		i++;
	}
	return n;
}

/*
 * Keeps the words of line that keep(word, kept, arg) picks, in place, each
 * with the blanks that came before it (none before the first); kept is how
 * much of line is already the result. Then repairs the UTF-8 the cuts
 * broke. Returns how many words were dropped.
 */
static unsigned int keep_words(char *line, int (*keep)(const struct tp_arg *, size_t, void *),
			       void *arg)
{
	size_t pos = 0, out = 0, prev_end = 0;
	unsigned int dropped = 0;
	struct tp_arg a;

	if (!line)
		return 0;
	/* words move only leftwards: copying in place is safe */
	while (tp_line_arg(line, &pos, &a)) {
		size_t from = (size_t)(a.word - line);

		if (!keep(&a, out, arg)) {
			dropped++;
			prev_end = from + a.len;
			continue;
		}
		if (out)
			for (size_t i = prev_end; i < from; i++)
				line[out++] = line[i];
		for (size_t i = 0; i < a.len; i++)
			line[out++] = a.word[i];
		prev_end = from + a.len;
	}
	if (!dropped)
		return 0;
	line[out] = 0;
	tp_cmdline_utf8_repair(line);
	return dropped;
}

struct drop_arg {
	int (*drop)(const struct tp_arg *, size_t, void *);
	void *arg;
};

static int keep_unless(const struct tp_arg *a, size_t kept, void *d)
{
	struct drop_arg *x = d;

	return !x->drop(a, kept, x->arg);
}

/* Removes every word of line that drop(word, kept, arg) picks; how many. */
static unsigned int drop_words(char *line, int (*drop)(const struct tp_arg *, size_t, void *),
			       const char *arg)
{
	struct drop_arg d = { drop, (void *)arg };

	return keep_words(line, keep_unless, &d);
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
		tp_buf_putu(e, tp_tsc_early_khz(x->tsc_hz));
		rep->added_tsc_early = 1;
	}
}

/* Offset of the first word "--" of line[0..n) (blanks before it kept out), or n. */
static size_t dashes_at(const char *line, size_t n)
{
	size_t pos = 0;
	struct tp_arg a;

	while (tp_line_arg(line, &pos, &a) && (size_t)(a.word - line) < n)
		if (tp_arg_dashes(&a)) {
			size_t at = (size_t)(a.word - line);

			while (at > 0 && tp_line_blank(line[at - 1]))
				at--;
			return at;
		}
	return n;
}

/* How much of user (ul bytes) fits beside the stub's words, e_len bytes: all
 * of it, or cut at a word boundary, the words left out counted in rep. */
static size_t user_room(const char *user, size_t ul, size_t e_len, struct tp_cmdline_report *rep)
{
	size_t room = TP_CMDLINE_MAX - e_len, keep = 0, pos = 0, wl;
	const char *w;

	if (ul + e_len <= TP_CMDLINE_MAX)
		return ul;
	while ((wl = tp_line_word(user, &pos, &w)) != 0) {
		if ((size_t)(w - user) + wl <= room)
			keep = (size_t)(w - user) + wl;
		else
			rep->user_words_dropped++;
	}
	return keep;
}

/* The line: user[0..dd), the stub's words ess[0..e_len), then user's from its
 * "--" (at dd) to keep. */
static void put_line(struct tp_buf *b, const char *user, size_t dd, size_t keep,
		     const char *ess, size_t e_len)
{
	tp_buf_putn(b, user, dd);
	/* no leading space when cmdline.txt was empty (or began with "--") */
	if (e_len)
		tp_buf_putn(b, ess + (b->len ? 0 : 1), e_len - (b->len ? 0 : 1));
	if (dd < keep) {
		size_t from = dd;

		while (from < keep && tp_line_blank(user[from]))
			from++;
		if (b->len)
			tp_buf_putc(b, ' ');
		tp_buf_putn(b, user + from, keep - from);
	}
}

int tp_cmdline_assemble(char *out, size_t cap, const char *user,
			const struct tp_cmdline_extras *x, struct tp_cmdline_report *rep)
{
	char ess[128];
	struct tp_buf e, b;
	size_t ul = tp_strlen(user), keep, dd;

	*rep = (struct tp_cmdline_report){ 0 };
	if (cap < TP_CMDLINE_MAX + 1)
		return -1;
	tp_buf_init(&e, ess, sizeof(ess));
	stub_words(&e, user, x, rep);
	/* What fits of the user's line, cut at a word boundary; the stub's words always. */
	keep = user_room(user, ul, e.len, rep);
	/* Linux reads no parameter after "--" (init/main.c): the stub's go before it */
	dd = dashes_at(user ? user : "", keep);
	rep->before_dashes = dd < keep;
	tp_buf_init(&b, out, cap);
	put_line(&b, user ? user : "", dd, keep, ess, e.len);
	/* a blank cut off before "--" may have been a UTF-8 continuation byte */
	tp_cmdline_utf8_repair(out);
	rep->len = b.len;
	return ul + e.len > TP_CMDLINE_MAX;	/* 1: the user's line was cut */
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

/* Linux's parameq() against the list; BOOT_IMAGE= and kexec are the loaders' (init/main.c). */
static int kernel_word(const struct tp_arg *a)
{
	for (size_t i = 0; i < sizeof(kernel_words) / sizeof(kernel_words[0]); i++)
		if (tp_param_eq(a->name, a->name_len, kernel_words[i], tp_strlen(kernel_words[i])))
			return 1;
	return (a->has_val && tp_streqn(a->name, a->name_len, "BOOT_IMAGE")) ||
	       (a->name_len >= 5 && tp_streqn(a->name, 5, "kexec"));
}

static int same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* 1 when a kept entry of kept[0..n) had a's name (Linux replaces it: strncmp of "name="). */
static int env_seen(const char *kept, size_t n, const struct tp_arg *a)
{
	size_t pos = 0;
	struct tp_arg k;

	while (tp_line_arg(kept, &pos, &k) && (size_t)(k.word - kept) < n)
		if (k.has_val && k.name_len == a->name_len &&
		    same_bytes(k.name, a->name, a->name_len))
			return 1;
	return 0;
}

/* What one word becomes in init/main.c: 0 nothing, 1 an argument, 2 an environment entry. */
static int init_kind(const char *kept, size_t n, const struct tp_arg *a)
{
	for (size_t i = 0; i < a->name_len; i++)
		if (a->name[i] == '.')
			return 0;	/* a module's parameter */
	if (kernel_word(a))
		return 0;
	if (!a->has_val)
		return 1;
	if (tp_streqn(a->name, a->name_len, "HOME") || tp_streqn(a->name, a->name_len, "TERM") ||
	    env_seen(kept, n, a))
		return 0;	/* replaces an entry */
	return 2;
}

struct cap_walk {
	const char *line;
	struct tp_init_cap *cap;
	int dashes;	/* "--" seen: 1 every word is init's argument; 2 a second: none is */
};

/*
 * Linux's two passes (init/main.c, start_kernel): parse_args() hands the
 * words before "--" to unknown_bootoption(), and those after it to
 * set_init_arg() up to a second "--", after which nothing is read.
 */
static int cap_keep(const struct tp_arg *a, size_t kept, void *arg)
{
	struct cap_walk *c = arg;
	struct tp_init_cap *cap = c->cap;
	int kind;
	unsigned int *n;

	if (tp_arg_dashes(a) && c->dashes < 2) {
		c->dashes++;
		return 1;
	}
	kind = c->dashes == 2 ? 0 : c->dashes ? 1 : init_kind(c->line, kept, a);
	if (!kind)
		return 1;
	n = kind == 1 ? &cap->args : &cap->envs;
	if (++*n <= (kind == 1 ? TP_INIT_ARGS_MAX : TP_INIT_ENVS_MAX))
		return 1;
	if (!cap->args_dropped && !cap->envs_dropped)
		cap->first_dropped = (size_t)(a->word - c->line);
	if (kind == 1)
		cap->args_dropped++;
	else
		cap->envs_dropped++;
	return 0;
}

unsigned int tp_cmdline_cap_init(char *line, struct tp_init_cap *cap)
{
	struct cap_walk c = { line, cap, 0 };

	*cap = (struct tp_init_cap){ 0 };
	if (!line)
		return 0;
	keep_words(line, cap_keep, &c);
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

/*
 * 1 when Linux would take `noinitrd` from line: its __setup("noinitrd")
 * matches any parameter that begins so (init/main.c, obsolete_checksetup,
 * parameqn), before "--"; then it does not use the initramfs.
 */
static int has_noinitrd(const char *line)
{
	static const char no[] = "noinitrd";
	size_t pos = 0, k = sizeof(no) - 1;
	struct tp_arg a;

	while (line && tp_line_arg(line, &pos, &a) && !tp_arg_dashes(&a))
		if (a.name_len >= k && tp_param_eq(a.name, k, no, k))
			return 1;
	return 0;
}

unsigned int tp_cmdline_faults(const char *line, const struct tp_cmdline_env *env)
{
	unsigned int f = 0;

	if (has_noinitrd(line))
		f |= TP_CF_NOINITRD;
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
		"noinitrd (Linux would not use the initramfs)",
	};
	size_t start = b->len;

	for (unsigned int i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
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
static int valid_user_word(const struct tp_arg *a)
{
	const struct tp_word *row;
	const char *reason;
	size_t k = TP_WORD_PREFIX_LEN;

	if (a->name_len <= k || !tp_streqn(a->name, k, TP_WORD_PREFIX))
		return 0;
	row = tp_word_find(a->name + k, a->name_len - k);
	if (!row || !(row->by & TP_BY_USER) || (row->flags & TP_WF_BARE))
		return 0;
	return tp_word_check(row, a->val, a->val_len, &reason) == TP_WE_OK;
}

unsigned int tp_cmdline_fallback(char *out, size_t cap, const char *user)
{
	struct tp_buf b;
	size_t pos = 0;
	struct tp_arg a;
	unsigned int kept = 0;

	tp_buf_init(&b, out, cap);
	tp_buf_puts(&b, TP_CMDLINE_DEFAULT);
	while (user && tp_line_arg(user, &pos, &a) && !tp_arg_dashes(&a)) {
		size_t before = b.len;

		if (!valid_user_word(&a))
			continue;
		tp_buf_putc(&b, ' ');
		tp_buf_putn(&b, a.word, a.len);
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
