// SPDX-License-Identifier: MIT
/*
 * One KCIDB I/O document (kernelci/kcidb-io schema v5.3, a copy in
 * tests/schemas/kcidb/): per run a checkout and a build describing the
 * appliance (kernel release, config variant, timeprobe version, boot
 * partition), and per headline figure a test with status DONE and
 * `number` {value, unit}, per error record a test with status FAIL, per
 * skip record one with SKIP, and per verdict item a test
 * timeprobe.verdict.ITEM with PASS (good, fair), FAIL (poor) or SKIP (not
 * measured, unknown), so CI can gate on it; the fingerprint, the run's
 * conditions and its tsc=reliable answer go into every test's
 * environment.misc. Ids are "timeprobe:" and a hash of the run record, so
 * the same run gives the same ids. docs/exporting.md.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

#define KCIDB_ORIGIN "timeprobe"
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

/* FNV-1a, 64 bits, of the run record as sorted compact JSON: the run's id. */
static char *run_id(const struct run *run, size_t ri)
{
	char *s = run->head ? json_dumps(run->head, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = s; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	free(s);
	/* a run without its run record is told apart by its place */
	return xasprintf(KCIDB_ORIGIN ":%016" PRIx64 "-%zu", h, run->head ? 0 : ri + 1);
}

/* The value of a word of the run's kernel command line ("" if none). */
static char *cmdline_word(const struct run *run, const char *word)
{
	const char *c = export_str(run->head, "cmdline"), *p = c;
	size_t wl = strlen(word);

	for (; (p = strstr(p, word)); p += wl)
		if ((p == c || p[-1] == ' ') && p[wl] == '=')
			return strndup(p + wl + 1, strcspn(p + wl + 1, " "));
	return xstrdup("");
}

static void kcidb_checkout_build(json_t *doc, const struct run *run, const char *id)
{
	char *bootpart = cmdline_word(run, "timeprobe.bootpart");
	json_t *misc = json_pack("{s:s, s:s, s:s}", "timeprobe_version",
				 export_str(run->head, "version"), "env", export_str(run->head, "env"),
				 "label", run->label);

	if (*bootpart)
		json_object_set_new(misc, "bootpart", json_string(bootpart));
	json_array_append_new(json_object_get(doc, "checkouts"), json_pack(
		"{s:s, s:s, s:s, s:b, s:o}", "id", id, "origin", KCIDB_ORIGIN,
		"tree_name", "timeprobe", "valid", 1, "misc", misc));
	json_array_append_new(json_object_get(doc, "builds"), json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s}}", "checkout_id", id, "id", id,
		/* the stub is BOOTX64.EFI and the suite reads the TSC: x86-64 only */
		"origin", KCIDB_ORIGIN, "architecture", "x86_64",
		"config_name", *export_str(run->head, "variant") ? export_str(run->head, "variant")
		: "unknown", "misc", "kernel_release", export_str(run->head, "kernel"),
		"kernel_version", export_str(run->head, "kernel_version")));
	free(bootpart);
}

/* Is s a time as the run record writes it, 2026-12-03T08:17:40Z (RFC 3339)? */
static int is_utc_time(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";

	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return 0;
	return !s[sizeof(shape) - 1];
}

/* The test path: timeprobe.PROBE.RESULT[.IDENT].KEY, each part a word. */
static char *test_path(const char *probe, const char *name, const char *ident, const char *key)
{
	const char *parts[] = { probe, name, ident, key };
	struct sbuf b = { 0 };

	sbuf_adds(&b, "timeprobe");
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		char *w;

		if (!parts[i] || !*parts[i])
			continue;
		w = export_word(parts[i]);
		sbuf_addf(&b, ".%s", w);
		free(w);
	}
	return sbuf_take(&b);
}

/* A string, or JSON null for none. */
static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* misc.conditions: emulator, hypervisor, busy (export_facts()); null is none or unknown. */
static json_t *kcidb_conditions(const struct export_facts *ef)
{
	return json_pack("{s:o, s:o, s:o, s:b}", "emulator", str_or_null(ef->emulator),
			 "hypervisor", str_or_null(ef->hypervisor), "other_busy_pct",
			 isfinite(ef->busy_pct) ? json_real(ef->busy_pct) : json_null(),
			 "busy", ef->busy);
}

/*
 * The environment every test of a run carries: its label, fingerprint,
 * conditions and tsc=reliable answer (misc.tsc_readiness, null without).
 */
static json_t *kcidb_env(const struct run *run)
{
	json_t *env = json_pack("{s:s, s:{}}", "comment", run->label, "misc");
	json_t *misc = json_object_get(env, "misc");
	struct export_facts ef;

	if (run->fingerprint)
		json_object_set(misc, "fingerprint", run->fingerprint);
	export_facts(run, &ef);
	json_object_set_new(misc, "conditions", kcidb_conditions(&ef));
	json_object_set_new(misc, "tsc_readiness", str_or_null(ef.tsc_reliable));
	return env;
}

static json_t *kcidb_test(const struct run *run, const char *id, size_t n,
			  const struct export_item *it, const char *probe)
{
	json_t *t = json_pack("{s:s, s:s, s:s}", "build_id", id, "origin", KCIDB_ORIGIN,
			      "id", "");
	char *tid = xasprintf("%s.%zu", id, n), *path;

	json_object_set_new(t, "id", json_string(tid));
	free(tid);
	if (it->fg) {
		json_t *num = json_pack("{s:f}", "value", it->a->mean);

		if (it->decl->unit)
			json_object_set_new(num, "unit", json_string(it->decl->unit));
		path = test_path(probe, it->fg->name, it->fg->ident, it->fg->key);
		json_object_set_new(t, "status", json_string("DONE"));
		json_object_set_new(t, "number", num);
	} else {
		int skip = !strcmp(export_str(it->note, "type"), "skip");

		path = test_path(probe, export_str(it->note, "name"), export_str(it->note, "option"),
				 NULL);
		json_object_set_new(t, "status", json_string(skip ? "SKIP" : "FAIL"));
		json_object_set_new(t, "comment", json_string(export_str(it->note, "reason")));
	}
	json_object_set_new(t, "path", json_string(path));
	free(path);
	if (is_utc_time(export_str(run->head, "start")))
		json_object_set(t, "start_time", json_object_get(run->head, "start"));
	json_object_set_new(t, "environment", kcidb_env(run));
	return t;
}

static const char *const kcidb_verdict_status[] = {
	[EXPORT_VERDICT_PASS] = "PASS", [EXPORT_VERDICT_FAIL] = "FAIL", [EXPORT_VERDICT_SKIP] = "SKIP",
};

/* One test per verdict item, numbered on after the run's n tests. */
static void kcidb_verdict(json_t *tests, const struct run *run, const char *id, size_t n)
{
	struct export_verdict_item *v;
	size_t nv = export_verdict(run, &v);

	for (size_t i = 0; i < nv; i++) {
		char *tid = xasprintf("%s.%zu", id, n + i + 1), *path = test_path("verdict", v[i].name,
										   NULL, NULL);
		json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "build_id", id, "origin",
				      KCIDB_ORIGIN, "id", tid, "path", path, "status",
				      kcidb_verdict_status[v[i].status], "comment", v[i].detail,
				      "environment", kcidb_env(run));

		if (is_utc_time(export_str(run->head, "start")))
			json_object_set(t, "start_time", json_object_get(run->head, "start"));
		json_array_append_new(tests, t);
		free(tid);
		free(path);
	}
	export_verdict_free(v, nv);
}

void export_kcidb(FILE *f, const struct report *rp)
{
	json_t *doc = json_pack("{s:{s:i, s:i}, s:[], s:[], s:[]}", "version", "major", KCIDB_MAJOR,
				"minor", KCIDB_MINOR, "checkouts", "builds", "tests");

	for (size_t r = 0; r < rp->nruns; r++) {
		const struct run *run = &rp->runs[r];
		char *id = run_id(run, r);
		struct export_probe *p;
		size_t n = export_probes(rp, r, &p), num = 0;

		kcidb_checkout_build(doc, run, id);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < p[i].n; k++)
				json_array_append_new(json_object_get(doc, "tests"),
						      kcidb_test(run, id, ++num, &p[i].items[k],
								 p[i].probe));
		kcidb_verdict(json_object_get(doc, "tests"), run, id, num);
		export_probes_free(p, n);
		free(id);
	}
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12) | JSON_ENSURE_ASCII);
	fputc('\n', f);
	json_decref(doc);
}
