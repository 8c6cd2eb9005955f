// SPDX-License-Identifier: MIT
/*
 * The identity schema; see schema.h. A probe's result keys are its own
 * declaration (keys.h: struct probe_key in the probe's file); the rows
 * here are the records no probe declares, by record type.
 */
#include <fnmatch.h>
#include <string.h>

#include "keys.h"
#include "schema.h"
#include "util.h"

struct schema_row {
	const char *type;	/* record type, fnmatch() pattern; "*": every record */
	const char *key;	/* fnmatch() pattern */
	enum key_class cls;
	const char *why;
};

#define F KEY_FIGURE
#define B KEY_BUDGET
#define I KEY_ID
#define C KEY_CONTEXT

/*
 * Identity keys are the parameters a user or the probe chose; context is
 * what the run found or happened to use. Rows are tried in order.
 */
static const struct schema_row schema[] = {
	{ "*", "type", KEY_FRAME, "the record type" },
	{ "*", "iteration", KEY_FRAME, "which repetition (--repeat): iterations combine" },
	{ "*", "round", KEY_FRAME, "which round of the probe's budget (--rounds): the run's record follows; the comparison's samples" },
	{ "*", "probe", I, "the probe" },
	{ "*", "name", I, "what was measured, as a person writes it" },
	/* here: each probe's declaration of its result records' keys (keys.h) */

	{ "calib", "source", I, "stub, kernel or user" },
	{ "calib", "ref", I, "the reference clock" },
	{ "calib", "*_hz", F, "frequencies: TSC, reference, crystal" },
	{ "calib", "*_ppm", F, "spread and outlier limit" },
	{ "calib", "rejected", F, "rounds rejected" },
	{ "calib", "retried", F, "rounds retried" },
	{ "calib", "failed_rounds", F, "user rounds without a figure, left out" },
	{ "calib", "derived_from", C, "the figure or source it was taken from" },
	{ "calib", "independent_of", C, "the figures of another origin" },
	{ "calib", "duration_us", B, "time calibrating" },
	{ "calib", "log_us", F, "kernel log time of the message" },
	{ "calib", "base_mhz", F, "CPUID 0x16 base frequency" },
	{ "calib", "numerator", F, "CPUID 0x15 EBX" },
	{ "calib", "denominator", F, "CPUID 0x15 EAX" },
	{ "calib", "period_fs", F, "HPET period" },
	{ "calib", "rounds", C, "rounds asked for" },
	{ "calib", "*window_ms", C, "length of one round" },
	{ "calib", "round_ms", C, "length of one round" },
	{ "calib", "latch", C, "PIT count" },
	{ "calib", "bits", C, "PM timer width" },
	{ "calib", "space", C, "PM timer address space" },
	{ "calib", "*", C, "what the reference is and whether it worked" },

	{ "calib_summary", "source", I, "stub" },
	{ "calib_summary", "tsc_hz", F, "the chosen frequency" },
	{ "calib_summary", "*_ppm", F, "disagreement between hardware references" },
	{ "calib_summary", "hardware_refs", F, "hardware references that worked" },
	{ "calib_summary", "*", C, "the choice and how it was made" },

	{ "skip", "*", C, "the reason and the error" },
	{ "error", "option", I, "a bad option's name" },
	{ "error", "*", C, "the reason, signal, exit status, limits" },
	{ "warning", "option", I, "an option's old spelling, taken" },
	{ "warning", "*", C, "the value, and the option's new name" },

	{ "run", "*", C, "where and how the suite ran: the header of a run" },
	{ "keys", "*", C, "a probe's key declaration: the rows of its result records in this table" },
	{ "attribution", "for_probe", I, "the probe it was measured around" },
	{ "attribution", "ran_ms", B, "the window the counts cover (report: their rates)" },
	/* the probe's own share leads; the whole machine's is shown beside it, never leads */
	{ "attribution", "own_cpus", C, "the CPUs the probe was pinned to (isolcpus=)" },
	{ "attribution", "own_*ctxsw", F, "the probe's own (voluntary, involuntary) context switches: its process tree (getrusage RUSAGE_CHILDREN)" },
	{ "attribution", "own_cpu_ms", F, "the probe's own CPU time, user + system: its process tree (getrusage RUSAGE_CHILDREN)" },
	{ "attribution", "own_migrations", F, "older captures: the probe's tree's moves between CPUs (an inherited perf counter; now machine_migrations)" },
	{ "attribution", "own_cpus_*", F, "interrupts, softirqs on the CPUs the probe was pinned to" },
	{ "attribution", "machine_*", B, "the whole machine's context switches (/proc/stat ctxt), interrupts, softirqs: never leads" },
	{ "attribution", "irq:*", B, "the whole machine's interrupts from one source (/proc/interrupts): never leads" },
	{ "attribution", "softirq:*", B, "the whole machine's softirqs of one kind (/proc/softirqs): never leads" },
	{ "attribution", "context_switches", B, "older captures: machine_context_switches" },
	{ "attribution", "smis", F, "SMIs on every online CPU (MSR_SMI_COUNT); each stops the probe too; null: missing says why" },
	{ "attribution", "*", C, "the window, the CPUs read, what is missing and why" },
	{ "fingerprint", "*", C, "what the machine is: CPU, hypervisor, TSC, clocks, firmware, kernel; missing says why a field is null" },
	{ "end", "*", C, "probe counts and records written" },
	{ "verdict", "emulated*", C, "tcg or hypervisor, and which: the figures are the emulator's (null: neither)" },
	{ "verdict", "items", C, "each figure people act on: its value, unit, word (docs/verdict.md), where it came from or why not" },
	{ "tsc_readiness", "*", C, "is tsc=reliable safe: the answer, its reasons, the kernel words, the reference the vote named (docs/readiness.md)" },
	{ "stub*", "*", C, "what the firmware stub found and did" },
	/* their lengths are the stub's choice; what varies is a window retried (calib's retried) */
	{ "boot", "stub_calibration_us", B, "the stub's calibration: its references' rounds of windows, and any window it retried" },
	{ "boot", "stub_hwlat_us", B, "the pre-OS scan: the length timeprobe.hwlat_ms= gave it" },
	{ "boot", "*_us", F, "a boot phase or span in us (TSC over the stub's frequency)" },
	{ "boot", "*", C, "the boot timeline: the clock, its frequency, how to read it" },
	{ "upload", "*", C, "the results file or the figures sent to a server after the run: URL, status, bytes, tries" },
};


#undef F
#undef B
#undef I
#undef C

/* Lookups are cached: a capture has thousands of records with the same few keys. */
#define CACHE_MAX 8192
static json_t *cache;
static unsigned cache_generation;

/*
 * A probe's declaration classifies the keys of its results; in its skip
 * and error records only its identity keys (a skip lines up with the
 * result it stands for), the rest by the record type's rows.
 */
static enum key_class declared(const char *type, const char *probe, const char *key)
{
	const struct key_decl *d = probe ? keys_find(probe, key) : NULL;

	/* a declared figure's interval, [lo, hi, n] (keys.h): context */
	if (!d && probe && !strcmp(type, "result") && keys_ci_of(probe, key))
		return KEY_CONTEXT;
	if (!d)
		return KEY_UNKNOWN;
	if (!strcmp(type, "result"))
		return d->cls;
	if (d->cls == KEY_ID && (!strcmp(type, "skip") || !strcmp(type, "error")))
		return KEY_ID;
	return KEY_UNKNOWN;
}

static enum key_class lookup(const char *type, const char *probe, const char *key)
{
	enum key_class c = declared(type, probe, key);

	for (size_t i = 0; c == KEY_UNKNOWN && i < ARRAY_SIZE(schema); i++)
		if (!fnmatch(schema[i].type, type, 0) && !fnmatch(schema[i].key, key, 0))
			c = schema[i].cls;
	return c;
}

/* "type\x1fprobe\x1fkey" into buf (of n bytes) if it fits, else into a new string. */
static char *cache_key(char *buf, size_t n, const char *type, const char *probe, const char *key)
{
	const char *part[] = { type, probe ? probe : "", key };
	size_t len[3], total = 0;
	char *ck, *p;

	for (size_t i = 0; i < 3; i++)
		total += (len[i] = strlen(part[i])) + 1;
	ck = p = total <= n ? buf : xmalloc(total);
	for (size_t i = 0; i < 3; i++) {
		memcpy(p, part[i], len[i]);
		p += len[i];
		*p++ = i < 2 ? '\x1f' : 0;
	}
	return ck;
}

enum key_class schema_lookup(const char *type, const char *probe, const char *key)
{
	char buf[256], *ck;
	json_t *hit;
	enum key_class c;

	if (!cache || cache_generation != keys_generation()) {
		json_decref(cache);
		cache = json_object();
		cache_generation = keys_generation();
	}
	/* a lookup for every key of every record: no printf, no allocation */
	ck = cache_key(buf, sizeof(buf), type, probe, key);
	hit = json_object_get(cache, ck);
	if (hit) {
		c = (enum key_class)json_integer_value(hit);
	} else {
		c = lookup(type, probe, key);
		if (json_object_size(cache) >= CACHE_MAX)
			json_object_clear(cache);
		json_object_set_new(cache, ck, json_integer(c));
	}
	if (ck != buf)
		free(ck);
	return c;
}

int schema_is_figure(enum key_class c)
{
	return c == KEY_FIGURE || c == KEY_BUDGET;
}

int schema_signed(const char *probe, const char *key)
{
	const struct key_decl *d = probe ? keys_find(probe, key) : NULL;

	return d && d->dir == KEY_DIR_ZERO;
}

enum combine schema_combine(const char *type, const char *probe, const char *key, char *other,
			    size_t n)
{
	const struct key_decl *d, *half;
	const char *partner;
	int len;

	/* the cached lookup first: most keys are no figure of a result */
	if (strcmp(type, "result") || !probe || !schema_is_figure(schema_lookup(type, probe, key)))
		return COMBINE_MEAN;
	d = keys_find(probe, key);
	half = keys_half_of(probe, key);
	partner = d && d->half_of ? d->half_of : half ? half->name : NULL;
	if (!d || !partner)
		return COMBINE_MEAN;
	len = snprintf(other, n, "%s", partner);
	if (len < 0 || (size_t)len >= n || !schema_is_figure(schema_lookup(type, probe, other)))
		return COMBINE_MEAN;
	return d->half_of ? COMBINE_HALF_WIDTH : COMBINE_CENTRE;
}

enum key_class rec_key_class(const json_t *rec, const char *key, const json_t *val)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	enum key_class c = schema_lookup(type ? type : "", json_string_value(json_object_get(rec, "probe")),
					 key);

	if (c == KEY_UNKNOWN)
		c = json_is_number(val) ? KEY_FIGURE : KEY_CONTEXT;
	if (schema_is_figure(c) && !json_is_number(val))
		c = KEY_CONTEXT;
	return c;
}

const char *key_class_name(enum key_class c)
{
	static const char *const names[] = {
		[KEY_UNKNOWN] = "unknown", [KEY_FRAME] = "frame", [KEY_ID] = "id",
		[KEY_FIGURE] = "figure", [KEY_BUDGET] = "budget", [KEY_CONTEXT] = "context",
	};

	return (size_t)c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

/* A table cell: the pattern in code quotes, '|' escaped for GFM. */
static void md_code(FILE *f, const char *s)
{
	fputc('`', f);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[2]){ *s, 0 }, f);
	fputc('`', f);
}

static void md_row(FILE *f, const char *type, const char *probe, const char *key,
		   enum key_class c, const char *unit, const char *dir)
{
	fputs("| ", f);
	md_code(f, type);
	fputs(" | ", f);
	if (probe)
		md_code(f, probe);
	fputs(" | ", f);
	md_code(f, key);
	fprintf(f, " | %s | %s | %s | ", key_class_name(c), unit ? unit : "", dir ? dir : "");
}

/* One declared key: what it is, and the rules it carries. */
static void md_declared(const char *probe, const struct key_decl *d, void *arg)
{
	FILE *f = arg;

	md_row(f, "result", probe, d->name, d->cls, d->unit, keys_dir_name(d->dir));
	fputs(d->what ? d->what : "", f);
	if (d->same_as) {
		fputs("; the same fact as ", f);
		md_code(f, d->same_as);
		if (d->same_below_n)
			fprintf(f, " when n < %ld", d->same_below_n);
		fputs(", shown once", f);
	}
	if (d->max_of) {
		fputs("; the largest ", f);
		md_code(f, d->max_of);
		fputs(" of the probe's other results, shown once, by its own", f);
	}
	if (d->half_of) {
		fputs("; iterations combine as the intersection of ", f);
		md_code(f, d->half_of);
		fputs(" ± ", f);
		md_code(f, d->name);
	}
	fputs(" |\n", f);
}

void schema_print_markdown(FILE *f)
{
	fputs("| record | probe | key | class | unit | better | what |\n"
	      "|---|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(schema); i++) {
		const struct schema_row *r = &schema[i];

		/* the probes' declarations after the rows for every record */
		if (i && !strcmp(schema[i - 1].type, "*") && strcmp(r->type, "*"))
			keys_foreach_builtin(md_declared, f);
		md_row(f, r->type, NULL, r->key, r->cls, NULL, NULL);
		fprintf(f, "%s |\n", r->why);
	}
}

void schema_unknown_keys(const json_t *rec, json_t *unknown)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	const char *probe = json_string_value(json_object_get(rec, "probe"));
	const char *key;
	json_t *val;

	json_object_foreach((json_t *)rec, key, val) {
		char *k;
		json_t *n;

		if (schema_lookup(type ? type : "", probe, key) != KEY_UNKNOWN)
			continue;
		k = xasprintf("%s/%s/%s", type ? type : "?", probe ? probe : "-", key);
		n = json_object_get(unknown, k);
		json_object_set_new(unknown, k, json_integer(n ? json_integer_value(n) + 1 : 1));
		free(k);
	}
}

void schema_cache_free(void)
{
	json_decref(cache);
	cache = NULL;
}
