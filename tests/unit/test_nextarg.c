// SPDX-License-Identifier: MIT
/*
 * Linux's word rules, once (common/words.h): the stub's splitter against
 * Linux 6.1's own next_arg(), skip_spaces() and isspace() (the Makefile
 * cuts them from linux-source-6.1 into linux_next_arg.h, GPL-2.0, never
 * kept in the repo), on 500 generated lines of blanks (NBSP and the A0 of
 * `Р` among them), quotes, dashes, "--" and '='; then what the stub does
 * with those rules: the init cap on NBSP-joined words, "--" quoted,
 * either spelling of a name, noinitrd.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "../../common/words.h"
#include "../../boot/cmdline.h"
#include "../../boot/ucs2.h"

#include "linux_next_arg.h"

#define LINES 500
#define LINE_MAX_BYTES 240
#define WORDS_MAX 128

static uint64_t rng = 0x5eed2026;

static uint32_t next_rand(void)
{
	/* xorshift64 (Marsaglia 2003): the same lines on every run */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

/* Pieces a line is made of: every blank Linux knows, the A0 inside UTF-8
 * characters, quotes, dashes and the "--" forms of issue 50 (S1). */
static const char *const pieces[] = {
	" ", "  ", "\t", "\n", "\v", "\f", "\r", "\xa0", "\xc2\xa0", "\xd0\xa0", "\"", "\"",
	"=", "=", "-", "_", "--", "\"--\"", "x\xc2\xa0--", "--=1", "a", "b", "v1", "tsc-early-khz",
	"tsc_early_khz", "=\"", "\xd0\xa0x", "noinitrd", "timeprobe.inject", "k", "1", "\xc3\xa9",
};

static size_t gen_line(char *out)
{
	size_t n = 0, parts = next_rand() % 24;

	for (size_t i = 0; i < parts; i++) {
		const char *p = pieces[next_rand() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t l = strlen(p);

		if (n + l >= LINE_MAX_BYTES)
			break;
		memcpy(out + n, p, l);
		n += l;
	}
	out[n] = 0;
	return n;
}

struct word {
	char name[LINE_MAX_BYTES + 1], val[LINE_MAX_BYTES + 1];
	int has_val;
};

/* Linux's parse_args() loop (kernel/params.c): the words up to "--";
 * returns how many, *rest the offset where parsing stopped. */
static size_t linux_words(const char *line, struct word *w, size_t *rest)
{
	static char buf[LINE_MAX_BYTES + 1];
	char *args, *param, *val;
	size_t n = 0;

	strcpy(buf, line);
	args = skip_spaces(buf);
	while (*args && n < WORDS_MAX) {
		args = next_arg(args, &param, &val);
		snprintf(w[n].name, sizeof(w[n].name), "%s", param);
		snprintf(w[n].val, sizeof(w[n].val), "%s", val ? val : "");
		w[n].has_val = val != 0;
		n++;
		if (!val && strcmp(param, "--") == 0)
			break;
	}
	*rest = (size_t)(args - buf);
	return n;
}

static size_t stub_words(const char *line, struct word *w, size_t *rest)
{
	size_t pos = 0, n = 0;
	struct tp_arg a;

	while (n < WORDS_MAX && tp_line_arg(line, &pos, &a)) {
		snprintf(w[n].name, sizeof(w[n].name), "%.*s", (int)a.name_len, a.name);
		snprintf(w[n].val, sizeof(w[n].val), "%.*s", (int)a.val_len, a.has_val ? a.val : "");
		w[n].has_val = a.has_val;
		n++;
		if (tp_arg_dashes(&a))
			break;
	}
	while (line[pos] && tp_line_blank(line[pos]))
		pos++;
	*rest = pos;
	return n;
}

static void dump(const char *line)
{
	printf("# line:");
	for (const unsigned char *p = (const unsigned char *)line; *p; p++)
		printf(*p > 0x20 && *p < 0x7f ? " %c" : " %02x", *p);
	printf("\n");
}

static void test_blanks(void)
{
	int same = 0;

	for (int c = 0; c < 256; c++)
		same += !!tp_line_blank((char)c) == !!isspace((char)c);
	is_int(same, 256, "tp_line_blank() is Linux's isspace() for all 256 bytes");
	ok(tp_line_blank((char)0xa0) && !tp_line_blank((char)0x85) && !tp_line_blank(0),
	   "0xA0 is a blank, 0x85 and NUL are not");
}

static void test_generated(void)
{
	static struct word lw[WORDS_MAX], sw[WORDS_MAX];
	char line[LINE_MAX_BYTES + 1];
	int agree = 0, dashes = 0, nbsp = 0;

	for (int i = 0; i < LINES; i++) {
		size_t lrest, srest, ln, sn, k;

		gen_line(line);
		ln = linux_words(line, lw, &lrest);
		sn = stub_words(line, sw, &srest);
		for (k = 0; k < ln && k < sn; k++)
			if (strcmp(lw[k].name, sw[k].name) || strcmp(lw[k].val, sw[k].val) ||
			    lw[k].has_val != sw[k].has_val)
				break;
		if (ln == sn && k == ln && lrest == srest) {
			agree++;
		} else if (agree + 3 > i) {
			printf("# line %d: Linux %zu words (rest at %zu), stub %zu (rest at %zu), "
			       "first difference at word %zu\n", i, ln, lrest, sn, srest, k);
			dump(line);
		}
		dashes += ln && !lw[ln - 1].has_val && !strcmp(lw[ln - 1].name, "--");
		nbsp += strchr(line, '\xa0') != 0;
	}
	is_int(agree, LINES, "500 generated lines: the stub's words are next_arg()'s, word for word, "
	       "and both stop at the same \"--\"");
	printf("# %d of the lines stopped at \"--\", %d held a byte 0xA0\n", dashes, nbsp);
	ok(dashes > 50 && nbsp > 100, "the lines exercise \"--\" and 0xA0 (%d, %d)", dashes, nbsp);
}

/* Forty vN=1 joined by sep: the stub keeps 30 entries, and the line still converts. */
static void test_cap(const char *sep, const char *what)
{
	char line[TP_CMDLINE_MAX + 1] = "console=ttyS0";
	uint16_t u[TP_CMDLINE_MAX + 1];
	struct tp_init_cap cap;
	size_t n = strlen(line);

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%sv%d=1", i ? sep : " ", i);
	is_int(tp_cmdline_cap_init(line, &cap), 10, what);
	ok(cap.envs_dropped == 10 && strstr(line, "v29=1") && !strstr(line, "v30=1"),
	   "  the ten past Linux's 30 entries are the ones dropped");
	tp_utf8_to_ucs2(u, TP_CMDLINE_MAX + 1, line);
	ok(tp_ucs2_is_line(u, line), "  what is left is UTF-8 the LoadOptions say exactly");
	is_int(tp_cmdline_cap_init(line, &cap), 0, "  and a second pass drops nothing");
}

static void test_stub_rules(void)
{
	char line[TP_CMDLINE_MAX + 1], out[TP_CMDLINE_MAX + 1];
	struct tp_cmdline_extras x = { .tsc_hz = 2000000000 };
	struct tp_cmdline_report rep;
	struct tp_cmdline_env env = { .initrd_file = 1 };
	size_t n;
	const char *v;

	test_cap("\xc2\xa0", "40 words joined by U+00A0 (C2 A0): 10 dropped");
	test_cap("\xd0\xa0", "40 words joined by U+0420 (D0 A0): 10 dropped");

	tp_cmdline_assemble(out, sizeof(out), "a \"--\" timeprobe.probes=x", &x, &rep);
	ok(rep.before_dashes && strstr(out, "panic=0 tsc_early_khz=2000000 \"--\""),
	   "\"--\" quoted: the stub's words go before it (%s)", out);
	tp_cmdline_assemble(out, sizeof(out), "a x\xc2\xa0-- b", &x, &rep);
	ok(rep.before_dashes && strstr(out, "panic=0") < strstr(out, "--"),
	   "x<NBSP>--: the stub's words go before it");
	ok(!tp_cmdline_find("a -- timeprobe.calib_ms=7", "timeprobe.calib_ms", &n),
	   "no parameter is read after \"--\"");
	v = tp_cmdline_find("timeprobe.calib-rounds=7 timeprobe.calib_rounds=8 "
			    "timeprobe.calib-rounds=\"9\"", "timeprobe.calib_rounds", &n);
	ok(v && n == 1 && *v == '9', "either spelling of a name, the last wins, quotes as Linux cuts them");
	tp_cmdline_assemble(out, sizeof(out), "tsc-early-khz=1234567", &x, &rep);
	ok(!rep.added_tsc_early && !strstr(out, "tsc_early_khz="),
	   "tsc-early-khz= on the line: the stub adds no tsc_early_khz= of its own");
	snprintf(line, sizeof(line), "console=ttyS0 initrd=\\x noinitrd");
	ok(tp_cmdline_faults(line, &env) & TP_CF_NOINITRD, "noinitrd is a fault");
	env.initrd_file = 0;
	ok(tp_cmdline_faults("console=ttyS0 noinitrd=1", &env) == TP_CF_NOINITRD,
	   "noinitrd=1 too (Linux's __setup matches its start), whichever initramfs");
	ok(!tp_cmdline_faults("console=ttyS0 -- noinitrd", &env), "but not after \"--\"");
	tp_cmdline_fallback(out, sizeof(out), "noinitrd timeprobe.probes=clocks");
	ok(!strstr(out, "noinitrd") && strstr(out, "timeprobe.probes=clocks"),
	   "the fallback line leaves noinitrd out");
}

int main(void)
{
	test_blanks();
	test_generated();
	test_stub_rules();
	return tap_done();
}
