// SPDX-License-Identifier: MIT
/*
 * The arm64 stub's calibration (tsc.h's interface; x86's is tsc.c): the
 * generic timer's counter, CNTVCT_EL0, whose frequency CNTFRQ_EL0 only
 * claims ("not interpreted by hardware", Arm ARM, CNTFRQ_EL0), checked against
 *  - UEFI Stall(): on arm64 firmware it counts this same counter (edk2
 *    ArmPkg/Library/ArmArchTimerLib, which AAVMF and most boards use), so it
 *    tells whether the firmware believes CNTFRQ, and is marked not independent;
 *  - the RTC's second edges through GetTime() over TP_RTC_WINDOW_S seconds:
 *    a separate device with its own crystal on most boards, but some
 *    firmware answers GetTime() from this same counter (the Raspberry Pi's
 *    UEFI) and under QEMU both follow the host's clocks: the stub cannot
 *    tell which, so its independence is null, with why.
 * The ACPI GTDT's memory-mapped timers are listed and said not to be
 * independent (the same system counter). The x86 references (HPET, PM timer,
 * PIT, CPUID) get a calib record that says they are x86 only. What each
 * reference counts, and so its independence, is common/refsource.c's to
 * say (userland/tscref.c reads the same rows), not this file's. See
 * docs/arm64.md.
 */
#include <efi.h>
#include <efilib.h>

#include "../../common/announce.h"
#include "../../common/gtdt.h"
#include "../../common/buf.h"
#include "../../common/handoff.h"
#include "../../common/refsource.h"
#include "../../common/stubfile.h"
#include "../arm64.h"
#include "../edges.h"
#include "../efiacpi.h"
#include "../tsc.h"

/* Seconds of RTC edges: 3 s bound a 100 us polling bracket to ~35 ppm. */
#define TP_RTC_WINDOW_S 3
/* Seconds without a new second before the RTC counts as not ticking. */
#define TP_RTC_STUCK_S 3

static const char *const x86_refs[] = { "hpet", "pmtimer", "pit", "cpuid15", "cpuid16",
					"hypervisor" };

/*
 * ref's independence of CNTVCT_EL0 as common/refsource.c defines it (the
 * one definition, which userland/tscref.c reads too): true, false with
 * why_not_independent, or null with why; with_why 0 leaves the words out.
 */
static void independence(struct tp_rec *r, const char *ref, int with_why)
{
	const struct tp_refsource *src = tp_refsource(ref);
	int ind = tp_counts_independent(src ? src->counts : NULL);

	if (ind < 0)
		tp_rec_null(r, "independent");
	else
		tp_rec_bool(r, "independent", ind);
	if (with_why && src && ind == 0)
		tp_rec_str(r, "why_not_independent", src->why);
	else if (with_why && src && ind < 0)
		tp_rec_str(r, "why", src->why);
}

/* 1 when ref worked and counts a counter other than CNTVCT_EL0 (refsource.h). */
static uint32_t counts_independent(const struct tp_ref_result *ref)
{
	const struct tp_refsource *src = tp_refsource(ref->name);

	return ref->present && src && tp_counts_independent(src->counts) == 1;
}

/* The claim itself, with the CPU it was read on. */
static void cntfrq_record(struct tp_console *con, uint64_t cntfrq)
{
	struct tp_rec *r = tp_con_calib(con, "cntfrq");

	tp_rec_uint(r, "tsc_hz", cntfrq);
	tp_rec_str(r, "counter", "CNTVCT_EL0");
	tp_con_hex(r, "midr", tp_midr());
	tp_rec_uint(r, "ecv", tp_ecv());
	tp_rec_uint(r, "current_el", tp_current_el());
	tp_con_emit(con);
}

/* How far a measured rate is from the claim: ppm (3 decimals), with its bound. */
static void versus_cntfrq(struct tp_rec *r, uint64_t hz, uint64_t cntfrq, uint32_t bound_ppm)
{
	if (!cntfrq)
		return;
	tp_rec_fixed(r, "vs_cntfrq_ppm", tp_ppm_milli(hz, cntfrq), 3);
	tp_rec_uint(r, TP_CALIB_BOUND, bound_ppm);
}

/* Rounds of Stall(ms): the counter's ticks per requested microsecond. */
static void stall_ref(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint32_t rounds,
		      uint32_t ms, uint64_t cntfrq, struct tp_ref_result *out)
{
	uint64_t hz[TP_CALIB_ROUNDS_MAX];
	struct tp_rec *r;

	for (uint32_t i = 0; i < rounds; i++) {
		uint64_t t0 = tp_cntvct();

		uefi_call_wrapper(st->BootServices->Stall, 1, (UINTN)ms * 1000);
		hz[i] = tp_hz_from_ticks(tp_cntvct() - t0, (uint64_t)ms * 1000, 1000000);
	}
	out->name = "stall";
	out->present = tp_calib_reduce(hz, rounds, &out->res) == 0;
	r = tp_con_calib(con, "stall");
	if (!out->present) {
		out->reason = "no valid round";
		tp_rec_bool(r, "absent", 1);
		tp_rec_str(r, "reason", out->reason);
	} else {
		tp_rec_uint(r, TP_CALIB_HZ, out->res.tsc_hz);
		tp_rec_uint(r, TP_CALIB_SPREAD, out->res.spread_ppm);
		tp_rec_uint(r, "rounds", out->res.rounds);
		tp_rec_uint(r, "rejected", out->res.rejected);
		tp_rec_uint(r, "window_ms", ms);
		/* Stall waits at least its time: the spread bounds a round */
		versus_cntfrq(r, out->res.tsc_hz, cntfrq, out->res.spread_ppm);
	}
	independence(r, "stall", 1);
	tp_con_emit(con);
}

/* The RTC's second now, -1 when GetTime fails or reads nonsense. */
static int32_t rtc_second(EFI_SYSTEM_TABLE *st)
{
	EFI_TIME t;

	if (EFI_ERROR(uefi_call_wrapper(st->RuntimeServices->GetTime, 2, &t, NULL)))
		return -1;
	return tp_rtc_day_seconds(t.Hour, t.Minute, t.Second);
}

/*
 * Polls until the second changes from *sec: e bracket the edge (from the read
 * before the last poll that still showed *sec to the read after the first
 * that did not). Returns NULL, or why no edge was seen.
 */
static const char *rtc_edge(EFI_SYSTEM_TABLE *st, uint64_t cntfrq, int32_t *sec, struct tp_edge *e)
{
	uint64_t before = tp_cntvct(), limit = before + TP_RTC_STUCK_S * cntfrq;

	while (tp_cntvct() < limit) {
		uint64_t t0 = tp_cntvct();
		int32_t s = rtc_second(st);
		uint64_t t1 = tp_cntvct();

		if (s < 0)
			return "GetTime failed or gave a time out of range";
		if (s != *sec) {
			e->lo = before;
			e->hi = t1;
			*sec = s;
			return NULL;
		}
		before = t0;
	}
	return "the RTC's second did not change";
}

/* The RTC edges over TP_RTC_WINDOW_S seconds; out->present when it worked. */
static void rtc_ref(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint64_t cntfrq,
		    struct tp_ref_result *out, uint32_t *bound_ppm)
{
	struct tp_edge first, last;
	struct tp_edge_rate rate = { 0, 0 };
	int32_t sec = rtc_second(st), start;
	const char *why = !cntfrq ? "CNTFRQ_EL0 is 0: no time-out for the RTC's edges" :
			  sec < 0 ? "GetTime failed or gave a time out of range" : NULL;
	struct tp_rec *r;

	if (!why)
		why = rtc_edge(st, cntfrq, &sec, &first);
	start = sec;
	for (uint32_t n = 0; !why && n < TP_RTC_WINDOW_S; n++)
		why = rtc_edge(st, cntfrq, &sec, &last);
	if (!why && tp_edge_rate(&first, &last, tp_rtc_elapsed(start, sec), &rate))
		why = "the RTC's edges were out of order";
	out->name = "rtc";
	out->present = !why;
	out->reason = why;
	out->res.tsc_hz = rate.hz;
	*bound_ppm = rate.bound_ppm;
	r = tp_con_calib(con, "rtc");
	if (why) {
		tp_rec_bool(r, "absent", 1);
		tp_rec_str(r, "reason", why);
	} else {
		tp_rec_uint(r, TP_CALIB_HZ, rate.hz);
		tp_rec_uint(r, TP_CALIB_WINDOW_S, tp_rtc_elapsed(start, sec));
		versus_cntfrq(r, rate.hz, cntfrq, rate.bound_ppm);
	}
	independence(r, "rtc", 1);
	tp_con_emit(con);
}

/* The GTDT's memory-mapped timers: listed, none independent (gtdt.h). */
static void gtdt_record(struct tp_console *con, EFI_SYSTEM_TABLE *st)
{
	struct tp_rec *r = tp_con_calib(con, "gtdt");
	struct tp_acpi_root root;
	struct tp_gtdt g;
	const void *t = NULL;
	const char *why = tp_efi_acpi_root(st, &root);
	uint32_t len = 0;
	int bad = 0;

	if (!why && !(t = tp_acpi_find(&root, "GTDT", tp_acpi_map_identity, NULL, &len, &bad)))
		why = bad ? "GTDT checksum bad" : "no GTDT table (the firmware describes the timer by DT only?)";
	if (!why && tp_gtdt_parse(t, len, &g, &why) == 0) {
		tp_rec_uint(r, "platform_timers", g.platform_timers);
		tp_rec_uint(r, "gt_frames", g.gt_frames);
		tp_rec_uint(r, "watchdogs", g.watchdogs);
	}
	tp_rec_bool(r, "absent", 1);
	if (!why)
		why = g.platform_timers ? tp_refsource("gtdt")->why :
					  "the GTDT lists no memory-mapped timer";
	tp_rec_str(r, "reason", why);
	independence(r, "gtdt", 0);
	tp_con_emit(con);
}

static void x86_records(struct tp_console *con)
{
	for (size_t i = 0; i < sizeof(x86_refs) / sizeof(x86_refs[0]); i++) {
		struct tp_rec *r = tp_con_calib(con, x86_refs[i]);

		tp_rec_bool(r, "absent", 1);
		tp_rec_str(r, "reason", "x86 only");
		tp_con_emit(con);
	}
}

static void summary_record(struct tp_console *con, const struct tp_tsc_report *rep,
			   uint64_t cntfrq, uint32_t independent, uint32_t rounds, uint32_t ms)
{
	struct tp_rec *r = tp_con_calib_summary(con, rep->chosen, rep->tsc_hz);

	tp_rec_str(r, "counter", "CNTVCT_EL0");
	tp_rec_uint(r, "cntfrq_hz", cntfrq);
	tp_rec_uint(r, "independent_refs", independent);
	tp_rec_uint(r, "rounds", rounds);
	tp_rec_uint(r, "window_ms", ms);
	tp_con_emit(con);
}

/*
 * The figure handed to the kernel's command line: CNTFRQ_EL0 (what Linux
 * uses) unless the independent RTC contradicts it beyond the RTC's bound;
 * then the RTC's. Stall, the same counter, cannot contradict it. With
 * CNTFRQ_EL0 at 0, whatever was measured.
 */
static void choose(struct tp_tsc_report *rep, const struct tp_ref_result *rtc, uint32_t rtc_bound,
		   const struct tp_ref_result *stall, uint64_t cntfrq)
{
	int contradicted = rtc->present && !tp_claim_holds(rtc->res.tsc_hz, cntfrq, rtc_bound);
	const struct tp_ref_result *pick = contradicted || !cntfrq ?
		(rtc->present ? rtc : stall->present ? stall : NULL) : NULL;
	struct tp_buf list;

	tp_buf_init(&list, rep->calib_list, sizeof(rep->calib_list));
	if (rtc->present)
		tp_calib_list_add(&list, "rtc", rtc->res.tsc_hz, rtc_bound);
	if (stall->present)
		tp_calib_list_add(&list, "stall", stall->res.tsc_hz, stall->res.spread_ppm);
	rep->chosen = pick ? pick->name : cntfrq ? "cntfrq" : NULL;
	rep->tsc_hz = pick ? pick->res.tsc_hz : cntfrq;
}

void tp_tsc_calibrate(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint32_t rounds,
		      uint32_t ms, struct tp_tsc_report *rep)
{
	static struct tp_ref_result rtc;
	uint64_t cntfrq = tp_cntfrq();
	uint32_t rtc_bound = 0;
	char line[64];
	struct tp_buf b;

	tp_buf_init(&b, line, sizeof(line));
	tp_announce(&b, "calibrating the counter",
		    (uint64_t)rounds * ms * 2 / 1000 + TP_RTC_WINDOW_S * 3 + 5);
	tp_con_msg(con, line);
	cntfrq_record(con, cntfrq);
	stall_ref(con, st, rounds, ms, cntfrq, &rep->ref[TP_REF_STALL]);
	rtc_ref(con, st, cntfrq, &rtc, &rtc_bound);
	gtdt_record(con, st);
	x86_records(con);
	choose(rep, &rtc, rtc_bound, &rep->ref[TP_REF_STALL], cntfrq);
	rep->max_disagreement_ppm = 0;	/* one independent reference at most */
	rep->invariant_tsc = 1;		/* the system counter runs at a fixed rate */
	summary_record(con, rep, cntfrq,
		       counts_independent(&rep->ref[TP_REF_STALL]) + counts_independent(&rtc), rounds,
		       ms);
	if (!rep->chosen)
		tp_con_msg(con, "WARNING: CNTFRQ_EL0 is 0 and no reference worked");
}

void tp_tsc_scan_ref(const struct tp_tsc_report *rep, struct tp_hwlat_ref *ref)
{
	(void)rep;
	/* Stall() counts on CNTVCT_EL0 itself, the RTC in whole seconds */
	*ref = (struct tp_hwlat_ref){ .name = "none",
				      .why = "arm64: no counter independent of CNTVCT_EL0 "
					     "to read at the scan's chunks" };
}

void tp_tsc_scan_ref_end(void)
{
}
