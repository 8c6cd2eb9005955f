#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Host test of probe `drift` (3 s of sampling): CLOCK_MONOTONIC_RAW always
# measured, HPET and the PM timer measured or skipped with a reason, ADEV
# records with their tau and sample count at the taus the run allows, read
# costs, --drift-s= honoured and a bad value refused (TAP). The figures
# themselves are diagnostics.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, run_probe  # noqa: E402

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
cost = res.get("read cost CLOCK_MONOTONIC_RAW")
ok(cost and cost["ns_per_read"] > 0 and cost["reads"] > 0, "read cost of CLOCK_MONOTONIC_RAW", cost)
ok(all(r["counter"] in refs or r["counter"] == "pit" for r in res.values() if r["name"].startswith("read cost")),
   "read costs name their counter")
ok("read cost pit" in res or "read cost pit" in skips, "the PIT's read cost, or why not")

bad = run_probe("drift", "--drift-s=-5", timeout=60)
ok("--drift-s=-5: out of range 0..86400" in bad.p.stdout, "--drift-s=-5: one line naming it and the range",
   bad.p.stdout[-800:])
done()
