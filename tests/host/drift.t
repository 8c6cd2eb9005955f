#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe drift on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `drift` (3 s of sampling): CLOCK_MONOTONIC_RAW always
# measured, HPET and the PM timer measured or skipped with a reason, ADEV
# records with their tau and sample count at the taus the run allows, read
# costs, --drift-s= honoured and a bad value refused (TAP). Every rate names
# its reference and whether it is independent of the TSC: under clocksource
# tsc (or kvm-clock, the TSC scaled by the hypervisor's figure) the
# CLOCK_MONOTONIC_RAW figures say independent false and the console says
# circular. The figures themselves are diagnostics.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, run_probe, skip  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("drift", "--drift-s=3")
ok(run.p.returncode == 0, "timeprobe run --probes=drift --drift-s=3 exits 0", run.p.stdout[-2000:])
ok(not run.bad, "every record's CRC is valid", run.bad)
mine = [r for r in run.recs if r.get("probe") == "drift"]
res = {r["name"]: r for r in mine if r["type"] == "result"}
skips = {r["name"]: r for r in mine if r["type"] == "skip"}
raw = res.get("drift vs CLOCK_MONOTONIC_RAW")
ok(raw is not None, "the TSC against CLOCK_MONOTONIC_RAW, always", sorted(res))
refs = ["CLOCK_MONOTONIC_RAW", "hpet", "pmtimer"]
ok(all(("drift vs " + x in res) != ("drift vs " + x in skips) for x in refs),
   "each reference measured or skipped, not both", (sorted(res), sorted(skips)))
ok(all(r.get("reason") for r in skips.values()), "every skip says why", skips)
if raw:
    ok(290 <= raw["samples"] <= 301 and 2.5 < raw["duration_s"] < 3.5, "--drift-s=3: 3 s of 10 ms samples",
       (raw["samples"], raw["duration_s"]))
for ref in refs:
    fit = res.get("drift vs " + ref)
    if not fit:
        continue
    adev = sorted((r for r in res.values() if r["name"].startswith("adev %s " % ref)), key=lambda r: r["tau_s"])
    taus = [r["tau_s"] for r in adev]
    ok(taus == [0.1, 1], "%s: ADEV at tau 0.1 and 1 s (1 s is also a third of 3 s)" % ref, taus)
    ok(all(r["n"] == fit["samples"] - 2 * r["m"] and r["adev"] >= 0 for r in adev),
       "%s: each ADEV with n = samples - 2m terms" % ref, [(r["m"], r["n"]) for r in adev])
    ok(fit["tsc_hz"] > 0 and fit["windows"] >= 2, "%s: a TSC rate and windows for the trend" % ref, fit)
    diag("%s: %+.3f ppm, %+.3f ppm/min, ADEV %s" % (ref, fit["freq_ppm"], fit["trend_ppm_per_min"],
                                                    ", ".join("%gs %.2e" % (r["tau_s"], r["adev"]) for r in adev)))
CIRCULAR = "circular: CLOCK_MONOTONIC_RAW is derived from the TSC on this machine"
rates = [r for r in res.values() if "freq_ppm" in r or "kernel_ppm" in r or "adev" in r]
ok(rates and all(r.get("reference") and "independent" in r and r.get("why") for r in rates),
   "every rate and Allan deviation names its reference, whether it is independent, and why",
   [r["name"] for r in rates if "independent" not in r])
if raw and raw.get("clocksource") in ("tsc", "kvm-clock"):
    raw_all = [r for r in rates if r.get("ref") == "CLOCK_MONOTONIC_RAW"]
    ok(all(r["independent"] is False and r["why"].startswith(CIRCULAR) for r in raw_all),
       "clocksource %s: every CLOCK_MONOTONIC_RAW figure says independent false, circular" % raw["clocksource"],
       [(r["name"], r["independent"]) for r in raw_all])
    ok(any(l.strip().startswith(CIRCULAR) for l in run.human), "and the console says circular",
       run.human[-20:])
else:
    skip("CLOCK_MONOTONIC_RAW circular under clocksource tsc",
         "clocksource %s over the run, not tsc or kvm-clock" % (raw or {}).get("clocksource"))
    skip("the console says circular", "not a TSC clocksource")
kern = [r for r in res.values() if r["name"].endswith(" vs kernel")]
ok(kern or "drift vs kernel" in skips, "the TSC against the kernel's figure, or why not", sorted(skips))
for r in kern:
    ok(r["reference"] == "kernel" and r["kernel_hz"] > 0 and r["kernel_line"].startswith("tsc: "),
       "%s: the kernel's figure, its log line (%s) and how it was derived (%s)"
       % (r["name"], r.get("kernel_line"), r.get("kernel_hz_from")), r)
    diag("%s: %+.3f ppm (independent %s)" % (r["name"], r["kernel_ppm"], r["independent"]))
cost = res.get("read cost CLOCK_MONOTONIC_RAW")
ok(cost and cost["ns_per_read"] > 0 and cost["reads"] > 0, "read cost of CLOCK_MONOTONIC_RAW", cost)
ok(all(r["counter"] in refs or r["counter"] == "pit" for r in res.values() if r["name"].startswith("read cost")),
   "read costs name their counter")
ok("read cost pit" in res or "read cost pit" in skips, "the PIT's read cost, or why not")
mono = res.get("CLOCK_MONOTONIC vs CLOCK_MONOTONIC_RAW")
ok(mono and isinstance(mono.get("mono_raw_ppm"), (int, float)) and mono["mono_raw_bound_ppm"] >= 0
   and 2.5 <= mono["duration_s"] <= 30 and isinstance(mono.get("ntp_freq_ppm"), (int, float))
   and isinstance(mono.get("ntp_synced"), bool),
   "CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW over the run, with what adjtimex() says", mono)
if mono:
    diag("MONOTONIC vs RAW: %+.4f ppm (+/- %.4f); adjtimex freq %+.4f ppm, synced %s"
         % (mono["mono_raw_ppm"], mono["mono_raw_bound_ppm"], mono["ntp_freq_ppm"], mono["ntp_synced"]))

bad = run_probe("drift", "--drift-s=-5", timeout=60)
ok("--drift-s=-5: out of range 0..86400" in bad.p.stdout, "--drift-s=-5: one line naming it and the range",
   bad.p.stdout[-800:])
done()
