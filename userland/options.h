/* SPDX-License-Identifier: MIT */
/*
 * Options: the command-line contract's rows (common/words.h) plus each
 * probe's own rows (struct probe_opt, probe.h), read from the kernel
 * command line ("timeprobe.NAME=VALUE") in the appliance and from argv
 * ("--NAME=VALUE") on a host. A bad option never stops a run: it is
 * reported and the default is kept; a probe option's old spelling sets it
 * with a warning. Words the stub alone reads are accepted, checked against the
 * same bounds as the stub's, and listed in the run record.
 */
#ifndef TP_OPTIONS_H
#define TP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/handoff.h"
#include "../common/url.h"

#define OPT_LIST_MAX 32
#define OPT_ERRORS_MAX 32
#define OPT_STUB_WORDS_MAX 8

enum after { AFTER_POWEROFF, AFTER_REBOOT, AFTER_HALT };
enum opt_env { OPT_ENV_APPLIANCE, OPT_ENV_HOST };
enum save { SAVE_AUTO, SAVE_OFF };

struct int_list {
	size_t n;
	int64_t v[OPT_LIST_MAX];
};

/* The values asked for, else the defaults dflt[0..ndflt), at most max into out; how many. */
size_t int_list_or(const struct int_list *asked, const int64_t *dflt, size_t ndflt, int64_t *out,
		   size_t max);

struct name_list {
	size_t n;
	char v[OPT_LIST_MAX][24];
};

/* The suite's own words; each probe keeps its own options (struct probe_opt). */
struct options {
	struct name_list probes;	/* empty: all */
	int quick;			/* profile: 1 quick, 0 full */
	enum after after;
	int repeat;
	int rounds;		/* each probe's samples in this many rounds, interleaved (suite.c) */
	int timeout_s;			/* per-probe limit; 0: the probe's own, scaled by profile */
	int watchdog_s;			/* whole-run limit; 0: off */
	struct name_list inject;	/* crash, hang, exit */
	enum save save;
	char save_to[80];		/* a partition the user named (bootpart's format) */
	int hold_s;			/* -1: default for the machine */
	int lava;			/* 1: LAVA monitor lines too (lavamon.h) */
	int cpu_dma_latency_us;		/* held for the run (dmalat.h); -1: none */
	char upload[TP_URL_MAX + 1];	/* timeprobe.upload=: where the results file goes; empty: nowhere */
	char push[TP_URL_MAX + 1];	/* timeprobe.push=: a Pushgateway for the headline figures */

	/* Written by the image build and the launcher (the stub's figures: stubvals.h). */
	char variant[32];		/* kernel variant name */
	char kconfig[64];		/* kernel configuration highlights (hz:N,preempt:M,nohz:K) */
	char accel[64];			/* the launcher's accelerator and CPU model ("tcg:max", "kvm:host") */

	/* Linux's own words that the suite reads too (bare, not timeprobe.*). */
	int64_t tsc_early_khz;		/* 0: none; the stub's figure that the kernel adopts */

	/* Words the stub alone reads (calib_rounds, ...), as given: run record. */
	size_t n_stub_words;
	struct {
		char name[24];
		char value[32];
	} stub_words[OPT_STUB_WORDS_MAX];
};

struct opt_error {
	char name[48];
	char value[80];
	char reason[160];
	int taken;		/* 1: the value was set all the same (an old spelling): a warning */
	int as_typed;		/* 1: name is a whole word's name, a mistyped "timeprobe." in it */
};

struct opt_errors {
	size_t n;
	struct opt_error e[OPT_ERRORS_MAX];
};

void options_defaults(struct options *o);

/*
 * After every option was read: the defaults that depend on where the suite
 * runs (the appliance or a host), from the rows. The one place they are
 * resolved; probes read resolved values.
 */
void options_resolve(struct options *o, enum opt_env env);

/* Who put a word where the suite read it; each row's writer (tp_word.by) says who may. */
enum opt_source {
	OPT_FROM_USER,		/* cmdline.txt's words, a host's --NAME=VALUE: not the stub's rows */
	OPT_FROM_LAUNCHER,	/* SMBIOS OEM strings: the rows a launcher writes */
};

/*
 * Applies one "name=value" (name without prefix) from src. Returns 0, or -1
 * after appending to errs (the option keeps its previous value); a word src
 * may not write is refused that way too. A probe option's old spelling
 * (struct probe_opt .was) sets it, returns 0 and appends a warning
 * ("X is now Y", taken 1).
 */
int options_set_from(struct options *o, enum opt_source src, const char *name,
		     const char *value, struct opt_errors *errs);

/* options_set_from(o, OPT_FROM_USER, ...) */
int options_set(struct options *o, const char *name, const char *value,
		struct opt_errors *errs);

/*
 * Parses a kernel command line: every "timeprobe.NAME=VALUE" word is applied,
 * and the kernel's own words that the suite reads (options_from_kernel());
 * other words are the kernel's and are ignored. Every word is the user's:
 * a word only the stub writes is refused by name (the stub's values come
 * from its file, userland/stubread.c), and the retired
 * timeprobe.seal= is one error record. A word whose prefix is a near miss
 * of "timeprobe." (timeprob.profile=quick, suggest_prefix_typo()) is one
 * too, with the word meant, as_typed. `timeprobe check-words` reads an
 * image's line through it before the image is made.
 */
void options_from_cmdline(struct options *o, const char *cmdline, struct opt_errors *errs);
/* Only Linux's own words that the suite reads (tsc_early_khz=): a host's
 * /proc/cmdline, whose timeprobe.* words are not the run's. */
void options_from_kernel(struct options *o, const char *cmdline, struct opt_errors *errs);

/* SMBIOS OEM strings (blank-separated words): only the launcher's rows are taken. */
void options_from_launcher(struct options *o, const char *words, struct opt_errors *errs);

/* The i-th row the suite knows (contract rows and probe rows), NULL past the end. */
struct tp_word;
const struct tp_word *options_row(size_t i);

/* Help text for every option a person sets: name, default, bounds. */
#include <stdio.h>
void options_usage(FILE *f);

/*
 * README's tables, in Markdown: the options people set, then the words the
 * stub, the build and the launcher write. tests/host/readme-options.t
 * compares them with README.md.
 */
void options_markdown(FILE *f);

#endif
