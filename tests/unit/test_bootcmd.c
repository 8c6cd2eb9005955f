// SPDX-License-Identifier: MIT
/* Host tests of the stub's EFI-free kernel hand-off: boot/cmdfile.c, cmdline.c, devpath.c,
 * efitext.c, ucs2.c and the kernel check in pe.c. TAP. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../boot/cmdfile.h"
#include "../../boot/cmdline.h"
#include "../../boot/devpath.h"
#include "../../boot/efitext.h"
#include "handoff.h"
#include "../../boot/pe.h"
#include "../../boot/ucs2.h"
#include "record.h"
#include "tap.h"

static char out[TP_CMDLINE_MAX + 1];

static struct tp_clean_report rep;

static const char *clean(const char *in, size_t n)
{
	tp_cmdline_clean(out, sizeof(out), in, n, &rep);
	return out;
}

#define CLEAN(s) clean((s), sizeof(s) - 1)

static void test_clean(void)
{
	char small[16];

	is_str(CLEAN("console=ttyS0,115200 console=tty0 initrd=\\EFI\\timeprobe\\initramfs.img\n"),
	       "console=ttyS0,115200 console=tty0 initrd=\\EFI\\timeprobe\\initramfs.img",
	       "default file: trailing newline dropped");
	is_str(CLEAN("\xef\xbb\xbf" "quiet\r\n"), "quiet", "UTF-8 BOM and CRLF");
	is_str(CLEAN("# comment\n  # indented comment\na=1\n\n\tb=2   c=3\n#d=4\n"), "a=1 b=2 c=3",
	       "comments skipped, lines joined, blanks collapsed");
	is_str(CLEAN("a=1 # not a comment mid-line\n"), "a=1 # not a comment mid-line",
	       "'#' only starts a comment at the line's start");
	is_str(CLEAN("dyndbg=\"file foo.c  +p\" x=1\n"), "dyndbg=\"file foo.c  +p\" x=1",
	       "blanks inside double quotes kept");
	is_str(CLEAN("a=\"unterminated\nb=2\n"), "a=\"unterminated\" b=2",
	       "a newline closes an open quote, so the next words stay words");
	is_int(rep.closed_quotes, 1, "and the report counts it");
	is_str(CLEAN("quiet foo=\"bar"), "quiet foo=\"bar\"", "the end of the file closes one too");
	is_str(CLEAN("a=\"x y\" b=\"c d\n"), "a=\"x y\" b=\"c d\"", "only the open one is closed");
	is_int(rep.closed_quotes, 1, "one closed");
	tp_cmdline_clean(small, 11, "abc de=\"fg", 10, &rep);
	is_str(small, "abc", "a quoted word with no room for its quote: dropped whole");
	ok(rep.closed_quotes == 0 && rep.cut_words == 1, "counted as cut, not as closed");
	is_str(CLEAN(""), "", "empty file");
	is_str(CLEAN("# only\n# comments\n"), "", "only comments");
	is_str(CLEAN("   \n\n  \r\n"), "", "only blanks");
	is_str(CLEAN("a=1\0b=2 c=3\n#d=4\n"), "c=3", "a NUL drops its word, not the rest (S4)");
	ok(rep.refused == 1 && rep.bad_words == 1 && rep.bad[0].offset == 3 &&
	   !strcmp(rep.bad[0].why, "U+0000"), "and is named, by byte offset");
	is_str(CLEAN("\xff\xfe" "a\0=\0" "1\0\0\0 \0b\0"), "b",
	       "in UTF-16 too: U+0000 drops its word");
	ok(rep.bad_words == 1 && rep.bad[0].offset == 8, "named at its unit's offset");
	is_str(CLEAN("a=1\r# timeprobe.probes=clocks\rb=2\r"), "a=1 b=2",
	       "a CR alone ends a line: the # line after it is a comment (S3)");
	is_str(CLEAN("a=\"x\ry\r"), "a=\"x\" y", "and closes an open quote, as a newline does");
	is_str(CLEAN("v1=1\xc2\xa0v2=1\xd0\xa0v3=\"\xc2\xa0\"\n"), "v1=1\xc2\xa0v2=1\xd0\xa0v3=\"\xc2\xa0\"",
	       "U+00A0 and U+0420 kept as they are, in quotes or not");
	is_str(CLEAN("v1=1\xc2\xa0v2=\x01\xc2\xa0v3=1"), "v1=1\xc2\xa0 v3=1",
	       "a refused byte drops Linux's word (ended by the A0 of U+00A0), the others kept");
	is_str(CLEAN("v2=\x01\xc2\xa0v3=1"), "v3=1",
	       "the first word dropped: the A0 it leaves alone goes too");
	is_str(CLEAN("a=\x01x\x7f b=2"), "b=2", "a control character drops its word");
	ok(rep.refused == 2 && rep.bad_words == 1 && rep.bad[0].offset == 2 &&
	   rep.bad[1].offset == 4, "both named by byte offset, one word dropped");
	is_str(CLEAN("\xff\xfe" "a\0=\0\xe9\0 \0b\0\n\0#\0c\0"), "a=\xc3\xa9 b",
	       "UTF-16LE with BOM decoded to UTF-8, comment line skipped");
	is_str(clean("a=1", 3), "a=1", "no cut");
	ok(!rep.cut_words && !rep.long_words, "nothing dropped");

	tp_cmdline_clean(small, sizeof(small), "alpha beta gamma delta", 22, &rep);
	is_str(small, "alpha beta", "overlong: cut at a word boundary");
	is_int(rep.cut_words, 2, "the words past the end are counted");
	tp_cmdline_clean(small, sizeof(small), "abcdefghijklmnop", 16, &rep);
	is_str(small, "", "one word longer than the line: dropped");
	is_int(rep.long_words, 1, "and counted as a long word");
	is_int(rep.long_word_bytes, 16, "with its length");
	tp_cmdline_clean(small, sizeof(small), "a=1 abcdefghijklmnopq b=2", 25, &rep);
	is_str(small, "a=1 b=2", "a long word in the middle: dropped, the next words kept");
	ok(rep.long_words == 1 && rep.cut_words == 0, "one long word, nothing cut");
	tp_cmdline_clean(small, sizeof(small), "abcdefghijklmno", 15, &rep);
	is_str(small, "abcdefghijklmno", "exactly cap - 1 bytes fit");
	ok(!rep.cut_words && !rep.long_words, "exact fit is not a cut");
}

/* cmdline.txt as editors save it: the encoding is found by content too */
static void test_encodings(void)
{
	static const char le_bom[] = "\xff\xfe" "a\0=\0" "1\0 \0b\0\n\0";
	static const char le[] = "a\0=\0" "1\0 \0b\0\n\0#\0c\0";
	static const char be[] = "\0a\0=\0" "1\0 \0b";
	static const char be_bom[] = "\xfe\xff\0a\0=\0\xe9";
	int bom;

	is_str(clean(le_bom, sizeof(le_bom) - 1), "a=1 b", "UTF-16LE with BOM");
	ok(rep.encoding == TP_ENC_UTF16LE && rep.bom, "UTF-16LE with BOM: named");
	is_str(clean(le, sizeof(le) - 1), "a=1 b", "UTF-16LE without BOM, comment line skipped");
	ok(rep.encoding == TP_ENC_UTF16LE && !rep.bom, "UTF-16LE without BOM: found by content");
	is_str(clean(be, sizeof(be) - 1), "a=1 b", "UTF-16BE without BOM");
	is_int(rep.encoding, TP_ENC_UTF16BE, "UTF-16BE without BOM: found by content");
	is_str(clean(be_bom, sizeof(be_bom) - 1), "a=\xc3\xa9", "UTF-16BE with BOM, to UTF-8");
	is_int(tp_cmdfile_encoding((const uint8_t *)"a=1\0b=2", 7, &bom), TP_ENC_UTF8,
	       "one NUL in 8-bit text is not UTF-16");
	is_int(tp_cmdfile_encoding((const uint8_t *)"\xef\xbb\xbfq", 4, &bom), TP_ENC_UTF8,
	       "UTF-8 BOM");
	is_int(bom, 1, "UTF-8 BOM seen");
	is_str(tp_encoding_name(TP_ENC_UTF16BE), "UTF-16BE", "encoding names");
}

static void test_find(void)
{
	const char *line = "panicx=1 panic=5 quiet a=\"x panic=9\" panic=10 tsc_early_khz=2000";
	size_t n = 0, pos = 0;
	const char *v;
	int count = 0;

	v = tp_cmdline_find(line, "panic", &n);
	ok(v && n == 2 && !strncmp(v, "10", 2), "last panic= wins");
	v = tp_cmdline_find(line, "quiet", &n);
	ok(v && n == 0, "bare parameter found with empty value");
	ok(!tp_cmdline_find(line, "pani", &n), "a prefix is not a match");
	ok(!tp_cmdline_find(line, "x panic", &n), "nothing found inside quotes");
	ok(!tp_cmdline_find(NULL, "panic", &n), "NULL line");
	while ((v = tp_cmdline_next("initrd=\\a initrd=/b x initrd=c", "initrd", &pos, &n)))
		count++;
	is_int(count, 3, "tp_cmdline_next visits every initrd=");
}

static const struct tp_cmdline_extras extras = { .tsc_hz = 2096020030 };

/* The stub's warning text for a cut line; rep is a real one that cut user words. */
static void test_report_text(const struct tp_cmdline_report *cut)
{
	char m[200], want[120];
	struct tp_buf b;

	snprintf(want, sizeof(want), "WARNING: kernel command line over 2047 bytes: dropped the "
		 "last %u word(s) of cmdline.txt", cut->user_words_dropped);
	tp_buf_init(&b, m, sizeof(m));
	tp_cmdline_report_text(&b, cut);
	is_str(m, want, "an assembled line's report names the words cut");
}

static void test_assemble(void)
{
	char line[TP_CMDLINE_MAX + 1], user[4000];
	struct tp_cmdline_report rep;
	struct tp_cmdline_extras x = extras;

	is_int(tp_cmdline_assemble(line, sizeof(line), "console=ttyS0,115200", &extras, &rep), 0,
	       "fits");
	is_str(line, "console=ttyS0,115200 panic=0 tsc_early_khz=2096020",
	       "the kernel's words alone: the stub's figures go in its file");
	ok(rep.added_panic && rep.added_tsc_early && rep.len == strlen(line), "report");

	tp_cmdline_assemble(line, sizeof(line), "panic=5 tsc_early_khz=1000", &extras, &rep);
	is_str(line, "panic=5 tsc_early_khz=1000", "user's panic= and tsc_early_khz= are left alone");
	ok(!rep.added_panic && !rep.added_tsc_early, "report says nothing added");

	tp_cmdline_assemble(line, sizeof(line), "timeprobe.tsc_early=off", &extras, &rep);
	is_str(line, "timeprobe.tsc_early=off panic=0", "timeprobe.tsc_early=off: no tsc_early_khz");

	tp_cmdline_assemble(line, sizeof(line), "", &extras, &rep);
	is_str(line, "panic=0 tsc_early_khz=2096020", "empty cmdline.txt: no leading space");

	x.tsc_hz = 0;
	tp_cmdline_assemble(line, sizeof(line), "quiet", &x, &rep);
	is_str(line, "quiet panic=0", "no calibration: no tsc_early_khz");

	/* "--": Linux reads no parameter after it (init/main.c) */
	tp_cmdline_assemble(line, sizeof(line), "console=ttyS0 -- a b=1", &extras, &rep);
	is_str(line, "console=ttyS0 panic=0 tsc_early_khz=2096020 -- a b=1",
	       "--: the stub's words go before it");
	ok(rep.before_dashes, "and the report says so");
	tp_cmdline_assemble(line, sizeof(line), "-- a", &extras, &rep);
	is_str(line, "panic=0 tsc_early_khz=2096020 -- a", "-- first");
	tp_cmdline_assemble(line, sizeof(line), "a=\"x -- y\" b", &extras, &rep);
	is_str(line, "a=\"x -- y\" b panic=0 tsc_early_khz=2096020", "a quoted -- is no --");
	ok(!rep.before_dashes, "no --");

	/* 3000 bytes: user words are cut at a word boundary */
	for (int i = 0; i < 300; i++)
		memcpy(user + i * 10, "word=1234 ", 10);
	user[2999] = 0;
	is_int(tp_cmdline_assemble(line, sizeof(line), user, &extras, &rep), 1, "overlong: reported");
	ok(strlen(line) <= TP_CMDLINE_MAX, "within the limit (%zu)", strlen(line));
	ok(rep.user_words_dropped > 90, "user words dropped (%u)", rep.user_words_dropped);
	ok(strstr(line, "word=1234 panic=0 tsc_early_khz=2096020") != NULL &&
	   line[strlen(line) - 1] == '0', "cut between words, the stub's words last");
	test_report_text(&rep);

	is_int(tp_cmdline_assemble(line, 100, "a", &extras, &rep), -1, "small output buffer refused");
}

/* Linux's EFI stub finds initrd= anywhere in its line (file.c, find_file_option). */
static void test_drop_substr(void)
{
	char line[] = "xinitrd=\\a b initrd=\\c d=\"x initrd=e\" initrd f=1";

	is_int(tp_cmdline_drop_substr(line, "initrd="), 3, "three words hold initrd=");
	is_str(line, "b initrd f=1", "each dropped whole, the bare word and the others kept");
}

/* Linux's 31 arguments and 30 environment entries for init (init/main.c). */
static void test_cap_init(void)
{
	char line[TP_CMDLINE_MAX + 1];
	struct tp_buf b;
	struct tp_init_cap cap;

	tp_buf_init(&b, line, sizeof(line));
	tp_buf_puts(&b, "console=ttyS0 panic=5 timeprobe.profile=quick");
	for (int i = 0; i < 40; i++) {
		tp_buf_puts(&b, " k");
		tp_buf_putu(&b, (uint64_t)i);
		tp_buf_puts(&b, "=v");
	}
	tp_buf_puts(&b, " k0=again HOME=/x");
	is_int(tp_cmdline_cap_init(line, &cap), 10, "40 unknown k=v: 10 dropped");
	ok(cap.envs == 40 && cap.envs_dropped == 10 && cap.args_dropped == 0,
	   "counted as environment entries (%u, %u dropped)", cap.envs, cap.envs_dropped);
	ok(strstr(line, " k29=v ") && !strstr(line, " k30=v") && strstr(line, "k39") == NULL,
	   "the first 30 kept, the rest dropped");
	ok(strstr(line, "console=ttyS0 panic=5 timeprobe.profile=quick k0=v") == line &&
	   strstr(line, " k0=again HOME=/x"), "kernel words, module words and replacements kept");
	ok(cap.first_dropped > 0, "the first dropped word's offset");

	tp_buf_init(&b, line, sizeof(line));
	for (int i = 0; i < 35; i++)
		tp_buf_puts(&b, i ? " w" : "w");
	tp_buf_puts(&b, " -- x y=1");
	tp_cmdline_cap_init(line, &cap);
	ok(cap.args_dropped == 6 && cap.args == 37, "bare words are arguments, so are those "
	   "after -- (%u, %u dropped)", cap.args, cap.args_dropped);
	is_int(strlen(line), 31 * 2 - 1 + 3, "31 words and -- kept, the others dropped");
	ok(!strcmp(line + strlen(line) - 6, "w w --"), "-- itself stays (%s)", line + strlen(line) - 6);
}

static void test_record(void)
{
	char line[TP_CMDLINE_MAX + 1];
	struct tp_cmdline_report rep;
	static struct tp_rec r;
	const char *s, *json;

	tp_cmdline_assemble(line, sizeof(line),
			    "console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img a=\"b c\"",
			    &extras, &rep);
	tp_rec_begin(&r, "stub_cmdline");
	tp_rec_str(&r, "cmdline", line);
	s = tp_rec_finish(&r);
	ok(s && tp_rec_check(s, strlen(s) - 1, &json) > 0, "stub_cmdline record checks");
	ok(s && strstr(s, "initrd=\\\\EFI\\\\timeprobe") && strstr(s, "a=\\\"b c\\\""),
	   "backslashes and quotes escaped");
}

static void test_list(void)
{
	char s[64];
	struct tp_buf b;

	tp_buf_init(&b, s, sizeof(s));
	tp_calib_list_add(&b, "hpet", 2893012345ull, 12);
	tp_calib_list_add(&b, "pmtimer", 2893010000ull, 40);
	is_str(s, "hpet:2893012345:12,pmtimer:2893010000:40", "calib list");
	tp_buf_init(&b, s, 8);
	tp_buf_puts(&b, "0123456789");
	ok(b.overflow && !strcmp(s, "0123456"), "tp_buf stops at its capacity");
}

/* A device path: PciRoot(0)/Pci(1,0)/HD(1,GPT,...)/End, as OVMF builds it */
static const uint8_t dp_gpt[] = {
	0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,	/* PciRoot */
	0x01, 0x01, 0x06, 0x00, 0x00, 0x01,						/* Pci(1,0) */
	0x04, 0x01, 0x2a, 0x00,								/* HD */
	0x01, 0x00, 0x00, 0x00,					/* partition 1 */
	0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* start 2048 */
	0x00, 0xe0, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,		/* size 122880 */
	0x7b, 0x1a, 0x2c, 0x4e, 0x5d, 0x3f, 0x6e, 0x4c,		/* 4e2c1a7b-3f5d-4c6e- */
	0x9a, 0x8b, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,		/* 9a8b-0123456789ab */
	0x02, 0x02,						/* GPT, GUID signature */
	0x7f, 0xff, 0x04, 0x00,
};

static void test_devpath(void)
{
	struct tp_hd_node hd;
	uint8_t dp[sizeof(dp_gpt)];
	char s[64];
	struct tp_buf b;

	is_int(tp_devpath_find_hd(dp_gpt, sizeof(dp_gpt), &hd), 0, "HD node found");
	is_int(hd.part_number, 1, "partition number");
	ok(hd.part_start == 2048 && hd.part_size == 122880, "start and size");
	tp_buf_init(&b, s, sizeof(s));
	tp_bootpart_format(&b, &hd);
	is_str(s, "gpt:4e2c1a7b-3f5d-4c6e-9a8b-0123456789ab", "gpt bootpart (matches sgdisk -u)");

	/* the same disk as MBR: signature 0x1234abcd, partition 2 */
	memcpy(dp, dp_gpt, sizeof(dp));
	memset(dp + 18 + 24, 0, 16);
	dp[18 + 24] = 0xcd;
	dp[18 + 25] = 0xab;
	dp[18 + 26] = 0x34;
	dp[18 + 27] = 0x12;
	dp[18 + 4] = 2;
	dp[18 + 40] = 1;
	dp[18 + 41] = 1;
	tp_devpath_find_hd(dp, sizeof(dp), &hd);
	tp_buf_init(&b, s, sizeof(s));
	tp_bootpart_format(&b, &hd);
	is_str(s, "mbr:1234abcd:2", "mbr bootpart");

	dp[18 + 41] = 0;
	tp_devpath_find_hd(dp, sizeof(dp), &hd);
	tp_buf_init(&b, s, sizeof(s));
	tp_bootpart_format(&b, &hd);
	is_str(s, "unknown", "no signature: unknown");

	is_int(tp_devpath_find_hd(dp_gpt, 18, &hd), -1, "no HD node before the limit");
	is_int(tp_devpath_find_hd(dp_gpt + 18 + 42, 4, &hd), -1, "end node only: none");
	memcpy(dp, dp_gpt, sizeof(dp));
	dp[2] = 0;
	is_int(tp_devpath_find_hd(dp, sizeof(dp), &hd), -1, "zero-length node: malformed");
	dp[2] = 0xff;
	is_int(tp_devpath_find_hd(dp, sizeof(dp), &hd), -1, "node past the end: malformed");
}

/* A minimal PE32+ EFI application header with a Linux boot header. */
static size_t make_kernel(uint8_t *k, size_t len, uint16_t machine, uint16_t magic, uint16_t subsys)
{
	const uint32_t pe = 0x80;

	memset(k, 0, len);
	k[0] = 'M';
	k[1] = 'Z';
	k[0x3c] = pe;
	memcpy(k + pe, "PE\0\0", 4);
	k[pe + 4] = machine & 0xff;
	k[pe + 5] = machine >> 8;
	k[pe + 24] = magic & 0xff;
	k[pe + 25] = magic >> 8;
	k[pe + 24 + 68] = subsys & 0xff;
	k[pe + 24 + 69] = subsys >> 8;
	memcpy(k + 0x202, "HdrS", 4);
	k[0x206] = 0x0f;
	k[0x207] = 0x02;
	k[0x20e] = 0x00;	/* kernel_version at 0x200 + 0x300 */
	k[0x20f] = 0x03;
	strcpy((char *)k + 0x500, "6.1.0-timeprobe (timeprobe@timeprobe) #1 SMP");
	return len;
}

static void test_kernel(void)
{
	static uint8_t k[4096];
	struct tp_kernel_info ki;
	const char *why;

	make_kernel(k, sizeof(k), 0x8664, 0x20b, 10);
	is_int(tp_kernel_check(k, sizeof(k), &ki, &why), 0, "valid x86-64 EFI Linux image");
	ok(ki.is_linux && ki.boot_protocol == 0x020f, "Linux boot protocol 2.15");
	is_str(ki.version, "6.1.0-timeprobe (timeprobe@timeprobe) #1 SMP", "kernel_version string");

	k[1] = 'Y';
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) < 0 && !strcmp(why, "no MZ signature"), "no MZ");
	make_kernel(k, sizeof(k), 0x8664, 0x20b, 10);
	k[0x81] = 'X';
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) < 0 && !strcmp(why, "no PE signature"), "no PE");
	make_kernel(k, sizeof(k), 0x14c, 0x20b, 10);
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) < 0 && strstr(why, "x86-64"), "i386 image refused");
	make_kernel(k, sizeof(k), 0x8664, 0x10b, 10);
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) < 0 && strstr(why, "PE32+"), "PE32 refused");
	make_kernel(k, sizeof(k), 0x8664, 0x20b, 3);
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) < 0 && strstr(why, "subsystem"), "console app refused");
	make_kernel(k, sizeof(k), 0x8664, 0x20b, 10);
	k[0x3c] = 0xf0;
	k[0x3d] = 0x0f;
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) < 0 && strstr(why, "range"), "e_lfanew out of range");
	ok(tp_kernel_check(k, 10, &ki, &why) < 0, "10-byte file refused");
	make_kernel(k, sizeof(k), 0x8664, 0x20b, 10);
	memset(k + 0x202, 0, 4);
	ok(tp_kernel_check(k, sizeof(k), &ki, &why) == 0 && !ki.is_linux, "non-Linux EFI app accepted");
}

static void test_text(void)
{
	uint16_t u[8];
	char s[32];
	struct tp_buf b;

	is_int(tp_utf8_to_ucs2(u, 8, "ab"), 2, "ASCII");
	ok(u[0] == 'a' && u[1] == 'b' && u[2] == 0, "ASCII units");
	tp_utf8_to_ucs2(u, 8, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff");
	ok(u[0] == 0xe9 && u[1] == 0x20ac && u[2] == 0xfffd && u[3] == '?' && u[4] == 0,
	   "2-, 3-, 4-byte and invalid UTF-8");
	is_int(tp_utf8_to_ucs2(u, 3, "abcdef"), 2, "truncated at cap - 1");
	ok(u[2] == 0, "truncated string terminated");
	tp_utf8_to_ucs2(u, 8, "a=\xc3\xa9");
	ok(tp_ucs2_is_line(u, "a=\xc3\xa9"), "the hand-over check: the same line back");
	tp_utf8_to_ucs2(u, 8, "a\xc0\x80" "b");
	ok(!tp_ucs2_is_line(u, "a\xc0\x80" "b"), "an overlong form does not come back: refused");
	tp_utf8_to_ucs2(u, 8, "a\xed\xa0\x80");
	ok(!tp_ucs2_is_line(u, "a\xed\xa0\x80"), "a surrogate: refused");
	tp_utf8_to_ucs2(u, 8, "a\nb");
	ok(!tp_ucs2_is_line(u, "a\nb"), "a newline: refused");
	tp_utf8_to_ucs2(u, 3, "abcdef");
	ok(!tp_ucs2_is_line(u, "abcdef"), "a line cut short: refused");

	const struct {
		uint32_t rev;
		const char *s;
	} revs[] = {
		{ 2 << 16 | 70, "2.7" }, { 2 << 16 | 31, "2.3.1" }, { 2 << 16 | 100, "2.10" },
		{ 1 << 16 | 10, "1.1" },
	};
	for (size_t i = 0; i < sizeof(revs) / sizeof(revs[0]); i++) {
		tp_buf_init(&b, s, sizeof(s));
		tp_fmt_uefi_revision(&b, revs[i].rev);
		is_str(s, revs[i].s, "UEFI revision text");
	}
	is_str(tp_efi_status_str(0x800000000000000eull), "Not Found", "EFI_NOT_FOUND");
	is_str(tp_efi_status_str(0x800000000000001aull), "Security Violation", "EFI_SECURITY_VIOLATION");
	is_str(tp_efi_status_str(0), "Success", "EFI_SUCCESS");
	is_str(tp_efi_status_str(0x8000000000000063ull), "Unknown Error", "unknown error code");
	is_str(tp_efi_status_str(4), "Warning", "a warning");
}

/*
 * The forgeries of issue 37: an overlong U+0000, newline or quote ended the
 * kernel's line early (Linux's EFI stub stops at U+0000 or a newline), so
 * forged words before it were the line's last. Each is refused with its
 * byte offset, its word dropped and the others kept.
 */
static void test_refused(void)
{
	static const struct {
		const char *in;
		size_t n;
		const char *out, *why;
		size_t at;
	} t[] = {
#define T(in, out, why, at) { in, sizeof(in) - 1, out, why, at }
		T("quiet timeprobe.tsc_hz=1234567 x\xc0\x80", "quiet timeprobe.tsc_hz=1234567",
		  "overlong form", 32),
		T("a foo=\xc0\xa2" "bar b", "a b", "overlong form", 6),
		T("a b\xc0\x8a" "TPM c", "a c", "overlong form", 3),
		T("a \xe0\x80\x80 b", "a b", "overlong form", 2),
		T("a \xf0\x80\x80\x80 b", "a b", "overlong form", 2),
		T("a \xed\xa0\x80 b", "a b", "surrogate", 2),
		T("a \xf0\x9f\x98\x80 b", "a b", "outside the BMP (LoadOptions are UCS-2)", 2),
		T("a \xf4\x90\x80\x80 b", "a b", "beyond U+10FFFF", 2),
		T("a \x80 b", "a b", "stray continuation byte", 2),
		T("a \xc3 b", "a b", "truncated sequence", 2),
		T("a \xff b", "a b", "not a UTF-8 byte", 2),
		T("a \xc2\x85 b", "a b", "control character", 2),
		T("a \x1b[2J b", "a b", "control character", 2),
		T("\xef\xbb\xbf" "a\xc0\x80 b", "b", "overlong form", 4),
		T("\xff\xfe" "a\0\0\xd8 \0b\0", "b", "lone surrogate", 4),
		T("\xff\xfe" "a\0\x0a\0b\0\x1b\0 \0c\0", "a c", "control character", 8),
#undef T
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		tp_cmdline_clean(out, sizeof(out), t[i].in, t[i].n, &rep);
		is_str(out, t[i].out, t[i].why);
		ok(rep.n_bad >= 1 && rep.bad[0].offset == t[i].at && !strcmp(rep.bad[0].why, t[i].why),
		   "  named at its byte offset");
	}
	is_str(CLEAN("a=\xc3\xa9 b=\xe2\x82\xac"), "a=\xc3\xa9 b=\xe2\x82\xac",
	       "well-formed 2- and 3-byte characters kept");
	ok(rep.refused == 0 && rep.bad_words == 0, "nothing refused");
	CLEAN("# a comment \xc0\x80\nq");
	ok(!strcmp(out, "q") && rep.refused == 0, "a comment line is dropped anyway");
}

int main(void)
{
	test_clean();
	test_refused();
	test_encodings();
	test_find();
	test_assemble();
	test_cap_init();
	test_drop_substr();
	test_record();
	test_list();
	test_devpath();
	test_kernel();
	test_text();
	return tap_done();
}
