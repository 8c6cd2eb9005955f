// SPDX-License-Identifier: MIT
/*
 * The pre-OS latency scan on arm64 (hwlat.h's interface; x86's start is
 * boot/hwlat.c, the run itself hwlatrun.h): every CPU the MADT lists is
 * started by PSCI CPU_ON (ap.h) on tp_hwlat_ap, which claims a slot, masks
 * every exception (DAIF) and waits for the boot CPU's go; the boot CPU
 * then reads the counter for the same window at TPL_HIGH_LEVEL, waits for
 * the slots and, instead of the firmware's word that the APs returned,
 * for PSCI AFFINITY_INFO to say each started CPU is off again. No SMI
 * counter on arm64: gaps are not attributed.
 */
#include <efi.h>
#include <efilib.h>

#include "../hwlatrun.h"
#include "../mpshare.h"
#include "ap.h"
#include "psci.h"

/* How long PSCI may take to report a CPU off after its window. */
#define HWLAT_OFF_MS 1000

/* From the pool, one for each AP expected (count_aps): its start, and its MPIDR (or UINT64_MAX). */
static struct tp_ap_kit *kits;
static uint64_t *started_mpidr;

static void ap_scan(void *arg)
{
	tp_hwlat_ap(arg);
}

/* The enabled CPUs other than this one, up to the slots; the others counted. */
static void count_aps(const struct tp_ap_cpus *c, struct tp_hwlat_report *rep)
{
	uint32_t bsp = tp_cpu_id();
	uint64_t n = c->n ? c->n - 1 : 0, k = n;

	kits = tp_ap_kits(&n);
	started_mpidr = tp_pool_upto(&k, sizeof(uint64_t), 8);
	tp_hwlat_expect_init(rep, n < k ? n : k);
	for (size_t i = 0; i < c->n; i++) {
		if (tp_mpidr_pack(c->cpu[i].mpidr) == bsp || !(c->cpu[i].flags & TP_GICC_ENABLED))
			continue;
		if (rep->aps_expected < rep->expected_cap)
			started_mpidr[rep->aps_expected] = c->cpu[i].mpidr;
		tp_hwlat_expect(rep, tp_mpidr_pack(c->cpu[i].mpidr));
	}
	rep->aps_over_cap += (uint32_t)(c->total - c->n);
}

/* CPU_ON for every AP expected; returns how many PSCI started. */
static uint32_t start_aps(struct hwlat_run *r, const struct tp_ap_cpus *c,
			  struct tp_hwlat_report *rep)
{
	uint32_t started = 0;

	for (uint32_t i = 0; i < rep->aps_expected; i++) {
		int64_t rc = tp_ap_start(&kits[i].boot, c->conduit.hvc, started_mpidr[i],
					 kits[i].stack + TP_AP_STACK, ap_scan, r);

		if (rc == PSCI_SUCCESS)
			started++;
		else
			started_mpidr[i] = UINT64_MAX;	/* not ours to wait for */
	}
	return started;
}

/*
 * PSCI's word that every started AP is off again (x86: the firmware's that
 * they returned); 1 when it is. A CPU still on cannot be started by Linux
 * (CPU_ON answers ALREADY_ON), and nothing before the OS can stop it.
 */
static int all_off(const struct tp_ap_cpus *c, struct tp_hwlat_report *rep)
{
	uint64_t ticks_per_ms = rep->tsc_hz / 1000;
	int off = 1;

	for (uint32_t i = 0; i < rep->aps_expected; i++)
		if (started_mpidr[i] != UINT64_MAX)
			off &= tp_ap_wait_off(c->conduit.hvc, started_mpidr[i], ticks_per_ms,
					      HWLAT_OFF_MS);
	if (!off && !rep->why)
		rep->why = "a CPU the scan started is still on (PSCI AFFINITY_INFO): "
			   "Linux will not be able to start it";
	return off;
}

static void scan(const struct tp_ap_cpus *c, struct tp_hwlat_report *rep, int stuck)
{
	struct hwlat_run *r = &tp_hwlat_run;
	uint64_t t0 = tp_counter();
	uint32_t started = 0;

	tp_hwlat_prepare(r, rep, stuck);
	if (c && rep->aps_expected) {
		started = start_aps(r, c, rep);
		if (started < rep->aps_expected)
			rep->why = "PSCI CPU_ON refused some CPUs: they are named as not reported";
		tp_hwlat_wait_ready(r, rep);
	}
	tp_hwlat_bsp_window(r, rep);
	tp_hwlat_wait_done(r, rep);
	if (c && started)
		rep->finish_seen = all_off(c, rep);
	rep->scanned = 1;
	rep->duration_ms = (tp_counter() - t0) / (rep->tsc_hz / 1000);
}

void tp_hwlat_scan(EFI_SYSTEM_TABLE *st, uint64_t tsc_hz, uint32_t window_ms,
		   uint32_t thresh_us, int stuck, const struct tp_hwlat_ref *ref,
		   struct tp_hwlat_report *rep)
{
	static struct tp_ap_cpus c;
	const char *why;

	if (tp_hwlat_plan(rep, tsc_hz, window_ms, thresh_us, ref))
		return;
	if ((why = tp_ap_find(st, &c)) != NULL) {
		scan(NULL, rep, stuck);
		rep->why = why;
		return;
	}
	count_aps(&c, rep);
	scan(&c, rep, stuck);
}
