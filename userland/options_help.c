// SPDX-License-Identifier: MIT
/*
 * `timeprobe help` and README's option tables, both printed from the rows
 * options.c knows (common/words.c and the probes' own), so they cannot
 * disagree; tests/host/readme-options.t compares README.md with the output.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "probe.h"
#include "../common/stubfile.h"
#include "../common/words.h"

/* A person sets it (cmdline.txt, --NAME=VALUE); the kernel's own words aside. */
static int for_people(const struct tp_word *w)
{
	return (w->by & TP_BY_USER) && !(w->flags & TP_WF_BARE);
}

/* "1..100", "one of a|b", or the row's own words; markdown quotes choices. */
static void bounds(FILE *f, const struct tp_word *w, int md)
{
	if (w->bounds) {
		fputs(w->bounds, f);
		return;
	}
	switch (w->type) {
	case TP_WT_INT:
	case TP_WT_INTS:
		fprintf(f, "%lld..%lld%s", (long long)w->lo, (long long)w->hi,
			w->type == TP_WT_INTS ? " each" : "");
		break;
	case TP_WT_BOOL:
		fputs(md ? "0/1" : "0, 1, on, off", f);
		break;
	case TP_WT_CHOICE:
		if (!md) {
			fprintf(f, "one of %s", w->choices);
			break;
		}
		for (const char *c = w->choices; *c;) {
			size_t n = strcspn(c, "|");

			fprintf(f, "%s`%.*s`", c == w->choices ? "" : ", ", (int)n, c);
			c += n + (c[n] == '|');
		}
		break;
	case TP_WT_NAMES:
		fputs("comma-separated names", f);
		break;
	case TP_WT_STR:
		fprintf(f, "text, at most %lld bytes", (long long)w->hi);
		break;
	}
}

static void dflt(FILE *f, const struct tp_word *w)
{
	if (w->dflt_host)
		fprintf(f, "%s in the appliance, %s on a host", w->dflt, w->dflt_host);
	else
		fputs(w->dflt, f);
}

/* The probe options' old spellings, still taken for one release (struct probe_opt .was). */
static void old_spellings(FILE *f, int md)
{
	fputs(md ? "\n| old spelling | now |\n|---|---|\n" :
		   "\nOld spellings, still taken with a warning until the next release:\n", f);
	for (size_t k = 0; k < probe_count; k++) {
		for (size_t i = 0; i < probe_table[k]->n_opts; i++) {
			const struct probe_opt *po = &probe_table[k]->opts[i];

			if (po->was)
				fprintf(f, md ? "| `%s` | `%s` |\n" : "  %-20s now %s\n", po->was, po->w.name);
		}
	}
}

void options_usage(FILE *f)
{
	const struct tp_word *w;

	fprintf(f, "Options (--NAME=VALUE on a host, timeprobe.NAME=VALUE on the kernel command line):\n");
	for (size_t i = 0; (w = options_row(i)) != 0; i++) {
		if (!for_people(w))
			continue;
		fprintf(f, "  %-20s %s\n  %-20s default ", w->name, w->help, "");
		dflt(f, w);
		fputs("; ", f);
		bounds(f, w, 0);
		fputc('\n', f);
	}
	old_spellings(f, 0);
	fprintf(f, "\nWritten by the stub, the build or the launcher, not by people:\n");
	for (size_t i = 0; i < TPW_COUNT; i++) {
		char name[48];

		w = &tp_words[i];
		if (for_people(w))
			continue;
		if (w->by == TP_BY_STUB)	/* a key of the stub's file, never on the line */
			snprintf(name, sizeof(name), "%s (stub's file)", w->name);
		else
			snprintf(name, sizeof(name), "%s%s=", w->flags & TP_WF_BARE ? "" : TP_WORD_PREFIX,
				 w->name);
		fprintf(f, "  %-25s %s\n", name, w->help);
	}
}

static const char *writer(const struct tp_word *w)
{
	if (w->by == TP_BY_USER)
		return "cmdline.txt";
	if (w->by & TP_BY_STUB)
		return w->by & TP_BY_USER ? "stub (unless cmdline.txt has it)" : "stub";
	if (w->by & TP_BY_BUILD)
		return "image build";
	return "QEMU launcher";
}

/* "stub, Linux, suite": each reader of the word, in boot order. */
static void reader(FILE *f, const struct tp_word *w)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} r[] = { { TP_FOR_STUB, "stub" }, { TP_FOR_KERNEL, "Linux" }, { TP_FOR_SUITE, "suite" } };
	const char *sep = "";

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		if (w->reader & r[i].bit) {
			fprintf(f, "%s%s", sep, r[i].name);
			sep = ", ";
		}
	}
}

void options_markdown(FILE *f)
{
	const struct tp_word *w;

	fprintf(f, "| option | default | bounds | meaning |\n|---|---|---|---|\n");
	for (size_t i = 0; (w = options_row(i)) != 0; i++) {
		if (!for_people(w))
			continue;
		fprintf(f, "| `%s` | ", w->name);
		dflt(f, w);
		fputs(" | ", f);
		bounds(f, w, 1);
		fprintf(f, " | %s |\n", w->help);
	}
	old_spellings(f, 1);
	fprintf(f, "\n| word | written by | read by | format | meaning |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < TPW_COUNT; i++) {
		w = &tp_words[i];
		if (for_people(w))
			continue;
		/* the stub's own values reach the suite in its file, never on the line */
		if (w->by == TP_BY_STUB)
			fprintf(f, "| `%s` in `" TP_STUB_FILE_PATH "` | %s | ", w->name, writer(w));
		else
			fprintf(f, "| `%s%s=` | %s | ", w->flags & TP_WF_BARE ? "" : TP_WORD_PREFIX,
				w->name, writer(w));
		reader(f, w);
		fputs(" | ", f);
		bounds(f, w, 1);
		fprintf(f, " | %s |\n", w->help);
	}
}
