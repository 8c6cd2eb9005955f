/* SPDX-License-Identifier: MIT */
/*
 * The command-line contract: one table of every word timeprobe puts on, or
 * reads from, the kernel command line, from cmdline.txt through the UEFI
 * stub to PID 1 (docs/stub.md, "Command line hand-off"). Each row says who
 * writes the word, who reads it, its type and bounds, its default and its
 * one-line help. The stub reads its options through it (its results go in
 * its file, common/stubfile.h, not on the line); the suite parses every
 * timeprobe.* word through it; `timeprobe help`
 * and README's options table are printed from it.
 *
 * As the kernel keeps each boot parameter in one place, a word is added
 * here once. A probe's own options use the same row type (struct tp_word)
 * in the suite. Freestanding C (no libc), built by the stub and the suite.
 */
#ifndef TP_COMMON_WORDS_H
#define TP_COMMON_WORDS_H

#include <stddef.h>
#include <stdint.h>

#define TP_WORD_PREFIX "timeprobe."
#define TP_WORD_PREFIX_LEN 10

/* The bounds and defaults of the stub's calibration words calib_rounds and
 * calib_ms (docs/stub.md, "Calibration"): 5 rounds of 50 ms per reference.
 * TP_CALIB_ROUNDS_MAX also sizes the stub's arrays of rounds. */
#define TP_CALIB_ROUNDS_DEFAULT 5
#define TP_CALIB_ROUNDS_MAX 32
#define TP_CALIB_MS_DEFAULT 50
#define TP_CALIB_MS_MIN 1
#define TP_CALIB_MS_MAX 1000

/* Who puts a word on the command line (bit set). */
#define TP_BY_USER 0x1		/* cmdline.txt on the stick, --NAME=VALUE on a host */
#define TP_BY_STUB 0x2		/* the UEFI stub, after its calibration */
#define TP_BY_BUILD 0x4		/* the image build (tools/kconfig-words.sh) */
#define TP_BY_LAUNCHER 0x8	/* the host-side QEMU launcher */

/* Who reads it (bit set). */
#define TP_FOR_STUB 0x1
#define TP_FOR_SUITE 0x2
#define TP_FOR_KERNEL 0x4

/* The stub's seal on the command line before its file (common/stubfile.h): retired. */
#define TP_WORD_RETIRED_SEAL "seal"

/* Flags. */
#define TP_WF_BARE 0x1		/* the kernel's own word: no "timeprobe." prefix */

enum tp_word_type {
	TP_WT_INT,		/* decimal, lo..hi */
	TP_WT_BOOL,		/* 0/1/on/off/yes/no/true/false; bare word = 1 */
	TP_WT_CHOICE,		/* one of choices "a|b|c"; the index is the value */
	TP_WT_INTS,		/* comma-separated decimals, each lo..hi */
	TP_WT_NAMES,		/* comma-separated names */
	TP_WT_STR,		/* text of at most hi bytes, checked by check() if set */
};

/* Why a value was refused; tp_word_why() says it in words. */
enum tp_word_err {
	TP_WE_OK = 0,
	TP_WE_NOT_NUMBER,
	TP_WE_RANGE,
	TP_WE_NOT_BOOL,
	TP_WE_CHOICE,
	TP_WE_EMPTY,
	TP_WE_TOO_LONG,
	TP_WE_NEEDS_VALUE,
	TP_WE_FORMAT,		/* check() refused it; see its reason */
};

struct tp_word {
	const char *name;	/* without the "timeprobe." prefix */
	enum tp_word_type type;
	uint8_t by;		/* TP_BY_* */
	uint8_t reader;		/* TP_FOR_* */
	uint8_t flags;		/* TP_WF_* */
	int64_t lo, hi;		/* INT/INTS bounds; STR: hi = longest value in bytes */
	int64_t def;		/* INT/BOOL/CHOICE: the value when the word is absent */
	const char *choices;	/* CHOICE: "a|b|c" */
	const char *dflt;	/* the default in words (the appliance's) */
	const char *dflt_host;	/* on a host, when it differs; NULL: the same */
	const char *bounds;	/* bounds in words for help; NULL: from lo/hi/choices */
	const char *help;
	/* STR: format check of the value; returns NULL or why it is malformed. */
	const char *(*check)(const char *v, size_t n);
};

/* The contract's rows, by name: tp_words[TPW_CALIB_ROUNDS] and so on. */
enum tp_word_id {
	/* the suite's own, set by people */
	TPW_PROBES, TPW_PROFILE, TPW_AFTER, TPW_REPEAT, TPW_ROUNDS, TPW_TIMEOUT, TPW_WATCHDOG,
	TPW_INJECT, TPW_SAVE, TPW_SAVE_TO, TPW_HOLD, TPW_LAVA, TPW_CPU_DMA_LATENCY, TPW_UPLOAD,
	TPW_PUSH,
	/* the stub's own, set by people in cmdline.txt */
	TPW_CALIB_ROUNDS, TPW_CALIB_MS, TPW_TSC_EARLY, TPW_HWLAT_MS, TPW_HWLAT_THRESH_US,
	TPW_HWLAT_STUCK,
	/* written by the stub */
	TPW_TSC_HZ, TPW_TSC_REF, TPW_BOOTPART, TPW_FIRMWARE, TPW_BOOT_TSC,
	TPW_TSC_EARLY_KHZ,
	TPW_PANIC,
	/* Linux's own, which the stub checks before it starts the kernel */
	TPW_CONSOLE, TPW_INITRD,
	/* written by the build and the launcher */
	TPW_VARIANT, TPW_KCONFIG, TPW_ACCEL,
	TPW_COUNT
};

extern const struct tp_word tp_words[TPW_COUNT];

/*
 * The kernel's word rules, written once (Linux 6.1, lib/cmdline.c next_arg,
 * kernel/params.c parse_args and parameq); the stub and the suite walk every
 * command line with these, and tests/unit/test_nextarg.c runs them against
 * a copy of Linux's own next_arg on generated lines.
 *
 * Next word of a command line at *pos (start with 0): blanks (Linux's
 * isspace, Latin-1: so byte 0xA0, also inside UTF-8 sequences such as
 * C2 A0 and D0 A0) outside double quotes separate words; the quotes stay in
 * the word. Sets *start and returns its length, 0 at the end.
 */
size_t tp_line_word(const char *line, size_t *pos, const char **start);

/* 1 for the bytes that separate words: Linux's isspace() (lib/ctype.c), 0x09-0x0D, 0x20, 0xA0. */
int tp_line_blank(char c);

/*
 * One word as Linux's next_arg() reads it: its name (param) and value, the
 * quotes it strips taken out ("a=\"b c\"" is a and b c). has_val: the word
 * had a '=' after its first byte.
 */
struct tp_arg {
	const char *word;	/* the word as written, quotes and all */
	size_t len;
	const char *name;	/* next_arg's param */
	size_t name_len;
	const char *val;	/* next_arg's val; NULL when has_val is 0 */
	size_t val_len;
	int has_val;
};

/* The next word of line at *pos into *a, as next_arg() cuts it; 0 at the end. */
int tp_line_arg(const char *line, size_t *pos, struct tp_arg *a);

/* 1 for the word that ends the kernel's parameters ("--", quoted or not; parse_args). */
int tp_arg_dashes(const struct tp_arg *a);

/* Linux's parameq(): names equal when '-' and '_' are taken alike. */
int tp_param_eq(const char *a, size_t an, const char *b, size_t bn);

/*
 * The stub's tsc_early_khz= for its figure tsc_hz: kHz rounded to the
 * nearest (docs/stub.md). The suite compares the kernel's value with it to
 * tell the stub's word from one a person typed (issue 50, H3).
 */
uint64_t tp_tsc_early_khz(uint64_t tsc_hz);

/* The row named name[0..n) (without prefix; '-' and '_' alike, as Linux's parameq), or NULL. */
const struct tp_word *tp_word_find(const char *name, size_t n);

/*
 * Parses one decimal (INT, or one element of INTS) within the row's bounds,
 * or a boolean for BOOL. Returns TP_WE_OK and sets *v.
 */
enum tp_word_err tp_word_int(const struct tp_word *w, const char *s, size_t n, int64_t *v);

/* CHOICE: the index of s[0..n) in w->choices, or TP_WE_CHOICE. */
enum tp_word_err tp_word_choice(const struct tp_word *w, const char *s, size_t n, int64_t *v);

/*
 * Checks a whole value of any type (lists element by element); for STR,
 * *reason gets check()'s text on TP_WE_FORMAT. value NULL: the bare word.
 */
enum tp_word_err tp_word_check(const struct tp_word *w, const char *s, size_t n,
			       const char **reason);

struct tp_buf;
/* "out of range 1..32", "not one of full|quick", ... */
void tp_word_why(struct tp_buf *b, const struct tp_word *w, enum tp_word_err e,
		 const char *reason);

/* 1 when the suite stores nothing for the row: the stub or kernel reads it. */
int tp_word_stub_only(const struct tp_word *w);

#endif
