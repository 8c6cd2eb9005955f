#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The arm64 appliance (make ARCH=arm64 image) on QEMU virt with AAVMF under
TCG, quick profile, the quick probes only: BOOTAA64.EFI calibrates the
generic timer's counter (calib records: CNTFRQ_EL0, Stall marked not
independent, the RTC's edges with their independence not known), starts the arm64 kernel,
and the suite runs to its end record; the x86-only probe tsc skips as such,
tscsync bounds the CNTVCT_EL0 offset of each ordered pair of the 2 CPUs (its
IA32_TSC_ADJUST part skips as x86 only) and the counter probe scans every
CPU. Timings are diagnostics only."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

# the probes that are quick under TCG, tscsync, and the x86-only tsc (it skips)
PROBES = "clocks,vdso-check,itimer,counter,tsc,tscsync"
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

# the suite: the x86-only probe skips, the others measure
skips = [r for r in suite if r.get("probe") == "tsc" and r["type"] == "skip"]
ok(skips and all(r.get("reason", "").startswith("x86 only") for r in skips), "tsc: skipped as x86 only", skips)
# tscsync: the counter's offsets between the CPUs, the stub's pre-OS pairs by MPIDR (or why not)
import probes  # noqa: E402
probes.check_tscsync(suite, text, "arm64")
for probe in ("clocks", "itimer"):
    ok(any(r.get("probe") == probe and r["type"] == "result" for r in suite),
       "%s: measured on arm64" % probe)
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
