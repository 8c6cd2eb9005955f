/* SPDX-License-Identifier: MIT */
/*
 * The `tsc_readiness` record at the end of every run, before the verdict:
 * is `tsc=reliable` safe on this machine, the reasons (each figure, its
 * bound as its probe declares it, the record it came from, passed or not),
 * the kernel words to use, and the reference the vote finds off. Read from
 * the run's kept records (sink_saved(), through recread.c), as verdict.c
 * does; docs/readiness.md. Each fact and each reason is a declaration of
 * the probe that measures it (struct probe_fact, struct probe_reason,
 * probe.h): which figure of which record, the reason's bound and its
 * source; these files know no probe. Five files: readiness_facts.c reads
 * the records the declarations name, readiness.c votes and judges,
 * readiness_next.c says under what the run ran and, for an unknown
 * answer, what it lacked and what to do next, readiness_out.c writes the
 * record and the block; readiness_hidden.c reads
 * the stub's scan summary for hwlat's hidden_gaps. Tested by
 * tests/unit/test_readiness.c.
 */
#ifndef TP_READINESS_H
#define TP_READINESS_H

#include <stddef.h>

#include "../common/readiness.h"
#include "../common/record.h"
#include "../common/skew.h"
#include "../common/recdecl.h"

#define READINESS_REASONS 16
#define READINESS_CLOCKS 6
#define READINESS_TEXT 160
#define READINESS_NEXT 320

struct probe;
struct probe_reason;

/*
 * What a run's records say that the answer needs, each named here and
 * declared by the probe whose records say it (struct probe_fact). A
 * number (a yes/no reads as 1 or 0); RF_CLOCK_*: one reference's clock of
 * a vote (its name, the TSC's rate against it, its uncertainty);
 * RF_POSTBOOT_WHY: why a platform reference has no clock after boot.
 */
enum readiness_fact {
	RF_NONE,
	RF_INVARIANT,		/* the counter runs at one rate (CPUID's invariant bit) */
	RF_STUB_VS_KERNEL_PPM,	/* the stub's frequency against the kernel's */
	RF_STUB_HZ,		/* the stub's frequency */
	RF_CPUID15_HZ,		/* CPUID 0x15's */
	RF_WARPS,		/* CPU pairs where the counter went back */
	RF_CPUS,		/* CPUs of the run */
	RF_OFFSET_NS,		/* the largest |offset| between CPUs after boot */
	RF_BOUND_NS,		/* and the widest bound on it */
	RF_PREOS_OFFSET_NS,	/* the largest |offset| before the OS */
	RF_ADJUST_CHANGED,	/* CPUs whose IA32_TSC_ADJUST moved */
	RF_COUNTER_BAD,		/* reads that went back or bore an erratum's signature */
	RF_CLOCK_PREOS,		/* a reference the stub measured the TSC against */
	RF_CLOCK_POSTBOOT,	/* one measured after boot, with its independence */
	RF_POSTBOOT_WHY,	/* why one has none */
	RF_COUNT
};

struct readiness_reason {
	const struct rd_rule *rule;
	enum rd_pass pass;
	double value;
	char from[READINESS_TEXT];	/* the record it came from */
	char why[READINESS_TEXT];	/* not measured, or not held against the TSC: why */
	char reference[24];		/* a per-clock reason: its reference ("": none) */
	int independent;		/* ... and the record's answer: 1, 0, -1 (not known) */
};

/* One clock in a vote: its name and its own rate error in ppm, with its uncertainty. */
struct readiness_clock {
	char name[24];
	double tsc_hz;		/* the TSC's rate measured against it */
	double unc_ppm;
	int independent;	/* after boot: the record's answer, 1, 0, -1 (not known) */
	char why[READINESS_TEXT];	/* ... and its reason */
};

/* What the records say, before any judgement (NAN: absent). */
struct readiness_facts {
	double v[RF_COUNT];		/* the numbers */
	unsigned char one_origin[RF_COUNT];	/* the record says its two sides are one */
	struct readiness_clock pre[READINESS_CLOCKS], post[READINESS_CLOCKS];
	size_t npre, npost;
	char post_from[READINESS_CLOCKS][READINESS_TEXT];	/* each post clock's record */
	char post_why[READINESS_TEXT];	/* skips of the platform references after boot */
};

/* A reason's declaration and the probe that makes it (NULL: the record's own reasons). */
struct readiness_decl {
	const struct probe *probe;
	const struct probe_reason *d;
};

struct readiness {
	struct readiness_facts f;
	struct readiness_reason reason[READINESS_REASONS];
	size_t n;
	struct rd_vote_out vote_pre, vote_post;
	const char *pre_named;	/* the clock the vote before the OS named, NULL when none */
	const char *post_named;	/* the clock the vote after boot named, NULL when none */
	const char *wrong;	/* the named clock, NULL when none */
	double wrong_ppm;
	const char *wrong_when;	/* "pre-os" or "post-boot" */
	enum rd_answer answer;
	char kernel_args[48];
	int sockets;		/* -1: not known */
	struct tp_skew skew;	/* what timeprobe.inject= injected, ref "" when nothing */
	char emulated[16];	/* "tcg", "hypervisor" or "": as the verdict reads it */
	char emulated_by[64];	/* the accelerator or the hypervisor's signature */
	const struct rd_rule *missing[READINESS_REASONS];	/* unknown: the required rules it lacked */
	size_t nmissing;
	char next_step[READINESS_NEXT];	/* unknown: the one step that supplies them, "" else */
};

/* 1 when ref is one of the platform references (hpet, pmtimer, pit). */
int readiness_is_platform(const char *ref);

/* What the kept records recs[0..len) say, as probes[0..nprobes) declare it (readiness_facts.c). */
void readiness_read_facts(struct readiness_facts *f, const struct probe *const *probes,
			  size_t nprobes, const char *recs, size_t len);

/*
 * The reasons the probes of probes[0..nprobes) declare and the record's
 * own, in the record's order (their place): how many, or -1 when they are
 * more than max.
 */
int readiness_decls(const struct probe *const *probes, size_t nprobes,
		    struct readiness_decl *out, size_t max);

/*
 * hidden_gaps' figure, the hidden gaps of the stub's stub_hwlat summary
 * (readiness_hidden.c), with from (the reference and its chunks); NAN and
 * why when there is none (no stub, no scan, no reference: arm64). The
 * shape of struct probe_reason's read.
 */
double readiness_hidden(const char *recs, size_t len, char *from, size_t nfrom, char *why,
			size_t nwhy);

/* Reads the kept records recs[0..len) as probes declare them and judges; sockets and skew as
 * the caller found them. */
void readiness_gather(struct readiness *rd, const struct probe *const *probes, size_t nprobes,
		      const char *recs, size_t len, int sockets, const struct tp_skew *skew);

/* rd's emulated and emulated_by from the `run` and `fingerprint` records (readiness_next.c). */
void readiness_conditions(struct readiness *rd, const char *recs, size_t len);

/*
 * After the answer: when it is unknown, the required rules of d[0..nd)
 * with no measured figure (missing) and the one step that supplies them
 * (next_step: the probes that declare them, on the machine itself when
 * the run is a guest's or an emulator's). readiness_next.c.
 */
void readiness_next(struct readiness *rd, const struct readiness_decl *d, size_t nd);

void readiness_record(struct tp_rec *r, const struct readiness *rd);

/* Distinct physical_package_id values of the online CPUs (sysfs); -1 when none can be read. */
int readiness_sockets(void);

/* Gathers from the suite's kept records, prints the block and emits the record. */
void readiness_emit(const struct tp_skew *skew);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key readiness_rec_keys[];

#endif
