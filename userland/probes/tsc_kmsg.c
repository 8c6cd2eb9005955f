// SPDX-License-Identifier: MIT
/*
 * Probe `tsc`: the kernel's word on the TSC, from its log, read once
 * (kmsg.c) and each line parsed once (tsckmsg.c): its calibrations
 * (arch/x86/kernel/tsc.c: "Detected ... MHz", "Refined TSC clocksource
 * calibration"), the TSC marked unstable, the warp tsc_sync.c measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../emit.h"
#include "../kmsg.h"
#include "../tsckmsg.h"
#include "tsc_impl.h"

#define KMSG_NOTES_MAX 16

/* ---- the log ---- */

/* A later line of a kind wins: a re-calibration replaces the first. */
static void log_last(struct tsc_log *log, const struct tsc_kmsg *m)
{
	if (!strcmp(m->ref[0], "detected"))
		log->khz_detected = m->khz[0];
	else if (!strcmp(m->ref[0], "detected_tsc"))
		log->khz_tsc = m->khz[0];
	else if (!strcmp(m->ref[0], "refined"))
		log->khz_refined = m->khz[0];
}

/* Room for one more in log->m[]; 0 when there is no memory for it. */
static int log_room(struct tsc_log *log, size_t *cap)
{
	size_t want = *cap ? *cap * 2 : 32;
	struct tsc_kmsg *m;

	if (log->n < *cap)
		return 1;
	m = realloc(log->m, want * sizeof(*m));
	if (!m)
		return 0;
	log->m = m;
	*cap = want;
	return 1;
}

void tsc_log_read(struct tsc_log *log)
{
	char *text = 0;
	const char *how = "";
	size_t len;
	int rc = kmsg_read_all(&text, &len, &how);

	if (rc) {
		free(text);
		text = 0;
	}
	tsc_log_parse(log, text);
	log->rc = rc;
	log->how = how;
}

void tsc_log_parse(struct tsc_log *log, char *text)
{
	char *line, *save = 0;
	size_t cap = 0;

	memset(log, 0, sizeof(*log));
	log->text = text;
	log->how = "";
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(0, "\n", &save)) {
		struct tsc_kmsg m;

		if (tsc_kmsg_parse(line, &m) == TSC_KMSG_NONE)
			continue;
		if (!log_room(log, &cap))
			break; /* out of memory: the lines kept so far */
		log->m[log->n++] = m;
		if (m.kind == TSC_KMSG_FREQ)
			log_last(log, &m);
	}
}

void tsc_log_free(struct tsc_log *log)
{
	free(log->text);
	free(log->m);
	memset(log, 0, sizeof(*log));
}

/* The kernel's final word: refined, else the TSC line, else the processor
 * line (printed alone when cpu_khz == tsc_khz). */
void tsc_kernel_final(const struct tsc_log *log, struct tsc_figures *f)
{
	if (log->khz_refined) {
		f->kernel_hz = (double)log->khz_refined * 1000;
		f->kernel_ref = "refined";
	} else if (log->khz_tsc) {
		f->kernel_hz = (double)log->khz_tsc * 1000;
		f->kernel_ref = "detected_tsc";
	} else if (log->khz_detected) {
		f->kernel_hz = (double)log->khz_detected * 1000;
		f->kernel_ref = "detected";
	}
}

/* ---- records ---- */

/* What the kernel log said about the TSC, beyond its figures. */
struct kmsg_seen {
	char notes[KMSG_NOTES_MAX][120];
	size_t nnotes, dropped;
	int64_t warp;
	char unstable[96];	/* "": not marked unstable */
	int nfreq;
};

/* One "tsc: Detected/Refined ..." line: a calib record per figure in it. */
static void kernel_freq(const struct tsc_kmsg *m, struct tsc_figures *f, struct kmsg_seen *k)
{
	struct tp_rec r;

	for (size_t i = 0; i < m->nfreq; i++) {
		emit_begin(&r, "calib");
		tp_rec_str(&r, "probe", P);
		tp_rec_str(&r, "source", "kernel");
		tp_rec_str(&r, "ref", m->ref[i]);
		tp_rec_int(&r, "tsc_hz", m->khz[i] * 1000);
		tp_rec_int(&r, "resolution_hz", 1000);
		if (m->usec >= 0)
			tp_rec_int(&r, "log_us", m->usec);
		tp_rec_strn(&r, "message", m->msg, 100);
		tsc_rec_deps(&r, f, TSC_FIG_KERNEL);
		emit_end(&r);
		tsc_human_calib("kernel", m->ref[i], (double)m->khz[i] * 1000, NAN);
		k->nfreq++;
	}
}

/* Every line about the TSC: a calib record per figure, the others noted. */
static void kernel_scan(const struct tsc_log *log, struct tsc_figures *f, struct kmsg_seen *k)
{
	for (size_t i = 0; i < log->n; i++) {
		const struct tsc_kmsg *m = &log->m[i];

		if (m->kind == TSC_KMSG_FREQ) {
			kernel_freq(m, f, k);
			continue;
		}
		if (m->kind == TSC_KMSG_UNSTABLE)
			snprintf(k->unstable, sizeof(k->unstable), "%s", m->reason);
		if (m->kind == TSC_KMSG_WARP)
			k->warp = m->warp_ticks;
		/* every one of them is also shown as it was written */
		if (k->nnotes < KMSG_NOTES_MAX)
			snprintf(k->notes[k->nnotes++], sizeof(k->notes[0]), "%s", m->msg);
		else
			k->dropped++;
	}
}


/* The "kernel tsc messages" record and its lines. */
static void kernel_summary(struct tsc_figures *f, const struct kmsg_seen *k,
			   const struct tsc_log *log, int64_t early_khz)
{
	struct tp_rec r;

	emit_result_begin(&r, P, "kernel tsc messages");
	tp_rec_str(&r, "log", log->how);
	tp_rec_bool(&r, "unstable", k->unstable[0] != 0);
	if (k->unstable[0])
		tp_rec_str(&r, "unstable_reason", k->unstable);
	if (k->warp >= 0)
		tp_rec_int(&r, "boot_warp_ticks", k->warp);
	if (f->kernel_ref)
		tp_rec_str(&r, "kernel_ref", f->kernel_ref);
	if (early_khz > 0) {
		f->kernel_is_early = f->kernel_hz == (double)early_khz * 1000;
		tp_rec_int(&r, "tsc_early_khz", early_khz);
		tp_rec_str(&r, "tsc_early_khz_by", f->early_is_user ? "user" : "stub");
		tp_rec_bool(&r, "detected_is_early",
			    early_khz == (log->khz_tsc ? log->khz_tsc : log->khz_detected));
	}
	tp_rec_arr_begin(&r, "messages");
	for (size_t i = 0; i < k->nnotes; i++)
		tp_rec_str(&r, 0, k->notes[i]);
	tp_rec_arr_end(&r);
	if (k->dropped)
		tp_rec_uint(&r, "messages_dropped", k->dropped);
	emit_end(&r);
	if (k->unstable[0])
		emit_human("  kernel marked the TSC unstable: %s\n", k->unstable);
	if (k->warp >= 0)
		emit_human("  kernel measured a %lld-tick TSC warp at boot\n", (long long)k->warp);
	if (early_khz > 0)
		emit_human("  kernel was given tsc_early_khz=%lld: its \"detected\" figure is %s\n",
			   (long long)early_khz,
			   f->early_is_user ? "the user's (not the stub's figure)" : "the stub's");
}
void tsc_kernel_figures(const struct tsc_log *log, int64_t early_khz, struct tsc_figures *f)
{
	static struct kmsg_seen k;

	if (log->rc) {
		char why[96];

		snprintf(why, sizeof(why), "kernel log unreadable: %s", strerror(-log->rc));
		emit_skip(P, "kernel calibration", why);
		return;
	}
	memset(&k, 0, sizeof(k));
	k.warp = -1;
	kernel_scan(log, f, &k);
	tsc_kernel_final(log, f);
	if (!k.nfreq)
		emit_skip(P, "kernel calibration",
			  "no \"tsc: Detected/Refined\" line in the kernel log (ring buffer "
			  "wrapped, or no TSC calibration)");
	kernel_summary(f, &k, log, early_khz);
}
