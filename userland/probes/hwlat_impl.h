/* SPDX-License-Identifier: MIT */
/*
 * Probe `hwlat`'s two files (docs/probes/hwlat.md): hwlat.c, the probe
 * (the stub's pre-OS scan per CPU beside the kernel's tracer), and
 * hwlat_trace.c, the kernel's hwlat tracer driven through tracefs, one CPU
 * at a time.
 */
#ifndef TP_PROBES_HWLAT_IMPL_H
#define TP_PROBES_HWLAT_IMPL_H

#include <stddef.h>
#include <stdint.h>

/* The tracer's defaults (Documentation/trace/hwlat_detector.rst): it spins width of each window. */
#define HWLAT_TRACE_WIDTH_US 500000
#define HWLAT_TRACE_WINDOW_US 1000000

struct hwlat_trace_cpu {
	uint64_t samples_n;	/* the tracer's events: sample windows with a gap above the threshold */
	uint64_t gaps_n;	/* their `count:` fields summed (gaps above the threshold) */
	uint64_t max_ns;	/* the largest inner or outer gap, us from the tracer */
	uint64_t nmi_n;		/* NMIs the tracer counted during its samples */
	int64_t ran_ms;
};

/*
 * tracefs ready with the hwlat tracer (mounted by us when PID 1 needs it):
 * 0, or -1 with why (a skip's reason: no tracefs, no hwlat tracer, no root).
 */
int hwlat_trace_open(int appliance, char *why, size_t len);

/* The tracer on CPU cpu alone for ms, threshold thresh_us: 0, or -1 with why. */
int hwlat_trace_cpu(int cpu, int ms, int thresh_us, struct hwlat_trace_cpu *out, char *why,
		    size_t len);

/* The tracer off, the CPU mask and threshold as they were. */
void hwlat_trace_close(void);

/*
 * One line of tracefs' `trace` (kernel/trace/trace_output.c,
 * trace_hwlat_print): "... #N inner/outer(us): I/O ts:S.N count:C
 * [nmi-total:T nmi-count:K]" into out (added to it). Returns 1 for an
 * event line, 0 for another line.
 */
int hwlat_trace_line(const char *line, struct hwlat_trace_cpu *out);

#endif
