#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The arm64 appliance (make ARCH=arm64 image) on QEMU virt with AAVMF under
TCG, quick profile, the quick probes only: BOOTAA64.EFI calibrates the
generic timer's counter (calib records: CNTFRQ_EL0, Stall marked not
independent, the RTC's edges with their independence not known), starts the arm64 kernel,
and the suite runs to its end record; the x86-only probe tsc skips as such,
tscsync bounds the CNTVCT_EL0 offset of each ordered pair of the 2 CPUs (its
IA32_TSC_ADJUST part skips as x86 only) and the counter probe scans every
CPU. The stub reaches the other CPU through PSCI CPU_ON, measures its
counter offset and CNTFRQ_EL0, sees it off again and hands the pair to the
suite, which lines it up by MPIDR. Timings are diagnostics only."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

# the probes that are quick under TCG, tscsync, and the x86-only tsc (it skips)
PROBES = "clocks,vdso-check,itimer,counter,tsc,tscsync,hwlat"
img = image_copy("arm64", "timeprobe.profile=quick timeprobe.probes=" + PROBES,
                 source=IMAGE_ARM64)
env = dict(os.environ, ARCH="arm64")
status, secs, text = boot(img, "virt", timeout=1500, env=env)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
ok("qemu-run: tcg, -cpu max, virt" in text, "arm64 boots under TCG, -cpu max, on virt",
   "\n".join(l for l in text.splitlines() if l.startswith("qemu-run: ")))
suite = check_suite(text, "arm64: ")
recs, _ = records(text)
end = suite[-1] if suite else {}
ok(end.get("probes_failed") == 0, "arm64: no probe failed",
   [r for r in suite if r["type"] == "error"])

# the stub's calibration of the counter
calib = {r.get("ref"): r for r in recs if r["type"] == "calib" and r.get("source") == "stub"}
cntfrq = calib.get("cntfrq", {})
ok(cntfrq.get("tsc_hz", 0) > 0, "stub: CNTFRQ_EL0 is read and not 0", cntfrq)
stall = calib.get("stall", {})
ok(stall.get("independent") is False and stall.get("why_not_independent"),
   "stub: Stall is marked not independent, with the reason", stall)
rtc = calib.get("rtc", {})
ok("independent" in rtc and rtc["independent"] is None and rtc.get("why") and
   (rtc.get("tsc_hz", 0) > 0 or rtc.get("reason")),
   "stub: the RTC's independence is not known (null, with why), and it is measured or says why not",
   rtc)
if rtc.get("tsc_hz"):
    ok("bound_ppm" in rtc and "vs_cntfrq_ppm" in rtc, "stub: the RTC's figure has its ppm and bound", rtc)
    diag("RTC edges: %s Hz, %s ppm vs CNTFRQ +/- %s ppm over %s s" % (
        rtc["tsc_hz"], rtc.get("vs_cntfrq_ppm"), rtc.get("bound_ppm"), rtc.get("window_s")))
gtdt = calib.get("gtdt", {})
ok(gtdt.get("independent") is False and gtdt.get("reason"),
   "stub: the GTDT's timers are listed as not independent, or the record says why not", gtdt)
x86 = [calib.get(k, {}) for k in ("hpet", "pmtimer", "pit", "cpuid15")]
ok(all(r.get("absent") and r.get("reason") == "x86 only" for r in x86),
   "stub: the x86 references are absent as x86 only", x86)
summary = next((r for r in recs if r["type"] == "calib_summary"), {})
ok(summary.get("counter") == "CNTVCT_EL0" and summary.get("chosen"),
   "stub: the summary names the counter and the reference chosen", summary)

boot = next((r for r in recs if r["type"] == "boot"), {})
ok(boot.get("clock") == "cntvct" and "reason" not in boot and boot.get("kernel_us", 0) > 0,
   "arm64: the boot timeline is counted on CNTVCT_EL0, from the stub's milestones to power-off", boot)

# the stub's per-CPU step: every CPU through PSCI CPU_ON, off again, handed over
sync = [r for r in recs if r["type"] == "stub_tscsync"]
bsp = next((r for r in sync if r.get("what") == "bsp"), {})
pairs = [r for r in sync if r.get("what") == "pair"]
summ = next((r for r in sync if r.get("what") == "summary"), {})
ok(summ.get("via") == "PSCI CPU_ON" and summ.get("processors") == 2 and
   summ.get("aps_measured") == 1 and summ.get("aps_not_off") == 0,
   "stub: the other CPU reached through PSCI CPU_ON, measured, and off again", summ)
ok(len(pairs) == 1 and pairs[0].get("off_again") is True and
   pairs[0].get("mpidr_a") == bsp.get("mpidr") and pairs[0].get("mpidr_b") != bsp.get("mpidr") and
   pairs[0].get("lo_ticks", 1) <= pairs[0].get("hi_ticks", 0) and pairs[0].get("samples", 0) >= 1 and
   pairs[0].get("hi_ticks", 0) - pairs[0].get("lo_ticks", 0) <= pairs[0].get("round_trip_ticks", -1),
   "stub: one pair record, boot CPU against the other, with an interval no wider than its round trip",
   pairs)
ok(pairs and pairs[0].get("cntfrq_hz") == cntfrq.get("tsc_hz") and pairs[0].get("cntfrq_same") is True,
   "stub: the other CPU's CNTFRQ_EL0 read there, the same as the boot CPU's", pairs)
ok(pairs and "tsc_preos" not in stub_values(recs) and stub_values(recs).get("tsc_hz"),
   "stub: the pair goes to PID 1 as its own record in the stub's file, no summary value beside it",
   stub_values(recs))
if pairs:
    diag("pre-OS CNTVCT_EL0 offset: %s .. %s ticks, tightest round trip %s ticks, %s round trips" % (
        pairs[0].get("lo_ticks"), pairs[0].get("hi_ticks"), pairs[0].get("round_trip_ticks"),
        pairs[0].get("samples")))

# the suite: the x86-only probe skips, the others measure
skips = [r for r in suite if r.get("probe") == "tsc" and r["type"] == "skip"]
ok(skips and all(r.get("reason", "").startswith("x86 only") for r in skips), "tsc: skipped as x86 only", skips)
# tscsync: the counter's offsets between the CPUs, the stub's pre-OS pairs by MPIDR (or why not)
import probes  # noqa: E402
probes.check_tscsync(suite, text, "arm64")
# the pre-OS latency scan: every CPU through PSCI CPU_ON at once, off again; figures arrive by MPIDR
probes.check_hwlat(suite, text, "arm64")
scan = next((r for r in recs if r["type"] == "stub_hwlat" and r.get("what") == "summary"), {})
ok(scan.get("scanned") is True and scan.get("finish_signalled") is True,
   "stub: the pre-OS scan ran and PSCI reports every CPU it started off again", scan)
for probe in ("clocks", "itimer"):
    ok(any(r.get("probe") == probe and r["type"] == "result" for r in suite),
       "%s: measured on arm64" % probe)
# the counter's own read cost, plain and ordered, in ns and ticks of the stub's figure
insn = {r.get("name"): r for r in suite if r.get("probe") == "clocks" and r.get("path") == "insn"}
ok(all(insn.get(n, {}).get("type") == "result" and insn[n].get("ns_per_call", 0) > 0
       for n in ("mrs cntvct_el0", "isb;mrs cntvct_el0")),
   "clocks: CNTVCT_EL0 read costs, plain and after an ISB", sorted(insn))
ok(insn.get("rdtscp", {}).get("type") == "skip" and insn["rdtscp"].get("reason") == "not an x86 CPU",
   "clocks: rdtscp skips as not an x86 CPU", insn.get("rdtscp"))
for n in ("mrs cntvct_el0", "isb;mrs cntvct_el0"):
    if insn.get(n, {}).get("type") == "result":
        diag("clocks: %s %.1f ns per read" % (n, insn[n]["ns_per_call"]))
# the vDSO's arm64 entry points (__kernel_*): found and called, no time() entry
vdso = {r.get("name"): r for r in suite if r.get("probe") == "vdso-check" and r["type"] in ("result", "skip")}
mono = vdso.get("clock_gettime(CLOCK_MONOTONIC)", {})
ok(mono.get("type") == "result" and mono.get("symbol") == "__kernel_clock_gettime" and
   mono.get("path") == "vdso" and mono.get("kernel_entries") == 0,
   "vdso-check: CLOCK_MONOTONIC through __kernel_clock_gettime stays in user space on the arch timer", mono)
cpu = vdso.get("clock_gettime(CLOCK_PROCESS_CPUTIME_ID)", {})
ok(cpu.get("type") == "result" and cpu.get("path") == "syscall",
   "vdso-check: the CPU-time clock falls back to the system call", cpu)
ok(vdso.get("time()", {}).get("type") == "skip" and "no such entry" in vdso["time()"].get("reason", ""),
   "vdso-check: time() is a skip: arm64's vDSO has no such entry", vdso.get("time()"))
# the counter's errata scan: every CPU, no signature on QEMU's counter
scans = [r for r in suite if r.get("probe") == "counter" and r["type"] == "result" and "cpu" in r]
cpus = (suite[0] if suite else {}).get("cpus")
ok(len(scans) == cpus and all(r.get("counter") == "cntvct" and r.get("pairs", 0) > 0 for r in scans),
   "counter: CNTVCT_EL0 scanned on each of the %s CPUs" % cpus, scans)
ok(scans and all(r.get("signatures") == 0 and r.get("backwards") == 0 for r in scans),
   "counter: no erratum signature under QEMU", scans)
ok(scans and all(r.get("cntfrq_hz") == cntfrq.get("tsc_hz") for r in scans),
   "counter: every CPU claims the CNTFRQ_EL0 the stub read", [r.get("cntfrq_hz") for r in scans])
run = suite[0] if suite else {}
diag("arm64 boot: %.0f s; clocksource %s" % (secs, run.get("clocksource")))
done()
