// SPDX-License-Identifier: MIT
/* TSC calibration in the stub; see tsc.h and docs/stub.md, "Calibration". */
#include <efi.h>
#include <efilib.h>

#include "../common/acpi.h"
#include "../common/announce.h"
#include "../common/buf.h"
#include "../common/handoff.h"
#include "../common/stubfile.h"
#include "../common/x86clock.h"
#include "measure.h"
#include "tsc.h"
#include "x86.h"

/* What the references need while they run. */
struct ref_ctx {
	EFI_SYSTEM_TABLE *st;
	int have_acpi;
	const char *acpi_why;
	struct tp_acpi_root root;
	struct tp_pm_timer pm;
	struct tp_hpet_table hpet_tbl;
	struct tp_hpet_state hpet;
	uint32_t ms;
	struct tp_measure_limits lim;
	const struct tp_skew *skew;	/* the injected skew, common/skew.h */
};

/* The references as the calibration found them, kept for the pre-OS scan (tp_tsc_scan_ref). */
static struct ref_ctx calib_refs;

struct ref_ops {
	enum tp_ref_id id;
	const char *name;
	/* NULL when the reference can be used, else why not */
	const char *(*setup)(struct ref_ctx *x);
	/* one round: TP_MEASURE_OK and *hz, or an error */
	int (*round)(struct ref_ctx *x, struct tp_round *r, uint64_t *hz);
	void (*teardown)(struct ref_ctx *x);
	/* reference-specific keys of the calib record */
	void (*describe)(struct ref_ctx *x, struct tp_rec *r);
	int raise_tpl;		/* run rounds at TPL_HIGH_LEVEL */
};

static void efi_stall(uint32_t us, void *ctx)
{
	EFI_SYSTEM_TABLE *st = ctx;

	uefi_call_wrapper(st->BootServices->Stall, 1, us);
}

static void find_acpi(struct ref_ctx *x)
{
	x->acpi_why = tp_efi_acpi_root(x->st, &x->root);
	x->have_acpi = !x->acpi_why;
}

/* ---- HPET ---- */

static const char *hpet_setup(struct ref_ctx *x)
{
	uint32_t len;
	int bad = 0;
	const void *t;
	const char *why;

	if (!x->have_acpi)
		return x->acpi_why;
	t = tp_acpi_find(&x->root, "HPET", tp_acpi_map_identity, NULL, &len, &bad);
	if (!t)
		return bad ? "HPET table checksum invalid" : "no HPET table";
	if (tp_acpi_hpet(t, len, &x->hpet_tbl, &why))
		return why;
	if (tp_hpet_begin(&x->hpet, x->hpet_tbl.address))
		return "HPET capabilities register invalid (period 0 or > 100 ns)";
	return NULL;
}

static int hpet_round(struct ref_ctx *x, struct tp_round *r, uint64_t *hz)
{
	int ret = tp_measure_hpet(&x->hpet, x->ms, &x->lim, r);

	*hz = ret ? 0 : tp_hz_from_hpet(r->tsc_ticks, r->ref_ticks, x->hpet.period_fs);
	return ret;
}

static void hpet_teardown(struct ref_ctx *x)
{
	tp_hpet_end(&x->hpet);
}

static void hpet_describe(struct ref_ctx *x, struct tp_rec *r)
{
	tp_con_hex(r, "address", x->hpet_tbl.address);
	tp_rec_uint(r, "period_fs", x->hpet.period_fs);
	tp_rec_uint(r, "ref_hz", tp_hpet_hz(x->hpet.period_fs));
	tp_rec_bool(r, "counter_64bit", !!(x->hpet.gcap_id & HPET_CAP_COUNT_SIZE));
	tp_rec_bool(r, "enabled_by_stub", x->hpet.enabled_by_us);
}

/* ---- ACPI PM timer ---- */

static const char *pm_setup(struct ref_ctx *x)
{
	uint32_t len;
	int bad = 0;
	const void *t;
	const char *why;

	if (!x->have_acpi)
		return x->acpi_why;
	t = tp_acpi_find(&x->root, "FACP", tp_acpi_map_identity, NULL, &len, &bad);
	if (!t)
		return bad ? "FADT checksum invalid" : "no FADT";
	if (tp_acpi_fadt_pm_timer(t, len, &x->pm, &why))
		return why;
	return NULL;
}

static int pm_round(struct ref_ctx *x, struct tp_round *r, uint64_t *hz)
{
	int ret = tp_measure_pmtimer(&x->pm, x->ms, &x->lim, r);

	*hz = ret ? 0 : tp_hz_from_ticks(r->tsc_ticks, r->ref_ticks, ACPI_PM_TIMER_HZ);
	return ret;
}

static void pm_describe(struct ref_ctx *x, struct tp_rec *r)
{
	tp_rec_str(r, "space", x->pm.space == ACPI_GAS_IO ? "io" : "memory");
	tp_con_hex(r, "address", x->pm.address);
	tp_rec_uint(r, "bits", x->pm.bits);
	tp_rec_bool(r, "tmr_val_ext", x->pm.ext_flag);
	tp_rec_bool(r, "from_x_pm_tmr_blk", x->pm.from_x);
	tp_rec_uint(r, "ref_hz", ACPI_PM_TIMER_HZ);
}

/* ---- PIT ---- */

static int pit_round(struct ref_ctx *x, struct tp_round *r, uint64_t *hz)
{
	int ret = tp_measure_pit(x->ms, &x->lim, r);

	*hz = ret ? 0 : tp_hz_from_ticks(r->tsc_ticks, r->ref_ticks, PIT_HZ);
	return ret;
}

static void pit_describe(struct ref_ctx *x, struct tp_rec *r)
{
	uint32_t ms;

	tp_rec_uint(r, "latch", tp_pit_latch_for_ms(x->ms, &ms));
	tp_rec_uint(r, "ref_hz", PIT_HZ);
}

/* ---- UEFI Stall ---- */

static int stall_round(struct ref_ctx *x, struct tp_round *r, uint64_t *hz)
{
	int ret = tp_measure_stall(efi_stall, x->st, x->ms, r);

	*hz = ret ? 0 : tp_hz_from_ticks(r->tsc_ticks, r->ref_ticks, 1000000);
	return ret;
}

/* Preference order: the summary picks the first that worked. */
static const struct ref_ops ref_table[] = {
	{ TP_REF_HPET, "hpet", hpet_setup, hpet_round, hpet_teardown, hpet_describe, 1 },
	{ TP_REF_PMTIMER, "pmtimer", pm_setup, pm_round, NULL, pm_describe, 1 },
	{ TP_REF_PIT, "pit", NULL, pit_round, NULL, pit_describe, 1 },
	{ TP_REF_STALL, "stall", NULL, stall_round, NULL, NULL, 0 },
};

static const char *round_error(int ret)
{
	return ret == TP_MEASURE_STUCK ? "counter does not advance" :
					 "reference did not reach the window in time";
}

static void rec_absent(struct tp_rec *r, const char *why)
{
	tp_rec_bool(r, "absent", 1);
	tp_rec_str(r, "reason", why);
}

/*
 * One round, measured again while an end could not be pinned down
 * (TP_MEASURE_NOISY), at most TP_MEASURE_RETRIES times. Adds the TSC ticks
 * of every attempt to *tsc_total; returns the last attempt's result.
 */
static int measure_round(struct ref_ctx *x, const struct ref_ops *op, uint64_t *hz,
			 uint64_t *tsc_total, uint32_t *retried)
{
	int ret;

	for (int attempt = 0;; attempt++) {
		struct tp_round rd = { 0, 0 };
		EFI_TPL old = 0;

		if (op->raise_tpl)
			old = uefi_call_wrapper(x->st->BootServices->RaiseTPL, 1, TPL_HIGH_LEVEL);
		ret = op->round(x, &rd, hz);
		if (!ret)	/* the one place a skew is injected: REF read that much fast */
			*hz = tp_skew_tsc_hz(x->skew, op->name, *hz);
		if (op->raise_tpl)
			uefi_call_wrapper(x->st->BootServices->RestoreTPL, 1, old);
		*tsc_total += rd.tsc_ticks;
		if (ret != TP_MEASURE_NOISY || attempt >= TP_MEASURE_RETRIES)
			return ret;
		(*retried)++;
	}
}

/* The rounds of a reference that is set up, reduced into out; NULL, or why it is absent. */
static const char *measure_rounds(struct ref_ctx *x, const struct ref_ops *op, uint32_t rounds,
				  struct tp_ref_result *out)
{
	uint64_t hz[TP_CALIB_ROUNDS_MAX], tsc_total = 0;

	for (uint32_t i = 0; i < rounds; i++) {
		int ret = measure_round(x, op, &hz[i], &tsc_total, &out->retried);

		if (ret)
			hz[i] = 0;	/* counted as rejected */
		/* a first round that never ends: the reference is not there */
		if ((ret == TP_MEASURE_TIMEOUT || ret == TP_MEASURE_STUCK) && i == 0)
			return round_error(ret);
	}
	if (tp_calib_reduce(hz, rounds, &out->res))
		return "no valid round";
	out->present = 1;
	out->duration_us = tp_muldiv64(tsc_total, 1000000, out->res.tsc_hz, 1);
	return NULL;
}

static void ref_record(struct tp_console *con, struct ref_ctx *x, const struct ref_ops *op,
		       const struct tp_ref_result *out)
{
	struct tp_rec *r = tp_con_calib(con, op->name);

	if (out->present) {
		tp_rec_uint(r, TP_CALIB_HZ, out->res.tsc_hz);
		tp_rec_uint(r, TP_CALIB_SPREAD, out->res.spread_ppm);
		tp_rec_uint(r, "rounds", out->res.rounds);
		tp_rec_uint(r, "rejected", out->res.rejected);
		tp_rec_uint(r, "retried", out->retried);
		tp_rec_uint(r, "outlier_ppm", out->res.threshold_ppm);
		tp_rec_uint(r, "duration_us", out->duration_us);
		tp_rec_uint(r, "window_ms", x->ms);
		if (op->describe)
			op->describe(x, r);
		if (tp_skew_applies(x->skew, op->name))
			tp_rec_int(r, "injected_skew_ppm", x->skew->ppm);
	} else {
		rec_absent(r, out->reason);
	}
	tp_con_emit(con);
}

static void run_ref(struct tp_console *con, struct ref_ctx *x, const struct ref_ops *op,
		    uint32_t rounds, struct tp_ref_result *out)
{
	out->name = op->name;
	out->present = 0;
	out->retried = 0;
	out->reason = op->setup ? op->setup(x) : NULL;
	if (!out->reason)
		out->reason = measure_rounds(x, op, rounds, out);
	if (op->teardown)
		op->teardown(x);
	ref_record(con, x, op, out);
}

/* Intel SDM vol. 2A, CPUID leaf 15H: the TSC from the crystal clock. */
static void cpuid15_record(struct tp_console *con, uint32_t max_leaf, uint32_t base_mhz)
{
	struct tp_rec *r = tp_con_calib(con, "cpuid15");

	if (max_leaf < 0x15) {
		rec_absent(r, "CPUID max basic leaf below 0x15");
	} else {
		struct tp_cpuid c = tp_cpuid(0x15, 0);
		uint64_t crystal, hz = tp_cpuid15_hz(c.eax, c.ebx, c.ecx, base_mhz, &crystal);

		if (!hz) {
			rec_absent(r, c.ebx ? "crystal clock not enumerated" :
					      "TSC/crystal ratio not enumerated");
		} else {
			tp_rec_uint(r, "tsc_hz", hz);
			tp_rec_uint(r, "crystal_hz", crystal);
			tp_rec_bool(r, "crystal_from_cpuid16", c.ecx == 0);
			tp_rec_uint(r, "numerator", c.ebx);
			tp_rec_uint(r, "denominator", c.eax);
		}
	}
	tp_con_emit(con);
}

/* Intel SDM vol. 2A, CPUID leaf 16H: the processor's base frequency. */
static void cpuid16_record(struct tp_console *con, uint32_t max_leaf, uint32_t base_mhz)
{
	struct tp_rec *r = tp_con_calib(con, "cpuid16");

	if (!base_mhz) {
		rec_absent(r, max_leaf < 0x16 ? "CPUID max basic leaf below 0x16" :
						"base frequency not enumerated");
	} else {
		/* the nominal base frequency: equal to the TSC's on most Intel parts */
		tp_rec_uint(r, "tsc_hz", (uint64_t)base_mhz * 1000000);
		tp_rec_uint(r, "base_mhz", base_mhz);
	}
	tp_con_emit(con);
}

/*
 * The hypervisor's word (CPUID 1 ECX bit 31, leaf 0x40000000): the
 * VMware-defined timing leaf 0x40000010, also offered by KVM/QEMU
 * (-cpu ...,vmware-cpuid-freq=on with invtsc) and VMware. Which max leaf
 * offers it, and the vendor text: tp_hv_timing_leaf(), tp_cpuid_text()
 * (common/x86clock.h), shared with the tsc probe and the fingerprint.
 */
static void hypervisor_record(struct tp_console *con)
{
	struct tp_rec *r = tp_con_calib(con, "hypervisor");
	struct tp_cpuid h, t;
	char vendor[13];

	if (!(tp_cpuid(1, 0).ecx & (1u << 31))) {
		rec_absent(r, "no hypervisor (CPUID 1 ECX bit 31 clear)");
		tp_con_emit(con);
		return;
	}
	h = tp_cpuid(TP_HV_LEAF_BASE, 0);
	tp_cpuid_text(h.ebx, h.ecx, h.edx, vendor);
	if (!tp_hv_timing_leaf(h.eax)) {
		rec_absent(r, "hypervisor has no leaf 0x40000010");
	} else {
		t = tp_cpuid(TP_HV_TIMING_LEAF, 0);
		if (t.eax) {
			tp_rec_uint(r, "tsc_hz", (uint64_t)t.eax * 1000);
			tp_rec_uint(r, "apic_bus_hz", (uint64_t)t.ebx * 1000);
		} else {
			rec_absent(r, "leaf 0x40000010 reports 0 kHz");
		}
	}
	tp_rec_str(r, "vendor", vendor);
	tp_con_emit(con);
}

/* Intel SDM vol. 2A, CPUID; AMD APM vol. 3, CPUID Fn8000_0007 */
static void cpuid_records(struct tp_console *con, struct tp_tsc_report *rep)
{
	uint32_t max_leaf = tp_cpuid(0, 0).eax, base_mhz = 0;

	rep->invariant_tsc = 0;
	if (tp_cpuid(0x80000000, 0).eax >= 0x80000007)
		rep->invariant_tsc = !!(tp_cpuid(0x80000007, 0).edx & (1u << 8));
	if (max_leaf >= 0x16)
		base_mhz = tp_cpuid(0x16, 0).eax & 0xffff;
	cpuid15_record(con, max_leaf, base_mhz);
	cpuid16_record(con, max_leaf, base_mhz);
	hypervisor_record(con);
}

/*
 * Every reference of ref_table in turn; rep->chosen is the first that
 * worked. The hardware ones' rates go to hw_hz[]; returns their number.
 */
static size_t run_refs(struct tp_console *con, struct ref_ctx *x, uint32_t rounds,
		       struct tp_tsc_report *rep, uint64_t *hw_hz)
{
	size_t n_hw = 0;
	struct tp_buf list;

	rep->chosen = NULL;
	rep->tsc_hz = 0;
	tp_buf_init(&list, rep->calib_list, sizeof(rep->calib_list));
	for (size_t i = 0; i < sizeof(ref_table) / sizeof(ref_table[0]); i++) {
		const struct ref_ops *op = &ref_table[i];
		struct tp_ref_result *res = &rep->ref[op->id];

		run_ref(con, x, op, rounds, res);
		if (!res->present)
			continue;
		tp_calib_list_add(&list, op->name, res->res.tsc_hz, res->res.spread_ppm);
		if (!rep->chosen) {
			rep->chosen = op->name;
			rep->tsc_hz = res->res.tsc_hz;
		}
		if (op->id != TP_REF_STALL)
			hw_hz[n_hw++] = res->res.tsc_hz;
	}
	return n_hw;
}

static void summary_record(struct tp_console *con, const struct tp_tsc_report *rep,
			   size_t n_hw, uint32_t rounds, uint32_t ms)
{
	struct tp_rec *r = tp_con_calib_summary(con, rep->chosen, rep->tsc_hz);

	tp_rec_uint(r, "max_disagreement_ppm", rep->max_disagreement_ppm);
	tp_rec_uint(r, "hardware_refs", n_hw);
	tp_rec_bool(r, "invariant_tsc", rep->invariant_tsc);
	tp_rec_uint(r, "rounds", rounds);
	tp_rec_uint(r, "window_ms", ms);
	tp_con_emit(con);
}

/* Hardware references further apart than TP_CALIB_WARN_PPM: on screen and a record. */
static void disagreement_warning(struct tp_console *con, const struct tp_tsc_report *rep)
{
	char msg[160];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, msg, sizeof(msg));
	tp_buf_puts(&b, "WARNING: TSC references disagree by ");
	tp_buf_putu(&b, rep->max_disagreement_ppm);
	tp_buf_puts(&b, " ppm (limit ");
	tp_buf_putu(&b, TP_CALIB_WARN_PPM);
	tp_buf_puts(&b, "): ");
	tp_buf_puts(&b, rep->calib_list);
	tp_con_msg(con, msg);
	r = tp_con_rec(con, "stub_warning");
	tp_rec_str(r, "what", "calib_disagreement");
	tp_rec_uint(r, "max_disagreement_ppm", rep->max_disagreement_ppm);
	tp_rec_uint(r, "limit_ppm", TP_CALIB_WARN_PPM);
	tp_rec_str(r, "calib", rep->calib_list);
	tp_con_emit(con);
}

/* The watcher's line (common/announce.h) before the silent rounds. */
static void announce_limit(struct tp_console *con, uint32_t rounds, uint32_t ms)
{
	char line[64];
	struct tp_buf b;
	uint32_t refs = sizeof(ref_table) / sizeof(ref_table[0]);

	tp_buf_init(&b, line, sizeof(line));
	tp_announce(&b, "calibrating the TSC",
		    tp_calib_limit_s(refs, rounds, ms, 1 + TP_MEASURE_RETRIES));
	tp_con_msg(con, line);
}

void tp_tsc_calibrate(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint32_t rounds,
		      uint32_t ms, struct tp_tsc_report *rep)
{
	struct ref_ctx *x = &calib_refs;
	uint64_t rough_hz, hw_hz[3];
	size_t n_hw;

	x->st = st;
	x->ms = ms;
	x->skew = &rep->skew;
	announce_limit(con, rounds, ms);
	find_acpi(x);
	/* Limits only, at the rough rate (calib.h): a slow round is still a
	 * valid measurement (seen under TCG: a PM timer round timing out at
	 * 4 windows + 100 ms). */
	rough_hz = tp_rough_tsc_hz(efi_stall, st);
	x->lim.timeout_tsc = tp_calib_timeout_tsc(rough_hz, ms);
	x->lim.max_bracket_tsc = tp_calib_tsc_for_us(rough_hz, TP_MEASURE_MAX_BRACKET_US);

	n_hw = run_refs(con, x, rounds, rep, hw_hz);
	rep->max_disagreement_ppm = tp_max_disagreement_ppm(hw_hz, n_hw, rep->tsc_hz);
	cpuid_records(con, rep);
	summary_record(con, rep, n_hw, rounds, ms);
	if (rep->max_disagreement_ppm > TP_CALIB_WARN_PPM)
		disagreement_warning(con, rep);
	if (!rep->chosen)
		tp_con_msg(con, "WARNING: TSC calibration failed against every reference");
}

/* The TSC's rate against the scan's reference: its rounds' spread, and how far the chosen is. */
static uint32_t scan_ppm(const struct tp_tsc_report *rep, const struct tp_ref_result *res)
{
	return res->res.spread_ppm + tp_ppm_apart(res->res.tsc_hz, rep->tsc_hz, rep->tsc_hz);
}

void tp_tsc_scan_ref(const struct tp_tsc_report *rep, struct tp_hwlat_ref *ref)
{
	struct ref_ctx *x = &calib_refs;
	const struct tp_ref_result *res = &rep->ref[TP_REF_HPET];

	*ref = (struct tp_hwlat_ref){ .name = "none" };
	if (res->present && !tp_hpet_begin(&x->hpet, x->hpet_tbl.address)) {
		ref->name = "hpet";
		ref->read = tp_hpet_read;
		ref->ctx = &x->hpet;
		ref->scale.bits = 32;
		tp_hidden_scale_fs(&ref->scale, x->hpet.period_fs);
	} else if ((res = &rep->ref[TP_REF_PMTIMER])->present) {
		ref->name = "pmtimer";
		ref->read = tp_pm_read;
		ref->ctx = &x->pm;
		ref->scale.bits = x->pm.bits;
		tp_hidden_scale_hz(&ref->scale, ACPI_PM_TIMER_HZ);
	} else {
		ref->why = "neither the HPET nor the ACPI PM timer answered the calibration";
		return;
	}
	ref->scale.ppm = scan_ppm(rep, res);
	if (tp_skew_applies(&rep->skew, ref->name))
		tp_hidden_scale_skew(&ref->scale, rep->skew.ppm);
}

void tp_tsc_scan_ref_end(void)
{
	tp_hpet_end(&calib_refs.hpet);
}
