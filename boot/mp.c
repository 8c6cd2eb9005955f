// SPDX-License-Identifier: MIT
/*
 * TSC offsets before the OS through the firmware's MP services; see mp.h
 * and docs/stub.md, "TSC offsets before the OS". The AP runs ap_main()
 * and nothing else of ours: no UEFI service, only loads, stores, CPUID,
 * RDTSC and (when CPUID enumerates it) RDMSR, and every spin on either
 * side ends at a time-out, so a stuck AP can never hang the boot.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "../common/stubcpu.h"
#include "../common/tscsync.h"
#include "efitext.h"
#include "mp.h"
#include "mpshare.h"
#include "mpservices.h"
#include "x86.h"

/*
 * The firmware's word that the AP returned: EDK II's DxeMpLib looks at its
 * APs from a 100 ms timer (CheckApsStatus) and signals the event then.
 */
#define MP_FINISH_MS 3000
/* StartupThisAP's own limit, after which the firmware takes the AP back. */
#define MP_AP_LIMIT_US (5 * 1000 * 1000)
/* Without a calibration: time-outs as if the TSC ran at 10 GHz (longer). */
#define MP_ROUGH_TICKS_PER_MS 10000000ull

/* One cache line per AP: a stuck AP can only ever touch its own. */
struct mp_line {
	struct tp_rt rt;	/* the round trip (mpshare.h) */
	uint64_t idle_ticks;	/* how long the AP waits for a call */
	uint64_t adjust;	/* the AP's IA32_TSC_ADJUST */
	uint32_t has_adjust, ready, finished;
} __attribute__((aligned(64)));

struct mp_pair {
	UINTN number;		/* the firmware's processor number */
	struct tp_processor_info info;
	struct tscsync_bounds s;
	const char *why;	/* NULL: measured */
	EFI_STATUS status;	/* of the firmware call that failed */
	int stopped_early;	/* the AP stopped answering after some round trips */
	int finish_seen;	/* the firmware signalled the AP's return */
	uint64_t duration_ms;	/* StartupThisAP to the end of the wait for its return */
	struct mp_line *ln;
};

/* B, on the AP: its TSC_ADJUST, then an answer to every call. */
static VOID EFIAPI ap_main(VOID *arg)
{
	struct mp_line *ln = arg;

	ln->has_adjust = (uint32_t)tp_has_tsc_adjust();
	if (ln->has_adjust)
		ln->adjust = tp_rdmsr(TP_MSR_TSC_ADJUST);
	__atomic_store_n(&ln->ready, 1, __ATOMIC_RELEASE);
	tp_rt_answer(&ln->rt, ln->idle_ticks);
	__atomic_store_n(&ln->finished, 1, __ATOMIC_RELEASE);
}

/* Polls the event StartupThisAP signals when the AP returned, up to MP_FINISH_MS. */
static int wait_finish(EFI_EVENT ev)
{
	for (int ms = 0; ms < MP_FINISH_MS; ms++) {
		if (uefi_call_wrapper(BS->CheckEvent, 1, ev) == EFI_SUCCESS)
			return 1;
		uefi_call_wrapper(BS->Stall, 1, 1000);
	}
	return 0;
}

/* One AP as B, the BSP as A: StartupThisAP non-blocking, the rounds, the end. */
static void run_pair(struct tp_mp_services *mp, uint64_t ticks_per_ms, struct mp_pair *p)
{
	uint64_t t_start = tp_rdtsc();
	EFI_EVENT ev = NULL;

	*p->ln = (struct mp_line){ .idle_ticks = MP_AP_IDLE_MS * ticks_per_ms };
	tscsync_init(&p->s);
	/* UEFI 2.10, 7.1 CreateEvent: type 0, polled with CheckEvent */
	p->status = uefi_call_wrapper(BS->CreateEvent, 5, 0, TPL_CALLBACK, NULL, NULL, &ev);
	if (EFI_ERROR(p->status)) {
		p->why = "CreateEvent failed";
		return;
	}
	p->status = uefi_call_wrapper(mp->startup_this_ap, 7, mp, ap_main, p->number, ev,
				      (UINTN)MP_AP_LIMIT_US, p->ln, NULL);
	if (EFI_ERROR(p->status)) {
		p->why = "StartupThisAP (non-blocking) failed";
		goto out;
	}
	for (uint64_t t0 = tp_rdtsc(); !__atomic_load_n(&p->ln->ready, __ATOMIC_ACQUIRE);) {
		if (tp_rdtsc() - t0 > MP_READY_MS * ticks_per_ms) {
			p->why = "the AP did not start our procedure within 1 s";
			break;
		}
		__builtin_ia32_pause();
	}
	p->stopped_early = tp_rt_pair(&p->ln->rt, ticks_per_ms, &p->s, &p->why,
				       "the AP did not answer within 100 ms");
	p->finish_seen = wait_finish(ev);
	p->duration_ms = (tp_rdtsc() - t_start) / ticks_per_ms;
out:
	uefi_call_wrapper(BS->CloseEvent, 1, ev);
}

static void rec_adjust(struct tp_rec *r, int present, uint64_t value)
{
	struct tp_sc_adjust a = { .present = present, .value = (int64_t)value };

	tp_sc_adjust_keys(r, &a);
}

/* The stub_tscsync record of one AP, and a line for people. */
static void say_pair(struct tp_console *con, uint32_t bsp_apic, const struct mp_pair *p)
{
	struct tscsync_interval iv;
	struct tp_rec *r = tp_con_rec(con, "stub_tscsync");
	char m[200];
	struct tp_buf b;

	tp_rec_str(r, "what", "pair");
	tp_rec_uint(r, "processor", p->number);
	tp_rec_uint(r, "apic_a", bsp_apic);
	tp_rec_uint(r, "apic_b", p->info.processor_id);
	if (tp_rt_pair_keys(r, p->why, EFI_ERROR(p->status) ? tp_efi_status_str(p->status) : NULL,
			    &p->s, p->stopped_early, &iv)) {
		tp_con_emit(con);
		return;
	}
	tp_rec_bool(r, "finish_signalled", p->finish_seen);
	tp_rec_uint(r, "duration_ms", p->duration_ms);
	rec_adjust(r, (int)p->ln->has_adjust, p->ln->adjust);
	tp_con_emit(con);

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "pre-OS TSC of APIC ");
	tp_buf_putu(&b, p->info.processor_id);
	tp_rt_pair_text(&b, "BSP's", &p->s, &iv);
	tp_buf_puts(&b, ", tightest ");
	tp_buf_puti(&b, p->s.min_rtt_ticks);
	tp_buf_puts(&b, ")");
	tp_con_msg(con, m);
}

struct mp_count {
	UINTN processors, enabled, bsp, aps, measured, failed, disabled, over_cap;
	UINTN max_aps;		/* lines the pool gave */
};

static void say_summary(struct tp_console *con, const char *why, EFI_STATUS status,
			const struct mp_count *c, uint64_t tsc_hz)
{
	struct tp_rec *r = tp_con_rec(con, "stub_tscsync");

	tp_rec_str(r, "what", "summary");
	if (why) {
		tp_mp_absent(r, why, EFI_ERROR(status) ? tp_efi_status_str(status) : NULL);
		tp_con_emit(con);
		return;
	}
	tp_rec_uint(r, "processors", c->processors);
	tp_rec_uint(r, "enabled", c->enabled);
	tp_rec_uint(r, "bsp_processor", c->bsp);
	tp_mp_count_keys(r, c->measured, c->failed, c->disabled, c->over_cap);
	tp_rec_uint(r, "max_aps", c->max_aps);
	tp_rec_uint(r, "tsc_hz", tsc_hz);
	tp_con_emit(con);
}

/* The BSP: who it is, and its own TSC_ADJUST. */
static EFI_STATUS bsp_info(struct tp_console *con, struct tp_mp_services *mp, struct mp_count *c,
			   uint32_t *bsp_id)
{
	struct tp_processor_info info;
	struct tp_sc_adjust adj;
	EFI_STATUS status;
	struct tp_rec *r;

	status = uefi_call_wrapper(mp->get_number_of_processors, 3, mp, &c->processors, &c->enabled);
	if (!EFI_ERROR(status))
		status = uefi_call_wrapper(mp->who_am_i, 2, mp, &c->bsp);
	if (!EFI_ERROR(status))
		status = uefi_call_wrapper(mp->get_processor_info, 3, mp, c->bsp, &info);
	if (EFI_ERROR(status))
		return status;
	*bsp_id = (uint32_t)info.processor_id;
	adj.present = tp_has_tsc_adjust();
	adj.value = adj.present ? (int64_t)tp_rdmsr(TP_MSR_TSC_ADJUST) : 0;
	r = tp_con_rec(con, "stub_tscsync");
	tp_rec_str(r, "what", "bsp");
	tp_rec_uint(r, "processor", c->bsp);
	tp_rec_uint(r, "apic", info.processor_id);
	rec_adjust(r, adj.present, (uint64_t)adj.value);
	tp_con_emit(con);
	return EFI_SUCCESS;
}

/*
 * A line for each of up to n APs (TP_STUB_CPUS_MAX less the BSP), 64-byte
 * aligned, from the pool: fewer when it has not that much (halved until it
 * gives). Never freed: an AP that did not return in time may still write
 * its line.
 */
static struct mp_line *alloc_lines(UINTN n, UINTN *got)
{
	uint64_t k = n < TP_STUB_CPUS_MAX - 1 ? n : TP_STUB_CPUS_MAX - 1;
	struct mp_line *p = tp_pool_upto(&k, sizeof(*p), 64);

	*got = (UINTN)k;
	return p;
}

/*
 * Every enabled, healthy AP up to the lines the pool gave (c->max_aps);
 * the others counted (aps_over_cap; aps_disabled: disabled, unhealthy, or
 * GetProcessorInfo refused it).
 */
static void each_ap(struct tp_console *con, struct tp_mp_services *mp, uint64_t ticks_per_ms,
		    struct mp_count *c, uint32_t bsp_id)
{
	struct mp_line *lines = alloc_lines(c->processors ? c->processors - 1 : 0, &c->max_aps);
	static struct mp_pair p;
	const UINT32 usable = TP_PROCESSOR_ENABLED_BIT | TP_PROCESSOR_HEALTH_STATUS_BIT;

	for (UINTN n = 0; n < c->processors; n++) {
		if (n == c->bsp)
			continue;
		p = (struct mp_pair){ .number = n };
		p.status = uefi_call_wrapper(mp->get_processor_info, 3, mp, n, &p.info);
		if (EFI_ERROR(p.status) || (p.info.status_flag & usable) != usable) {
			c->disabled++;
			continue;
		}
		if (c->aps++ >= c->max_aps) {
			c->over_cap++;
			continue;
		}
		p.ln = &lines[c->aps - 1];
		run_pair(mp, ticks_per_ms, &p);
		say_pair(con, bsp_id, &p);
		if (p.why) {
			c->failed++;
			continue;
		}
		c->measured++;
	}
}

void tp_mp_tscsync(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint64_t tsc_hz,
		   struct tp_mp_report *rep)
{
	static EFI_GUID guid = TP_MP_SERVICES_PROTOCOL_GUID;
	uint64_t ticks_per_ms = tsc_hz ? tsc_hz / 1000 : MP_ROUGH_TICKS_PER_MS;
	struct tp_mp_services *mp = NULL;
	struct mp_count c = { 0 };
	EFI_STATUS status;

	*rep = (struct tp_mp_report){ 0 };
	/* UEFI 2.10, 7.3 LocateProtocol */
	status = uefi_call_wrapper(st->BootServices->LocateProtocol, 3, &guid, NULL, (void **)&mp);
	if (EFI_ERROR(status) || !mp) {
		tp_con_msg(con, "no pre-OS TSC offsets: the firmware has no EFI_MP_SERVICES_PROTOCOL");
		say_summary(con, "no EFI_MP_SERVICES_PROTOCOL", status, &c, tsc_hz);
		return;
	}
	status = bsp_info(con, mp, &c, &rep->bsp_id);
	if (EFI_ERROR(status)) {
		say_summary(con, "MP services: cannot enumerate the processors", status, &c, tsc_hz);
		return;
	}
	tp_mp_announce(con, c.processors ? c.processors - 1 : 0);
	each_ap(con, mp, ticks_per_ms, &c, rep->bsp_id);
	say_summary(con, NULL, EFI_SUCCESS, &c, tsc_hz);
	rep->cpus = c.processors;
	rep->measured = 1;
}
