// SPDX-License-Identifier: MIT
/* The run record, the keys records, option errors, summary table and end record; see summary.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "busy.h"
#include "dmalat.h"
#include "emit.h"
#include "keydecl.h"
#include "probe.h"
#include "sink.h"
#include "summary.h"
#include "sysinfo.h"

#define TP_VERSION "0.1.0"

/* "hz:250,preempt:none,nohz:idle" from the build as separate fields. */
static void emit_kconfig(struct tp_rec *r, const char *kc)
{
	char buf[64], *save = 0;

	if (!kc[0])
		return;
	snprintf(buf, sizeof(buf), "%s", kc);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(0, ",", &save)) {
		char *colon = strchr(t, ':'), key[32];

		if (!colon)
			continue;
		*colon = 0;
		snprintf(key, sizeof(key), "kernel_%s", t);
		if (!strcmp(t, "hz"))
			tp_rec_int(r, key, atoi(colon + 1));
		else
			tp_rec_str(r, key, colon + 1);
	}
}

/* The words the stub alone reads (timeprobe.calib_rounds=...), as given. */
static void emit_stub_words(struct tp_rec *r, const struct options *o)
{
	if (!o->n_stub_words)
		return;
	tp_rec_obj_begin(r, "stub_options");
	for (size_t i = 0; i < o->n_stub_words; i++)
		tp_rec_str(r, o->stub_words[i].name, o->stub_words[i].value);
	tp_rec_obj_end(r);
}

/*
 * The figures each probe promises, its headline first (struct probe): the
 * run record carries them, so the LAVA converter and the report take them
 * from the records, as the report takes each probe's keys from its keys
 * record (summary_keys_records()), not from a table of their own.
 */
static void emit_figures(struct tp_rec *r)
{
	tp_rec_obj_begin(r, "figures");
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];

		if (p->inject || !p->figures)
			continue;
		tp_rec_arr_begin(r, p->name);
		for (const char *const *f = p->figures; *f; f++)
			tp_rec_str(r, 0, *f);
		tp_rec_arr_end(r);
	}
	tp_rec_obj_end(r);
}

void summary_keys_records(void)
{
	for (size_t i = 0; i < probe_count; i++) {
		struct tp_rec r;

		if (probe_table[i]->inject || !probe_table[i]->keys)
			continue;
		keydecl_record(&r, probe_table[i]);
		sink_emit(&r);
	}
}

/* "NAME":[1 min, 5 min, 15 min] of /proc/loadavg, or null when it was unreadable. */
static void emit_load(struct tp_rec *r, const char *name, const struct busy_mark *m)
{
	if (m->load[0] < 0) {
		tp_rec_null(r, name);
		return;
	}
	tp_rec_arr_begin(r, name);
	for (int i = 0; i < 3; i++)
		emit_rec_double(r, 0, m->load[i]);
	tp_rec_arr_end(r);
}

void summary_run_record(const struct options *o, const char *env, int ncpu,
			const struct busy_mark *start)
{
	struct tp_rec r;
	struct utsname u;
	char cmdline[4096], model[256], machine[256], cs[64], avail[256], when[32], id[16];
	time_t t = time(0);
	struct tm tm;

	uname(&u);
	sysinfo_read_text("/proc/cmdline", cmdline, sizeof(cmdline));
	sysinfo_cpu_model(model, sizeof(model));
	sysinfo_machine_name(machine, sizeof(machine));
	sysinfo_current_clocksource(cs, sizeof(cs));
	sysinfo_read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail));
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);

	emit_begin(&r, "run");
	tp_rec_str(&r, "version", TP_VERSION);
	tp_rec_int(&r, "records_version", 1);
	tp_rec_str(&r, "env", env);
	tp_rec_str(&r, "kernel", u.release);
	tp_rec_str(&r, "kernel_version", u.version);
	tp_rec_str(&r, "cmdline", cmdline);
	tp_rec_str(&r, "cpu_model", model);
	tp_rec_int(&r, "cpus", ncpu);
	tp_rec_str(&r, "machine", machine);
	sysinfo_machine_id(id, sizeof(id));
	tp_rec_str(&r, "machine_id", id);
	tp_rec_bool(&r, "hypervisor", sysinfo_cpu_has_flag("hypervisor"));
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "available_clocksources", avail);
	tp_rec_str(&r, "variant", o->variant[0] ? o->variant : "base");
	if (o->accel[0])
		tp_rec_str(&r, "accel", o->accel);
	else
		tp_rec_null(&r, "accel");
	emit_kconfig(&r, o->kconfig);
	emit_stub_words(&r, o);
	tp_rec_str(&r, "profile", o->quick ? "quick" : "full");
	tp_rec_int(&r, "repeat", o->repeat);
	tp_rec_int(&r, "rounds", o->rounds);
	dmalat_emit(&r);
	tp_rec_str(&r, "start", when);
	emit_load(&r, "loadavg_start", start);
	emit_figures(&r);
	sink_emit(&r);
	sink_human("timeprobe %s on %s (%s), Linux %s, %d CPUs, clocksource %s\n",
		   TP_VERSION, machine, env, u.release, ncpu, cs);
}

/* The refused options said so far, for their recap after the verdict. */
static struct opt_error refused[OPT_ERRORS_MAX];
static size_t n_refused, n_refused_all;

void summary_option_error(const struct opt_error *e)
{
	struct tp_rec r;
	const char *action = e->taken ? "set" : "default kept";

	emit_begin(&r, e->taken ? "warning" : "error");
	tp_rec_str(&r, "option", e->name);
	tp_rec_str(&r, "value", e->value);
	tp_rec_str(&r, "reason", e->reason);
	tp_rec_str(&r, "action", action);
	sink_emit(&r);
	sink_human("option %s=%s: %s; %s\n", e->name, e->value, e->reason, action);
	if (e->taken)
		return;
	if (n_refused < OPT_ERRORS_MAX)
		refused[n_refused++] = *e;
	n_refused_all++;
}

void summary_option_recap(void)
{
	if (!n_refused_all)
		return;
	sink_human("\n== %zu option%s refused: this run went on without %s ==\n", n_refused_all,
		   n_refused_all == 1 ? " was" : "s were", n_refused_all == 1 ? "it" : "them");
	for (size_t i = 0; i < n_refused; i++)
		sink_human("  %s=%s: %s\n", refused[i].name, refused[i].value, refused[i].reason);
	if (n_refused < n_refused_all)
		sink_human("  (and %zu more, in the error records)\n", n_refused_all - n_refused);
}

void summary_table(const struct summary_row *rows, size_t n, const struct suite_result *res)
{
	sink_human("\n== summary ==\n%-10s %5s  %-11s %8s %9s %9s\n", "probe", "iter", "outcome", "records",
		   "seconds", "expected");
	for (size_t i = 0; i < n; i++) {
		const struct summary_row *s = &rows[i];

		sink_human("%-10s %5d  %-11s %8lu %9.1f %9.1f\n", s->name, s->iteration,
			   supervise_outcome_name(s->out),
			   s->records, (double)s->ms / 1000, (double)s->expect_ms / 1000);
	}
	sink_human("\n== end: %d ok, %d skipped, %d failed ==\n", res->ok, res->skipped, res->failed);
}

/* Other work on the machine during the run, in the end record and, when it
 * took a tenth of the CPUs or more, in a line a person sees. */
static void emit_other_work(struct tp_rec *r, const struct busy_mark *start, int ncpu)
{
	struct busy_mark end;
	double pct;

	busy_mark(&end);
	emit_load(r, "loadavg_end", &end);
	pct = busy_other_pct(start, &end, ncpu);
	if (pct < 0) {
		tp_rec_null(r, "other_cpu_s");
		tp_rec_null(r, "other_busy_pct");
		return;
	}
	emit_rec_double(r, "other_cpu_s", (double)busy_other_ns(start, &end) / 1e9);
	emit_rec_double(r, "other_busy_pct", pct);
	if (pct >= 10)
		sink_human("WARNING: other work used %.0f %% of the %d CPUs during the run "
			   "(load average %.2f at the start, %.2f at the end): its figures carry that noise\n",
			   pct, ncpu, start->load[0], end.load[0]);
}

void summary_end_record(const struct suite_result *res, const struct busy_mark *start, int ncpu)
{
	struct tp_rec r;

	emit_set_context(0);
	emit_begin(&r, "end");
	tp_rec_int(&r, "probes_ok", res->ok);
	tp_rec_int(&r, "probes_skipped", res->skipped);
	tp_rec_int(&r, "probes_failed", res->failed);
	tp_rec_bool(&r, "watchdog", res->watchdog_fired);
	tp_rec_uint(&r, "options_refused", n_refused_all);
	emit_other_work(&r, start, ncpu);
	tp_rec_uint(&r, "records", sink_records());
	if (sink_dropped())
		tp_rec_uint(&r, "records_not_kept", sink_dropped());
	sink_emit(&r);
}
