#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe hwlat on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `hwlat`: on a host no stub handed a pre-OS scan over, so
# that part is a skip that says so; the kernel's hwlat tracer runs where
# tracefs has it (root), else a skip that says why; the retired summary
# word --hwlat_preos= on the command line is refused as unknown (TAP).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("hwlat", "--hwlat-tracer-ms=1000")
ok(run.p.returncode == 0, "timeprobe run --probes=hwlat exits 0", run.p.stdout[-2000:])
ok(not run.bad, "every record's CRC is valid", run.bad)
mine = [r for r in run.recs if r.get("probe") == "hwlat"]
skips = {r["name"]: r for r in mine if r["type"] == "skip"}
ok("not booted by the timeprobe stub" in skips.get("pre-os", {}).get("reason", ""),
   "pre-OS: a skip that says no stub handed a scan over", skips.get("pre-os"))
traced = [r for r in mine if r["type"] == "result" and "tracer_max_ns" in r]
ok(traced or skips.get("tracer", {}).get("reason"), "the tracer's figures, or a skip that says why",
   skips.get("tracer"))
for r in traced:
    diag("%s: tracer %d gaps, max %d ns" % (r["name"], r["tracer_gaps_n"], r["tracer_max_ns"]))
forged = run_probe("hwlat", "--hwlat_preos=1000:1:0:0,0:1000000:1:5:5:x")
ok("unknown option" in forged.p.stdout and
   not [r for r in forged.recs if "preos_max_ns" in r],
   "the retired --hwlat_preos= is refused (the stub's scan comes only as its records) and not taken",
   forged.p.stdout[-1500:])
done()
