// SPDX-License-Identifier: MIT
/* The identity schema; see schema.h. The table is the contract: change it with the probe. */
#include <fnmatch.h>
#include <string.h>

#include "schema.h"
#include "util.h"

struct schema_row {
	const char *type;	/* record type, fnmatch() pattern; "*": every record */
	const char *probe;	/* NULL: any probe, or none */
	const char *key;	/* fnmatch() pattern */
	enum key_class cls;
	const char *why;
};

#define F KEY_FIGURE
#define I KEY_ID
#define C KEY_CONTEXT

/*
 * Identity keys are the parameters a user or the probe chose (path, clock,
 * clocksource swept, timer, load, period, thread count, placement, the CPU
 * of a per-CPU measurement). Context is what the run found or happened to
 * use (the CPU it ran on, the clock's last reading, a chosen calibration),
 * counts of how much was sampled and nested data for plots.
 */
static const struct schema_row schema[] = {
	{ "*", NULL, "type", KEY_FRAME, "the record type" },
	{ "*", NULL, "iteration", KEY_FRAME, "which repetition (--repeat): iterations combine" },
	{ "*", NULL, "probe", I, "the probe" },
	{ "*", NULL, "name", I, "what was measured, as a person writes it" },

	{ "result", "clocks", "clocksource", I, "the clocksource the reads went through (sweep)" },
	{ "result", "clocks", "path", I, "vdso, syscall, libc, insn, tsc-user; hpet-mmio, pmtimer-port, pit-latch" },
	{ "result", "clocks", "clock_id", I, "the clockid_t read" },
	{ "result", "clocks", "ns_per_call*", F, "cost of one read: median, min, p99, mean" },
	{ "result", "clocks", "ticks_per_call", F, "cost of one read in TSC ticks" },
	{ "result", "clocks", "overhead_ns_per_call", F, "loop overhead, reported, not subtracted" },
	{ "result", "clocks", "kernel_entries_per_call", F, "0 through the vDSO" },
	{ "result", "clocks", "resolution_ns", F, "clock_getres()" },
	{ "result", "clocks", "granularity_*", F, "smallest step seen" },
	{ "result", "clocks", "backward_steps", F, "reads that went back" },
	{ "result", "clocks", "largest_backward_ns", F, "largest step back" },
	{ "result", "clocks", "step_reads", F, "reads to see the granularity" },
	{ "result", "clocks", "step_window_ns", F, "time to see the granularity" },
	{ "result", "clocks", "user_us", C, "CPU time in user space over the whole measurement (its length is chosen by time, so not compared)" },
	{ "result", "clocks", "sys_us", C, "CPU time in the kernel over the whole measurement (not compared, as user_us)" },
	{ "result", "clocks", "vol_ctxsw", C, "voluntary context switches over the whole measurement" },
	{ "result", "clocks", "invol_ctxsw", C, "involuntary context switches over the whole measurement" },
	{ "result", "clocks", "batches", C, "batches timed (as many as fit the time)" },
	{ "result", "clocks", "elapsed_ms", F, "every batch together (seed 001's Elapsed)" },
	{ "result", "clocks", "batch_ns", F, "length of one batch" },
	{ "result", "clocks", "timer_share_pct", F, "share of a batch spent reading the timer" },
	{ "result", "clocks", "timer_ns", F, "cost of the batch timer" },
	{ "result", "clocks", "tsc_hz", F, "TSC frequency used" },
	{ "result", "clocks", "mult", F, "the user-space TSC clock's multiplier" },
	{ "result", "clocks", "shift", F, "the user-space TSC clock's shift" },
	{ "result", "clocks", "sources_measured", F, "clocks read" },
	{ "result", "clocks", "sources_skipped", F, "clocks skipped" },
	{ "result", "clocks", "calls_per_batch", C, "chosen to fill a batch" },
	{ "result", "clocks", "n", C, "batch means behind the median and p99" },
	{ "result", "clocks", "calib_*", C, "the user-space calibration's rounds and spread" },
	{ "result", "clocks", "last_value", C, "the clock's reading at the end: differs every run" },
	{ "result", "clocks", "last_value_unit", C, "its unit when not seconds" },
	{ "result", "clocks", "cpu", C, "the CPU the process ran on" },
	{ "result", "clocks", "vdso", C, "whether the read stayed in user space" },
	{ "result", "clocks", "vdso_check*", C, "how that was found out" },
	{ "result", "clocks", "timer", C, "what timed the batches" },
	{ "result", "clocks", "calibration*", C, "where the TSC frequency came from" },
	{ "result", "clocks", "clocksource_at_end", C, "clocksource after the run" },
	{ "result", "clocks", "profile", C, "quick or full" },
	{ "result", "clocks", "original", C, "clocksource before the sweep" },
	{ "result", "clocks", "clocksources", C, "the sweep's list" },
	{ "result", "clocks", "restored", C, "the original clocksource is back" },
	{ "result", "clocks", "note", C, "free text" },
	{ "result", "clocks", "counter", C, "platform counter paths: the counter read (hpet, pmtimer, pit)" },
	{ "result", "clocks", "via", C, "how the counter was reached (mmap /dev/hpet, the port)" },
	{ "result", "clocks", "backs_clocksource", C, "the clocksource the kernel builds on the counter" },
	{ "result", "clocks", "counter_hz", C, "the counter's nominal rate" },
	{ "result", "clocks", "counter_bits", C, "the counter's width" },

	{ "result", "itimer", "timer", I, "ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF" },
	{ "result", "itimer", "load", I, "CPU-burning processes in the background" },
	{ "result", "itimer", "requested_us", I, "the interval asked for" },
	{ "result", "itimer", "claimed_us", F, "the interval getitimer() gave back" },
	{ "result", "itimer", "actual_us", F, "CPU time per signal, the seed's actual (older records: ITIMER_REAL in wall time)" },
	{ "result", "itimer", "accuracy_pct", F, "actual / claimed" },
	{ "result", "itimer", "wall_us_per_signal", F, "wall time per signal (CLOCK_MONOTONIC)" },
	{ "result", "itimer", "wall_accuracy_pct", F, "wall time per signal / claimed" },
	{ "result", "itimer", "cpu_span_ns", C, "CPU time from the first signal to the last" },
	{ "result", "itimer", "wall_span_ns", C, "wall time from the first signal to the last" },
	{ "result", "itimer", "min_us", F, "shortest interval" },
	{ "result", "itimer", "max_us", F, "longest interval" },
	{ "result", "itimer", "stddev_us", F, "spread of the intervals" },
	{ "result", "itimer", "signals", F, "signals received" },
	{ "result", "itimer", "wall_s", F, "time the measurement took" },
	{ "result", "itimer", "cpu_us_per_signal", F, "older records, ITIMER_REAL: CPU time per signal (now actual_us)" },
	{ "result", "itimer", "cpu_accuracy_pct", F, "older records, ITIMER_REAL: CPU time per signal / claimed" },
	{ "result", "itimer", "involuntary_switches", F, "ITIMER_REAL: times the probe lost the CPU" },
	{ "result", "itimer", "cpu_slice_us", F, "ITIMER_REAL: mean CPU time per slice" },
	{ "result", "itimer", "model_cpu_us_per_signal", F, "ITIMER_REAL: the model's CPU time per signal" },
	{ "result", "itimer", "actual_clock", C, "the clock of actual_us (older records: of the intervals)" },
	{ "result", "itimer", "interval_clock", C, "the clock of min_us, max_us and stddev_us: the one the timer counts" },

	{ "result", "noise", "cpu", I, "the CPU measured (one result per CPU)" },
	{ "result", "noise", "threshold_ns", I, "a gap at least this long is an interruption" },
	{ "result", "noise", "duration_ms", F, "time measured" },
	{ "result", "noise", "interruptions", F, "gaps over the threshold" },
	{ "result", "noise", "per_s", F, "interruptions per second" },
	{ "result", "noise", "stolen_pct", F, "share of the time lost to gaps" },
	{ "result", "noise", "*_gap_ns", F, "longest and percentile gaps" },
	{ "result", "noise", "loop_ns", F, "one turn of the reading loop" },
	{ "result", "noise", "preemptions", F, "involuntary context switches" },
	{ "result", "noise", "gaps_kept", F, "gaps kept for the percentiles" },
	{ "result", "noise", "gaps_dropped", F, "gaps beyond the buffer" },
	{ "result", "noise", "tsc_backwards", F, "TSC reads that went back" },
	{ "result", "noise", "tsc_hz", F, "TSC frequency used" },
	{ "result", "noise", "[0-9]*", F, "an interrupt's count, named as in /proc/interrupts" },
	{ "result", "noise", "[A-Z]*", F, "an interrupt's or softirq's count" },
	{ "result", "noise", "softirq:*", F, "a softirq's count whose name an interrupt has too" },
	{ "result", "noise", "smis", F, "SMIs on every online CPU in the window (MSR_SMI_COUNT)" },
	{ "result", "noise", "smi_cpus*", C, "CPUs whose SMI count was read, and whether that changed" },
	{ "result", "noise", "calibration", C, "where the TSC frequency came from" },
	{ "result", "noise", "ref", C, "the calibration's reference" },
	{ "result", "noise", "calib_*", C, "the user-space calibration's rounds and spread" },
	{ "result", "noise", "n", C, "gaps behind the percentiles" },
	{ "result", "noise", "gaps", C, "histogram of the gaps (nested)" },
	{ "result", "noise", "per_cpu", C, "interrupt counts per CPU (nested)" },
	{ "result", "noise", "interrupts*", C, "interrupt counts (nested)" },
	{ "result", "noise", "softirqs*", C, "softirq counts (nested)" },
	{ "result", "noise", "truncated", C, "counts left out to fit the record" },

	{ "result", "switch", "mechanism", I, "pipe or futex" },
	{ "result", "switch", "peer", I, "process or thread" },
	{ "result", "switch", "placement", I, "same-cpu or cross-cpu" },
	{ "result", "switch", "round_trips*", F, "round trips timed" },
	{ "result", "switch", "us_per_round_trip*", F, "cost of a round trip: mean, min, max, stddev" },
	{ "result", "switch", "switches_per_round_trip", F, "context switches a round trip needs" },
	{ "result", "switch", "ns_per_switch", F, "same CPU: cost of one switch" },
	{ "result", "switch", "ns_per_handoff", F, "two CPUs: half a round trip (IPI, idle exit, wake-up)" },
	{ "result", "switch", "vol_ctxsw*", F, "voluntary context switches" },
	{ "result", "switch", "invol_ctxsw", F, "involuntary context switches" },
	{ "result", "switch", "ctxsw_round_trips", F, "round trips the counts cover" },
	{ "result", "switch", "ctxsw_per_round_trip", F, "switches counted per round trip" },
	{ "result", "switch", "cpu_main", C, "the CPU the main side ran on" },
	{ "result", "switch", "cpu_peer", C, "the CPU the peer ran on" },
	{ "result", "switch", "reps", C, "repetitions" },
	{ "result", "switch", "ctxsw_source", C, "where the counts came from" },

	{ "result", "tsc", "cpu_a", I, "first CPU of the pair" },
	{ "result", "tsc", "cpu_b", I, "second CPU of the pair" },
	{ "result", "tsc", "*_hz", F, "TSC frequency by each source" },
	{ "result", "tsc", "*_ppm", F, "disagreement between sources" },
	{ "result", "tsc", "tsc_early_khz", F, "the stub's tsc_early_khz=" },
	{ "result", "tsc", "cpuid1[56]_*", F, "CPUID's nominal frequency" },
	{ "result", "tsc", "hv_tsc_khz", F, "the hypervisor's TSC frequency" },
	{ "result", "tsc", "iterations", F, "handoffs tried" },
	{ "result", "tsc", "handoffs", F, "handoffs between the CPUs" },
	{ "result", "tsc", "*warps", F, "reads that went back across CPUs" },
	{ "result", "tsc", "max_warp_*", F, "largest step back" },
	{ "result", "tsc", "boot_warp_ticks", F, "offset found at boot" },
	{ "result", "tsc", "duration_ms", F, "time measured" },
	{ "result", "tsc", "pairs*", F, "CPU pairs tried, with warps" },
	{ "result", "tsc", "messages_dropped", F, "kernel messages left out" },
	{ "result", "tsc", "cpus", C, "CPUs online" },
	{ "result", "tsc", "log", C, "where kernel messages came from" },
	{ "result", "tsc", "messages", C, "the kernel's TSC messages" },
	{ "result", "tsc", "unstable*", C, "the kernel marked the TSC unstable, and why" },
	{ "result", "tsc", "kernel_ref", C, "the kernel's reference" },
	{ "result", "tsc", "*_is_early", C, "the kernel took tsc_early_khz=" },
	{ "result", "tsc", "detail", C, "free text" },
	{ "result", "tsc", "by_construction", C, "pairs whose figures share an origin" },
	{ "result", "tsc", "constant_tsc", C, "CPU flag" },
	{ "result", "tsc", "nonstop_tsc", C, "CPU flag" },
	{ "result", "tsc", "tsc_known_freq", C, "CPU flag" },
	{ "result", "tsc", "tsc_reliable", C, "CPU flag" },
	{ "result", "tsc", "rdtscp", C, "CPU flag" },
	{ "result", "tsc", "tsc_deadline_timer", C, "CPU flag" },
	{ "result", "tsc", "invariant", C, "invariant TSC (CPUID 0x80000007)" },
	{ "result", "tsc", "hypervisor", C, "the hypervisor's signature" },
	{ "result", "tsc", "clocksource", C, "the kernel's clocksource" },
	{ "result", "tsc", "available_clocksources", C, "the kernel's choice" },

	{ "result", "tscsync", "when", I, "pre-os (the stub, through the firmware's MP services) or post-boot" },
	{ "result", "tscsync", "cpu_a", I, "the CPU that calls (A)" },
	{ "result", "tscsync", "cpu_b", I, "the CPU that answers (B)" },
	{ "result", "tscsync", "offset_*", F, "TSC_B - TSC_A, middle of the proven interval" },
	{ "result", "tscsync", "bound_*", F, "half-width of the interval" },
	{ "result", "tscsync", "round_trip_*", F, "tightest round trip" },
	{ "result", "tscsync", "samples", F, "round trips counted" },
	{ "result", "tscsync", "rejected", F, "round trips where A's TSC went back" },
	{ "result", "tscsync", "consistent", C, "the round trips' intervals intersect" },
	{ "result", "tscsync", "excludes_zero", C, "an offset is proven" },
	{ "result", "tscsync", "cpus", C, "CPUs online" },
	{ "result", "tscsync", "cpus_measured", C, "CPUs in the matrix" },
	{ "result", "tscsync", "sampled", C, "more CPUs than the matrix holds" },
	{ "result", "tscsync", "pairs", F, "ordered pairs measured" },
	{ "result", "tscsync", "max_abs_offset_ns", F, "largest |offset| of the pairs" },
	{ "result", "tscsync", "max_abs_offset_cpu_*", C, "the pair it came from" },
	{ "result", "tscsync", "max_bound_ns", F, "widest bound of the pairs" },
	{ "result", "tscsync", "pairs_excluding_zero", F, "pairs with a proven offset" },
	{ "result", "tscsync", "any_excludes_zero", C, "some pair has a proven offset" },
	{ "result", "tscsync", "pairs_inconsistent", F, "pairs whose intervals did not intersect" },
	{ "result", "tscsync", "reverse_disagreements", F, "pairs whose two directions contradict" },
	{ "result", "tscsync", "tsc_hz", F, "TSC frequency used for ns" },
	{ "result", "tscsync", "tsc_hz_source", C, "whose figure: stub or user" },
	{ "result", "tscsync", "apic_*", C, "the APIC IDs the stub named the pair by" },
	{ "result", "tscsync", "cpu", I, "the CPU whose IA32_TSC_ADJUST this is" },
	{ "result", "tscsync", "apic", C, "its APIC ID" },
	{ "result", "tscsync", "tsc_adjust", F, "IA32_TSC_ADJUST (MSR 0x3b), signed ticks" },
	{ "result", "tscsync", "tsc_adjust_changed", F, "CPUs whose IA32_TSC_ADJUST moved between the stub and now" },
	{ "result", "tscsync", "preos_pairs*", F, "the stub's pairs, and those that prove an offset" },
	{ "result", "tscsync", "preos_max_abs_offset_ns", F, "largest |offset| of the stub's pairs" },
	{ "skip", "tscsync", "when", I, "pre-os or post-boot, as in its result" },

	{ "result", "drift", "ref", I, "the reference counter" },
	{ "result", "drift", "tau_s", I, "the Allan deviation's averaging time" },
	{ "result", "drift", "counter", I, "the counter whose read cost this is" },
	{ "result", "drift", "via", C, "how the counter was reached" },
	{ "result", "drift", "*_hz", F, "the reference's nominal rate, the TSC's against it, the stub's" },
	{ "result", "drift", "tsc_hz_source", C, "whose figure freq_ppm is against" },
	{ "result", "drift", "counter_bits", C, "the counter's width" },
	{ "result", "drift", "freq_ppm", F, "TSC rate against the stub's figure" },
	{ "result", "drift", "trend_ppm_per_min", F, "slope of the windows' rates" },
	{ "result", "drift", "window_ppm_*", F, "slowest and fastest window" },
	{ "result", "drift", "windows", C, "windows behind the trend" },
	{ "result", "drift", "window_s", C, "length of a window" },
	{ "result", "drift", "duration_s", F, "time sampled" },
	{ "result", "drift", "samples", C, "samples taken" },
	{ "result", "drift", "missed", F, "wake-ups a whole period late" },
	{ "result", "drift", "tau0_s", C, "the sampling period" },
	{ "result", "drift", "bracket_*_ns", F, "width of the TSC brackets around the reads" },
	{ "result", "drift", "m", C, "tau in sampling periods" },
	{ "result", "drift", "adev", F, "overlapping Allan deviation" },
	{ "result", "drift", "n", C, "second differences behind it" },
	{ "result", "drift", "reads", C, "reads timed" },
	{ "result", "drift", "ticks_per_read", F, "cost of one read in TSC ticks" },
	{ "result", "drift", "*ns_per_read", F, "cost of one read: median, min, max" },
	{ "result", "drift", "loop_overhead_ns", F, "cost of the empty loop, not subtracted" },

	{ "result", "wakeup", "mechanism", I, "the call that sleeps" },
	{ "result", "wakeup", "period_us", I, "the interval asked for" },
	{ "result", "wakeup", "clock", I, "the clock slept on" },
	{ "result", "wakeup", "priority", I, "SCHED_FIFO priority in effect (0: none)" },
	{ "result", "wakeup", "priority_requested", I, "the priority asked for" },
	{ "result", "wakeup", "cpu", I, "the CPU it was pinned to (-1: none)" },
	{ "result", "wakeup", "latency_from", C, "deadline or call+interval" },
	{ "result", "wakeup", "*_ns", F, "latency: min, avg, percentiles, max; timer slack" },
	{ "result", "wakeup", "overruns", F, "periods missed" },
	{ "result", "wakeup", "samples", C, "wake-ups measured" },
	{ "result", "wakeup", "n", C, "wake-ups behind the percentiles" },
	{ "result", "wakeup", "stopped_early", C, "the time limit cut the run" },
	{ "result", "wakeup", "mlockall", C, "memory locked" },
	{ "result", "wakeup", "*_error", C, "why a setting could not be made" },
	{ "result", "wakeup", "hist", C, "latency histogram (nested)" },

	{ "result", "yield", "threads", I, "threads yielding" },
	{ "result", "yield", "total_per_s", F, "yields per second, all threads" },
	{ "result", "yield", "avg_per_thread_per_s", F, "yields per second per thread" },
	{ "result", "yield", "zero_work_threads", F, "threads that counted no call in the common window" },
	{ "result", "yield", "late_threads", F, "threads not yet running when the window opened" },
	{ "result", "yield", "normalized_variance", F, "spread between threads" },
	{ "result", "yield", "ns_per_yield", F, "cost of one yield" },
	{ "result", "yield", "total_yields", F, "yields counted" },
	{ "result", "yield", "vol_ctxsw", F, "voluntary context switches" },
	{ "result", "yield", "invol_ctxsw", F, "involuntary context switches" },
	{ "result", "yield", "duration_ms", F, "time measured" },
	{ "result", "yield", "start_spread_ms", F, "how far apart the threads started" },
	{ "result", "yield", "requested_ms", C, "time asked for" },

	{ "calib", NULL, "source", I, "stub, kernel or user" },
	{ "calib", NULL, "ref", I, "the reference clock" },
	{ "calib", NULL, "*_hz", F, "frequencies: TSC, reference, crystal" },
	{ "calib", NULL, "*_ppm", F, "spread and outlier limit" },
	{ "calib", NULL, "rejected", F, "rounds rejected" },
	{ "calib", NULL, "retried", F, "rounds retried" },
	{ "calib", NULL, "failed_rounds", F, "user rounds without a figure, left out" },
	{ "calib", NULL, "derived_from", C, "the figure or source it was taken from" },
	{ "calib", NULL, "independent_of", C, "the figures of another origin" },
	{ "calib", NULL, "duration_us", F, "time calibrating" },
	{ "calib", NULL, "log_us", F, "kernel log time of the message" },
	{ "calib", NULL, "base_mhz", F, "CPUID 0x16 base frequency" },
	{ "calib", NULL, "numerator", F, "CPUID 0x15 EBX" },
	{ "calib", NULL, "denominator", F, "CPUID 0x15 EAX" },
	{ "calib", NULL, "period_fs", F, "HPET period" },
	{ "calib", NULL, "rounds", C, "rounds asked for" },
	{ "calib", NULL, "*window_ms", C, "length of one round" },
	{ "calib", NULL, "round_ms", C, "length of one round" },
	{ "calib", NULL, "latch", C, "PIT count" },
	{ "calib", NULL, "bits", C, "PM timer width" },
	{ "calib", NULL, "space", C, "PM timer address space" },
	{ "calib", NULL, "*", C, "what the reference is and whether it worked" },

	{ "calib_summary", NULL, "source", I, "stub" },
	{ "calib_summary", NULL, "tsc_hz", F, "the chosen frequency" },
	{ "calib_summary", NULL, "*_ppm", F, "disagreement between hardware references" },
	{ "calib_summary", NULL, "hardware_refs", F, "hardware references that worked" },
	{ "calib_summary", NULL, "*", C, "the choice and how it was made" },

	{ "skip", "clocks", "path", I, "as in its result" },
	{ "result", "vdso-check", "symbol", I, "the vDSO symbol called" },
	{ "result", "vdso-check", "clock_id", I, "the clockid_t read" },
	{ "result", "vdso-check", "clocksource", C, "the kernel's clocksource during the check" },
	{ "result", "vdso-check", "path", C, "what the check found: vdso or syscall" },
	{ "result", "vdso-check", "status", C, "ok, or why the clock could not be checked" },
	{ "result", "vdso-check", "kernel_entries", F, "time system calls seen under ptrace" },
	{ "skip", "clocks", "clocksource", I, "as in its result" },
	{ "skip", "clocks", "clock_id", I, "as in its result" },
	{ "error", "clocks", "clocksource", I, "as in its result" },
	{ "skip", NULL, "*", C, "the reason and the error" },
	{ "error", NULL, "option", I, "a bad option's name" },
	{ "error", NULL, "*", C, "the reason, signal, exit status, limits" },

	{ "run", NULL, "*", C, "where and how the suite ran: the header of a run" },
	{ "attribution", NULL, "for_probe", I, "the probe it was measured around" },
	{ "attribution", NULL, "ran_ms", F, "the window the counts cover (report: their rates)" },
	{ "attribution", NULL, "irq:*", F, "interrupts from one source while the probe ran (/proc/interrupts)" },
	{ "attribution", NULL, "softirq:*", F, "softirqs of one kind while the probe ran (/proc/softirqs)" },
	{ "attribution", NULL, "context_switches", F, "context switches of the whole machine (/proc/stat ctxt)" },
	{ "attribution", NULL, "smis", F, "SMIs on every online CPU (MSR_SMI_COUNT); null: missing says why" },
	{ "attribution", NULL, "*", C, "the window, the CPUs read, what is missing and why" },
	{ "fingerprint", NULL, "*", C, "what the machine is: CPU, hypervisor, TSC, clocks, firmware, kernel; missing says why a field is null" },
	{ "end", NULL, "*", C, "probe counts and records written" },
	{ "stub*", NULL, "*", C, "what the firmware stub found and did" },
};

#undef F
#undef I
#undef C

/*
 * Figures that are two halves of an interval each iteration proves (centre
 * ± half-width): the iterations of --repeat combine by intersecting the
 * intervals, not by averaging them (schema.h, enum combine). Patterns are
 * "prefix*", and the '*' of one stands for the '*' of the other:
 * offset_ns goes with bound_ns, offset_ticks with bound_ticks.
 */
static const struct interval_rule {
	const char *type, *probe;
	const char *centre, *half;
	const char *why;
} intervals[] = {
	{ "result", "tscsync", "offset_*", "bound_*",
	  "each iteration's interval holds TSC_B - TSC_A if it is constant" },
};

/* Lookups are cached: a capture has thousands of records with the same few keys. */
#define CACHE_MAX 8192
static json_t *cache;

static int row_matches(const struct schema_row *r, const char *type, const char *probe,
		       const char *key, int want_probe)
{
	if (want_probe ? !r->probe || !probe || strcmp(r->probe, probe) : r->probe != NULL)
		return 0;
	return !fnmatch(r->type, type, 0) && !fnmatch(r->key, key, 0);
}

/* The row that classifies key, or NULL. */
static const struct schema_row *lookup(const char *type, const char *probe, const char *key)
{
	/* the probe's own rows first, then the type's, then every record's */
	for (int want_probe = 1; want_probe >= 0; want_probe--)
		for (size_t i = 0; i < ARRAY_SIZE(schema); i++)
			if (row_matches(&schema[i], type, probe, key, want_probe))
				return &schema[i];
	return NULL;
}

static const struct schema_row *cached_lookup(const char *type, const char *probe,
					      const char *key)
{
	char *ck = xasprintf("%s\x1f%s\x1f%s", type, probe ? probe : "", key);
	const struct schema_row *row;
	json_t *hit;

	if (!cache)
		cache = json_object();
	hit = json_object_get(cache, ck);
	if (hit) {
		json_int_t i = json_integer_value(hit);

		row = i < 0 ? NULL : &schema[i];
	} else {
		row = lookup(type, probe, key);
		if (json_object_size(cache) >= CACHE_MAX)
			json_object_clear(cache);
		json_object_set_new(cache, ck, json_integer(row ? row - schema : -1));
	}
	free(ck);
	return row;
}

enum key_class schema_lookup(const char *type, const char *probe, const char *key)
{
	const struct schema_row *row = cached_lookup(type, probe, key);

	return row ? row->cls : KEY_UNKNOWN;
}

/* What the '*' of "prefix*" matched in key, or NULL if it does not match. */
static const char *star_match(const char *pat, const char *key)
{
	size_t pre = strcspn(pat, "*");

	if (strcmp(pat + pre, "*") || strncmp(pat, key, pre))
		return NULL;
	return key + pre;
}

/*
 * Signed differences: a TSC offset, a rate's deviation in ppm, its trend.
 * Near zero and of either sign, a ratio of two says nothing: the report
 * shows them side by side without a ratio and never ranks them.
 */
static const struct {
	const char *probe, *key;	/* fnmatch() patterns */
} signed_figures[] = {
	{ "tscsync", "offset_*" }, { "tscsync", "tsc_adjust" },
	{ "drift", "freq_ppm" }, { "drift", "trend_ppm_per_min" }, { "drift", "window_ppm_*" },
	{ "tsc", "*_vs_*_ppm" },
};

int schema_signed(const char *probe, const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(signed_figures); i++)
		if (probe && !fnmatch(signed_figures[i].probe, probe, 0) &&
		    !fnmatch(signed_figures[i].key, key, 0))
			return 1;
	return 0;
}

enum combine schema_combine(const char *type, const char *probe, const char *key, char *other,
			    size_t n)
{
	if (schema_lookup(type, probe, key) != KEY_FIGURE || !probe)
		return COMBINE_MEAN;
	for (size_t i = 0; i < ARRAY_SIZE(intervals); i++) {
		const struct interval_rule *r = &intervals[i];
		const char *c = star_match(r->centre, key), *h = star_match(r->half, key);
		const char *pat = c ? r->half : r->centre;
		int len;

		if (fnmatch(r->type, type, 0) || strcmp(r->probe, probe) || (!c && !h))
			continue;
		len = snprintf(other, n, "%.*s%s", (int)strcspn(pat, "*"), pat, c ? c : h);
		if (len < 0 || (size_t)len >= n || schema_lookup(type, probe, other) != KEY_FIGURE)
			return COMBINE_MEAN;
		return c ? COMBINE_CENTRE : COMBINE_HALF_WIDTH;
	}
	return COMBINE_MEAN;
}

enum key_class rec_key_class(const json_t *rec, const char *key, const json_t *val)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	enum key_class c = schema_lookup(type ? type : "", json_string_value(json_object_get(rec, "probe")),
					 key);

	if (c == KEY_UNKNOWN)
		c = json_is_number(val) ? KEY_FIGURE : KEY_CONTEXT;
	if (c == KEY_FIGURE && !json_is_number(val))
		c = KEY_CONTEXT;
	return c;
}

const char *key_class_name(enum key_class c)
{
	static const char *const names[] = {
		[KEY_UNKNOWN] = "unknown", [KEY_FRAME] = "frame", [KEY_ID] = "id",
		[KEY_FIGURE] = "figure", [KEY_CONTEXT] = "context",
	};

	return (size_t)c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

/* A table cell: the pattern in code quotes, '|' escaped for GFM. */
static void md_code(FILE *f, const char *s)
{
	fputc('`', f);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[2]){ *s, 0 }, f);
	fputc('`', f);
}

/* A row that is half of an interval says how its iterations combine. */
static void interval_note(FILE *f, const struct schema_row *row)
{
	for (size_t i = 0; i < ARRAY_SIZE(intervals); i++) {
		const struct interval_rule *r = &intervals[i];

		if (!row->probe || strcmp(row->type, r->type) || strcmp(row->probe, r->probe) ||
		    (strcmp(row->key, r->centre) && strcmp(row->key, r->half)))
			continue;
		fprintf(f, "; iterations combine as the intersection of ");
		md_code(f, r->centre);
		fputs(" ± ", f);
		md_code(f, r->half);
		fprintf(f, ": %s", r->why);
	}
}

void schema_print_markdown(FILE *f)
{
	fputs("| record | probe | key | class | what |\n|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(schema); i++) {
		const struct schema_row *r = &schema[i];

		fputs("| ", f);
		md_code(f, r->type);
		fputs(" | ", f);
		if (r->probe)
			md_code(f, r->probe);
		fputs(" | ", f);
		md_code(f, r->key);
		fprintf(f, " | %s | %s", key_class_name(r->cls), r->why);
		interval_note(f, r);
		fputs(" |\n", f);
	}
}

void schema_unknown_keys(const json_t *rec, json_t *unknown)
{
	const char *type = json_string_value(json_object_get(rec, "type"));
	const char *probe = json_string_value(json_object_get(rec, "probe"));
	const char *key;
	json_t *val;

	json_object_foreach((json_t *)rec, key, val) {
		char *k;
		json_t *n;

		if (schema_lookup(type ? type : "", probe, key) != KEY_UNKNOWN)
			continue;
		k = xasprintf("%s/%s/%s", type ? type : "?", probe ? probe : "-", key);
		n = json_object_get(unknown, k);
		json_object_set_new(unknown, k, json_integer(n ? json_integer_value(n) + 1 : 1));
		free(k);
	}
}

void schema_cache_free(void)
{
	json_decref(cache);
	cache = NULL;
}
