// SPDX-License-Identifier: MIT
/* The tsc_readiness record and its block on the consoles; see readiness.h. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "probe.h"
#include "readiness.h"
#include "sink.h"
#include "timeutil.h"
#include "verdict.h"

static void record_reason(struct tp_rec *r, const struct readiness_reason *it)
{
	tp_rec_obj_begin(r, 0);
	tp_rec_str(r, "item", it->rule->id);
	emit_rec_double(r, "value", it->value);
	if (it->rule->unit) {
		tp_rec_str(r, "unit", it->rule->unit);
		emit_rec_double(r, "bound", it->rule->bound);
	}
	tp_rec_str(r, "from", it->from);
	if (it->pass == RD_NOT_MEASURED)
		tp_rec_null(r, "passed");
	else
		tp_rec_bool(r, "passed", it->pass == RD_PASSED);
	if (it->why[0])
		tp_rec_str(r, "why", it->why);
	if (it->reference[0]) {
		tp_rec_str(r, "reference", it->reference);
		if (it->independent < 0)
			tp_rec_null(r, "independent");
		else
			tp_rec_bool(r, "independent", it->independent);
	}
	tp_rec_obj_end(r);
}

static void record_vote(struct tp_rec *r, const char *key, const struct rd_vote_out *v,
			const char *named)
{
	tp_rec_obj_begin(r, key);
	tp_rec_str(r, "result", rd_vote_res_name(v->res));
	if (named)
		tp_rec_str(r, "named", named);
	emit_rec_double(r, "floor_ppm", RD_VOTE_FLOOR_PPM);
	tp_rec_obj_end(r);
}

/* Under what the run ran, what an unknown answer lacked and the step that supplies it. */
static void record_next(struct tp_rec *r, const struct readiness *rd)
{
	verdict_rec_emulation(r, rd->emulated, rd->emulated_by);
	tp_rec_arr_begin(r, "missing");
	for (size_t i = 0; i < rd->nmissing; i++)
		tp_rec_str(r, 0, rd->missing[i]->id);
	tp_rec_arr_end(r);
	if (rd->next_step[0])
		tp_rec_str(r, "next_step", rd->next_step);
	else
		tp_rec_null(r, "next_step");
}

void readiness_record(struct tp_rec *r, const struct readiness *rd)
{
	emit_begin(r, "tsc_readiness");
	tp_rec_str(r, "counter", TP_HAVE_TSC ? "tsc" : "cntvct");
	tp_rec_str(r, "tsc_reliable", rd_answer_name(rd->answer));
	tp_rec_arr_begin(r, "kernel_args");
	if (rd->kernel_args[0])
		tp_rec_str(r, 0, rd->kernel_args);
	tp_rec_arr_end(r);
	if (rd->wrong) {
		tp_rec_obj_begin(r, "wrong_reference");
		tp_rec_str(r, "name", rd->wrong);
		emit_rec_double(r, "ppm", rd->wrong_ppm);
		tp_rec_str(r, "when", rd->wrong_when);
		tp_rec_obj_end(r);
	} else {
		tp_rec_null(r, "wrong_reference");
	}
	record_vote(r, "vote_preos", &rd->vote_pre, rd->pre_named);
	record_vote(r, "vote_postboot", &rd->vote_post, rd->post_named);
	if (rd->skew.ref[0]) {
		tp_rec_obj_begin(r, "injected");
		tp_rec_str(r, "ref", rd->skew.ref);
		tp_rec_int(r, "ppm", rd->skew.ppm);
		tp_rec_obj_end(r);
	}
	tp_rec_arr_begin(r, "reasons");
	for (size_t i = 0; i < rd->n; i++)
		record_reason(r, &rd->reason[i]);
	tp_rec_arr_end(r);
	record_next(r, rd);
}

static const char *pass_word(enum rd_pass p)
{
	return p == RD_PASSED ? "pass" : p == RD_FAILED ? "FAIL" : "-";
}

/* The kernel line's words in words: none is either "no words needed" or "none can be advised". */
static const char *kernel_words(const struct readiness *rd)
{
	if (rd->kernel_args[0])
		return rd->kernel_args;
	if (!TP_HAVE_TSC)
		return "(no such word on arm64)";
	return rd->answer == RD_SAFE ? "no words needed" : "none can be advised";
}

/* The emulator's caveat, as the verdict says it; what an unknown answer lacked, and the step. */
static void print_conditions(const struct readiness *rd)
{
	if (!strcmp(rd->emulated, "tcg"))
		sink_human("Under an emulator (%s): the emulator's clocks, not a machine's; "
			   "this answer is not the machine's.\n", rd->emulated_by);
	else if (rd->emulated[0])
		sink_human("Under a hypervisor (%s): the virtual machine's clocks; the host's may "
			   "answer otherwise.\n", rd->emulated_by);
	if (!rd->nmissing)
		return;
	sink_human("lacked:");
	for (size_t i = 0; i < rd->nmissing; i++)
		sink_human("%s %s (%s)", i ? ";" : "", rd->missing[i]->what, rd->missing[i]->id);
	sink_human("\n");
	if (rd->next_step[0])
		sink_human("next: %s\n", rd->next_step);
}

static void print_block(const struct readiness *rd)
{
	sink_human("\n== tsc=reliable? ==\n");
	sink_human("%s: %s; kernel line: %s\n", TP_HAVE_TSC ? "tsc=reliable" : "CNTVCT_EL0",
		   rd_answer_name(rd->answer), kernel_words(rd));
	print_conditions(rd);
	if (rd->wrong)
		sink_human("wrong reference: %s, %+.0f ppm off the others (%s vote)\n", rd->wrong,
			   rd->wrong_ppm, rd->wrong_when);
	if (rd->skew.ref[0])
		sink_human("injected: %s read %+d ppm fast (timeprobe.inject=skew:...)\n",
			   rd->skew.ref, (int)rd->skew.ppm);
	for (size_t i = 0; i < rd->n; i++) {
		const struct readiness_reason *it = &rd->reason[i];
		char val[32] = "-";

		if (isfinite(it->value) && !it->rule->unit)
			snprintf(val, sizeof(val), "%s", it->value == 1 ? "yes" : "no");
		else if (isfinite(it->value))
			snprintf(val, sizeof(val), "%.4g %s", it->value, it->rule->unit);
		sink_human("  %-4s %-52s %14s  %s\n", pass_word(it->pass), it->rule->what, val,
			   it->why[0] ? it->why : it->from);
	}
	sink_human("(bounds and their sources: docs/readiness.md)\n");
}

int readiness_sockets(void)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	long seen[64];
	int n = 0;
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[320];
		long id;
		FILE *fp;
		int dup = 0;

		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%.200s/topology/"
			 "physical_package_id", e->d_name);
		if (!(fp = fopen(path, "r")))
			continue;
		if (fscanf(fp, "%ld", &id) == 1) {
			for (int i = 0; i < n; i++)
				dup |= seen[i] == id;
			if (!dup && n < 64)
				seen[n++] = id;
		}
		fclose(fp);
	}
	closedir(d);
	return n ? n : -1;
}

void readiness_emit(const struct tp_skew *skew)
{
	static struct readiness rd;
	struct tp_rec r;
	size_t len;
	const char *recs = sink_saved(&len);

	readiness_gather(&rd, probe_table, probe_count, recs, len, readiness_sockets(), skew);
	print_block(&rd);
	readiness_record(&r, &rd);
	sink_emit(&r);
}

/* What the keys of the tsc_readiness record are (common/recdecl.h): rows tried in order. */
const struct tp_rec_key readiness_rec_keys[] = {
	{ "tsc_readiness", "*", TP_KEY_CONTEXT, "is tsc=reliable safe: the answer, its reasons, the kernel words, the reference the vote named (docs/readiness.md)" },
	TP_REC_KEYS_END,
};
