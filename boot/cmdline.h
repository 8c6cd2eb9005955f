/* SPDX-License-Identifier: MIT */
/*
 * The kernel command line, EFI-free: finding words, assembling the stub's
 * line from the user's words and the stub's results (the words and their
 * formats are the contract's, common/words.h and common/handoff.h), and
 * checking the result before the kernel gets it. Tested by
 * tests/unit/test_bootcmd.c and tests/unit/test_handoff.c. The format is
 * documented in docs/stub.md, "Command line hand-off".
 */
#ifndef TP_BOOT_CMDLINE_H
#define TP_BOOT_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/*
 * Longest command line handed to the kernel, in bytes without the NUL. The
 * x86 kernel keeps COMMAND_LINE_SIZE = 2048 bytes including the NUL
 * (arch/x86/include/asm/setup.h) and cuts anything longer silently; we cut
 * first, at a word boundary, and say so.
 */
#define TP_CMDLINE_MAX 2047

/*
 * Used when cmdline.txt is missing, unreadable or unusable: tools/cmdline.txt,
 * the line the image ships (tests/host/cmdline-flatten.t keeps them equal).
 * The last console= is Linux's /dev/console: the serial port.
 */
#define TP_CMDLINE_DEFAULT \
	TP_ARCH_CONSOLE " initrd=\\EFI\\timeprobe\\initramfs.img"

/*
 * Words are Linux's (common/words.h, tp_line_arg): blanks are Latin-1
 * (0xA0 too), names match with '-' and '_' alike, and no parameter is read
 * after "--", quoted or not.
 *
 * Finds the last parameter `name` (as "name=value" or a bare "name") in a
 * command line, words separated by spaces outside double quotes. Returns a
 * pointer to the value (after '=', or to "" for a bare name) and sets *vlen,
 * or NULL when absent.
 */
const char *tp_cmdline_find(const char *line, const char *name, size_t *vlen);

/* Iterates over every occurrence of `name`: start with *pos = 0. */
const char *tp_cmdline_next(const char *line, const char *name, size_t *pos, size_t *vlen);

/*
 * Removes every `name` parameter (bare or name=value) from line in place,
 * keeping the other words and single spaces. Returns how many were removed.
 * The single-file stub drops initrd= this way: its initramfs comes through
 * LINUX_EFI_INITRD_MEDIA_GUID instead. Tested by tests/unit/test_pe.c.
 */
unsigned int tp_cmdline_drop(char *line, const char *name);

/* Removes every word holding sub anywhere (Linux finds initrd= so); how many. */
unsigned int tp_cmdline_drop_substr(char *line, const char *sub);

/* Bytes of ill-formed UTF-8 that cutting words left: ' ' for a blank, '?' else; how many. */
unsigned int tp_cmdline_utf8_repair(char *line);
/* What the stub knows when it adds its words for the kernel. */
struct tp_cmdline_extras {
	uint64_t tsc_hz;	/* 0: calibration failed, no tsc_early_khz= */
};

struct tp_cmdline_report {
	int added_panic;
	int added_tsc_early;
	int before_dashes;	/* the line has "--": the stub's words went before it */
	unsigned int user_words_dropped;	/* cmdline.txt words cut from the end */
	size_t len;
};

/*
 * Assembles the kernel command line into out (cap >= TP_CMDLINE_MAX + 1):
 *   <user> [panic=0] [tsc_early_khz=K]
 * or, when the user's words hold "--" (after which Linux reads no
 * parameter, init/main.c), <user before --> [panic=0] [tsc_early_khz=K]
 * -- <rest>. panic= unless user has panic=; tsc_early_khz unless user has
 * it or says timeprobe.tsc_early=off. The stub's other results go to PID 1
 * in its file (common/stubfile.h), not on this line. When the whole does
 * not fit in TP_CMDLINE_MAX, cmdline.txt's last words are cut. Returns 0,
 * 1 when something was dropped, -1 when cap is too small.
 */
int tp_cmdline_assemble(char *out, size_t cap, const char *user,
			const struct tp_cmdline_extras *x, struct tp_cmdline_report *rep);

/*
 * Linux hands init at most MAX_INIT_ARGS (32) arguments and MAX_INIT_ENVS
 * (32) environment entries from its command line and panics on one more
 * ("Too many boot env vars", init/main.c, unknown_bootoption): argv_init
 * already holds "init", envp_init HOME=/ and TERM=linux. A word whose name
 * holds a '.' is a module's; a few kernel parameters are known; any other
 * name=value is an entry (the same name again replaces it), any other bare
 * word and every word after "--" an argument.
 */
#define TP_INIT_ARGS_MAX 31
#define TP_INIT_ENVS_MAX 30

struct tp_init_cap {
	unsigned int args, envs;		/* taken, up to the limits */
	unsigned int args_dropped, envs_dropped;
	size_t first_dropped;			/* offset of the first dropped word */
};

/*
 * Drops the words past the limits from line, in place (the blanks before
 * each kept word kept, tp_cmdline_utf8_repair() after); returns how many.
 */
unsigned int tp_cmdline_cap_init(char *line, struct tp_init_cap *cap);

/* The stub's warning for a line tp_cmdline_assemble() cut: what was dropped. */
struct tp_buf;
void tp_cmdline_report_text(struct tp_buf *b, const struct tp_cmdline_report *rep);

/* What is wrong with an assembled line (bits), tp_cmdline_faults(). */
#define TP_CF_EMPTY 0x1		/* nothing of the user's file survived decoding */
#define TP_CF_NO_INITRD 0x2	/* no initrd= while the initramfs file exists */
#define TP_CF_NO_CONSOLE 0x4	/* no console= while the firmware has a serial port */
#define TP_CF_NOINITRD 0x8	/* noinitrd: Linux would not use the initramfs, whichever */

struct tp_cmdline_env {
	int user_empty;		/* the user's source gave no word at all */
	int initrd_file;	/* the initramfs is a file on the volume (file mode) */
	int serial;		/* the firmware has a serial console */
	int drop_initrd;	/* single file with .initrd: no initrd= words */
};

/* Checks an assembled line against what the machine has; 0 when it is fine. */
unsigned int tp_cmdline_faults(const char *line, const struct tp_cmdline_env *env);

/* "no initrd=, no console=" for a message; every bit of faults named. */
void tp_cmdline_faults_text(struct tp_buf *b, unsigned int faults);

/*
 * The line to use instead of a faulty user line: TP_CMDLINE_DEFAULT, then
 * every timeprobe.* word of user that a person may set and whose value the
 * contract accepts (common/words.c), in their order. Returns how many of
 * the user's words were kept.
 */
unsigned int tp_cmdline_fallback(char *out, size_t cap, const char *user);

struct tp_cmdline_final {
	struct tp_cmdline_report rep;	/* of the line the kernel gets */
	unsigned int faults;		/* of the first line; non-zero: fallback used */
	unsigned int fallback_kept;	/* the user's timeprobe.* words kept */
};

/*
 * The stub's last step: assembles the line from user (TP_CMDLINE_MAX + 1
 * bytes, rewritten with the fallback when needed) and x, checks it with
 * tp_cmdline_faults() and, when it is broken, assembles again from
 * tp_cmdline_fallback(). Returns tp_cmdline_assemble()'s result for the
 * line in out. A broken line never reaches the kernel.
 */
int tp_cmdline_final(char *out, size_t cap, char *user, const struct tp_cmdline_extras *x,
		     const struct tp_cmdline_env *env, struct tp_cmdline_final *f);

#endif
