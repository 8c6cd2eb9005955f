// SPDX-License-Identifier: MIT
/*
 * The arm64 stub's per-CPU step (mp.h's interface; x86's is mp.c): every
 * CPU the MADT lists, started in turn by PSCI CPU_ON (AAVMF offers no MP
 * services), reads its MPIDR, MIDR and CNTFRQ_EL0 and answers round trips
 * on CNTVCT_EL0 (ap.c); the boot CPU turns them into the proven offset
 * interval of common/tscsync.h, then waits until PSCI says the CPU is off
 * again. `stub_tscsync` records, the CPUs named by tp_mpidr_pack()
 * (common/stubcpu.h). docs/arm64.md, "Before the OS".
 */
#include <efi.h>
#include <efilib.h>

#include "../../common/buf.h"
#include "../../common/tscsync.h"
#include "../arm64.h"
#include "../mp.h"
#include "../mpshare.h"
#include "ap.h"
#include "psci.h"

/* How long PSCI may take to report a CPU off again after it stopped answering. */
#define MP_OFF_MS 1000

/* The round trip's line (one cache line, written only by the pair). */
struct ap_line {
	struct tp_rt rt;	/* the round trip (../mpshare.h) */
	uint64_t idle_ticks;	/* how long the AP waits for a call */
	uint64_t mpidr, midr, cntfrq;	/* its MPIDR_EL1, MIDR_EL1, CNTFRQ_EL0 */
	uint64_t ready, finished;
} __attribute__((aligned(64)));

/* One AP's memory for the step, from the pool: its line and its start. */
struct ap_slot {
	struct ap_line ln;
	struct tp_ap_kit kit;
};

struct arm_mp {
	int hvc;
	uint64_t ticks_per_ms;
	uint32_t bsp;			/* tp_cpu_id() of the boot CPU */
	uint64_t cntfrq;		/* the boot CPU's CNTFRQ_EL0 */
	size_t cpus, disabled, measured, failed, over_cap, cntfrq_differs, not_off;
	uint64_t max_aps;		/* slots the pool gave */
	struct ap_slot *slot;
};

struct arm_pair {
	struct tp_gicc cpu;
	struct ap_line *ln;
	struct tscsync_bounds s;
	const char *why;	/* NULL: measured */
	int64_t psci_rc;	/* of the CPU_ON that failed */
	int started;		/* CPU_ON succeeded */
	int stopped_early;
	int off_again;		/* AFFINITY_INFO said OFF after the rounds */
	uint64_t duration_ms;
};


/* B, on the AP (ap.h's fn): who it is, then an answer to every call. */
static void ap_answer(void *arg)
{
	struct ap_line *ln = arg;

	ln->mpidr = TP_ARM64_MRS(mpidr_el1);
	ln->midr = tp_midr();
	ln->cntfrq = tp_cntfrq();
	__atomic_store_n(&ln->ready, 1, __ATOMIC_RELEASE);
	tp_rt_answer(&ln->rt, ln->idle_ticks);
	__atomic_store_n(&ln->finished, 1, __ATOMIC_RELEASE);
}

/* One AP as B, the boot CPU as A: CPU_ON, the rounds, the AP off again. */
static void run_pair(struct arm_mp *m, size_t slot, struct arm_pair *p)
{
	uint64_t t0 = tp_cntvct();
	struct tp_ap_kit *kit = &m->slot[slot].kit;

	p->ln = &m->slot[slot].ln;
	*p->ln = (struct ap_line){ .idle_ticks = MP_AP_IDLE_MS * m->ticks_per_ms };
	tscsync_init(&p->s);
	p->psci_rc = tp_ap_start(&kit->boot, m->hvc, p->cpu.mpidr, kit->stack + TP_AP_STACK,
				 ap_answer, p->ln);
	if (p->psci_rc != PSCI_SUCCESS) {
		p->why = "PSCI CPU_ON refused";
		return;
	}
	p->started = 1;
	if (tp_rt_spin(&p->ln->ready, 1, MP_READY_MS * m->ticks_per_ms))
		p->why = "the CPU did not reach our code within 1 s";
	p->stopped_early = tp_rt_pair(&p->ln->rt, m->ticks_per_ms, &p->s, &p->why,
				       "the CPU did not answer within 100 ms");
	p->off_again = tp_ap_wait_off(m->hvc, p->cpu.mpidr, m->ticks_per_ms, MP_OFF_MS);
	p->duration_ms = (tp_cntvct() - t0) / m->ticks_per_ms;
}

/* The CPU's identity and its CNTFRQ_EL0 against the boot CPU's, once it answered. */
static void rec_identity(struct tp_rec *r, const struct arm_mp *m, const struct arm_pair *p)
{
	if (!__atomic_load_n(&p->ln->ready, __ATOMIC_ACQUIRE))
		return;
	tp_con_hex(r, "midr", p->ln->midr);
	tp_rec_uint(r, "cntfrq_hz", p->ln->cntfrq);
	tp_rec_bool(r, "cntfrq_same", p->ln->cntfrq == m->cntfrq);
}

/* The stub_tscsync record of one AP. */
static void say_pair(struct tp_console *con, const struct arm_mp *m, const struct arm_pair *p)
{
	struct tscsync_interval iv;
	struct tp_rec *r = tp_con_rec(con, "stub_tscsync");

	tp_rec_str(r, "what", "pair");
	tp_rec_uint(r, "processor_uid", p->cpu.uid);
	tp_rec_uint(r, "mpidr_a", m->bsp);
	tp_rec_uint(r, "mpidr_b", tp_mpidr_pack(p->cpu.mpidr));
	rec_identity(r, m, p);
	if (p->started)
		tp_rec_bool(r, "off_again", p->off_again);
	if (!tp_rt_pair_keys(r, p->why, p->psci_rc ? tp_psci_err(p->psci_rc) : NULL, &p->s,
			     p->stopped_early, &iv))
		tp_rec_uint(r, "duration_ms", p->duration_ms);
	tp_con_emit(con);
}

/* A line for people: the interval, or why there is none. */
static void tell_pair(struct tp_console *con, const struct arm_pair *p)
{
	struct tscsync_interval iv;
	char t[200];
	struct tp_buf b;

	tp_buf_init(&b, t, sizeof(t));
	tp_buf_puts(&b, "pre-OS CNTVCT_EL0 of MPIDR 0x");
	tp_buf_puthex(&b, p->cpu.mpidr, 1);
	if (p->why || tscsync_interval(&p->s, &iv)) {
		tp_buf_puts(&b, ": not measured: ");
		tp_buf_puts(&b, p->why ? p->why : "no usable round trip");
	} else {
		tp_rt_pair_text(&b, "boot CPU's", &p->s, &iv);
		tp_buf_puts(&b, ")");
	}
	if (p->started && !p->off_again)
		tp_buf_puts(&b, "; WARNING: PSCI does not report it off again");
	tp_con_msg(con, t);
}

/*
 * Every CPU of the MADT but the boot CPU, up to the slots the pool gives
 * (one for each CPU kept but the boot CPU; halved while it refuses).
 */
static void each_ap(struct tp_console *con, struct arm_mp *m, const struct tp_gicc *cpu,
		    size_t n)
{
	static struct arm_pair p;
	size_t slot = 0;

	m->max_aps = n ? n - 1 : 0;
	m->slot = tp_pool_upto(&m->max_aps, sizeof(struct ap_slot), 64);

	for (size_t i = 0; i < n; i++) {
		if (tp_mpidr_pack(cpu[i].mpidr) == m->bsp)
			continue;
		if (!(cpu[i].flags & TP_GICC_ENABLED)) {
			m->disabled++;
			continue;
		}
		if (slot >= m->max_aps) {
			m->over_cap++;
			continue;
		}
		p = (struct arm_pair){ .cpu = cpu[i] };
		run_pair(m, slot++, &p);
		say_pair(con, m, &p);
		tell_pair(con, &p);
		m->cntfrq_differs += p.ln && __atomic_load_n(&p.ln->ready, __ATOMIC_ACQUIRE) && p.ln->cntfrq != m->cntfrq;
		m->not_off += p.started && !p.off_again;
		if (p.why) {
			m->failed++;
			continue;
		}
		m->measured++;
	}
}

/* The summary: why nothing was measured, or the counts. */
static void say_summary(struct tp_console *con, const char *why, const struct arm_mp *m)
{
	struct tp_rec *r = tp_con_rec(con, "stub_tscsync");

	tp_rec_str(r, "what", "summary");
	tp_rec_str(r, "counter", "CNTVCT_EL0");
	if (why) {
		tp_mp_absent(r, why, NULL);
		tp_con_emit(con);
		return;
	}
	tp_rec_str(r, "via", "PSCI CPU_ON");
	tp_rec_str(r, "conduit", m->hvc ? "hvc" : "smc");
	tp_rec_uint(r, "processors", m->cpus);
	tp_mp_count_keys(r, m->measured, m->failed, m->disabled, m->over_cap);
	tp_rec_uint(r, "aps_not_off", m->not_off);
	tp_rec_uint(r, "max_aps", m->max_aps);
	tp_rec_uint(r, "cntfrq_hz", m->cntfrq);
	tp_rec_uint(r, "cntfrq_differs", m->cntfrq_differs);
	tp_con_emit(con);
}

/* The boot CPU: who it is, the PSCI it is offered. */
static void say_bsp(struct tp_console *con, const struct arm_mp *m, uint64_t version)
{
	struct tp_rec *r = tp_con_rec(con, "stub_tscsync");
	char t[16];
	struct tp_buf b;

	tp_buf_init(&b, t, sizeof(t));
	tp_buf_putu(&b, version >> 16);
	tp_buf_puts(&b, ".");
	tp_buf_putu(&b, version & 0xffff);
	tp_rec_str(r, "what", "bsp");
	tp_rec_uint(r, "mpidr", m->bsp);
	tp_con_hex(r, "midr", tp_midr());
	tp_rec_uint(r, "cntfrq_hz", m->cntfrq);
	tp_rec_uint(r, "current_el", tp_current_el());
	tp_rec_str(r, "psci_version", t);
	tp_con_emit(con);
}

void tp_mp_tscsync(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint64_t tsc_hz,
		   struct tp_mp_report *rep)
{
	static struct tp_ap_cpus c;
	struct arm_mp m = { .cntfrq = tp_cntfrq(), .bsp = tp_cpu_id() };
	const char *why;
	int64_t version;

	*rep = (struct tp_mp_report){ 0 };
	m.ticks_per_ms = (tsc_hz ? tsc_hz : m.cntfrq ? m.cntfrq : 1000000000ull) / 1000;
	if ((why = tp_ap_find(st, &c)) != NULL) {
		tp_con_msg(con, "no pre-OS counter offsets: cannot start the other CPUs");
		say_summary(con, why, &m);
		return;
	}
	m.hvc = c.conduit.hvc;
	m.cpus = c.total;
	version = tp_psci_call(m.hvc, PSCI_VERSION, 0, 0, 0);
	say_bsp(con, &m, (uint64_t)version);
	rep->bsp_id = m.bsp;
	tp_mp_announce(con, m.cpus ? m.cpus - 1 : 0);
	each_ap(con, &m, c.cpu, c.n);
	say_summary(con, NULL, &m);
	rep->cpus = m.cpus;
	rep->measured = 1;
}
