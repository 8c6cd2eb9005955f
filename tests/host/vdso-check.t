#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Host test of probe `vdso-check`: every clock id and gettimeofday/time get a
# record with a path that agrees with its kernel_entries, the clocks the
# generic vDSO never serves (CPU time) are `syscall`, the coarse ones it
# always serves are `vdso`, and every record's CRC is valid (TAP).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("vdso-check")
ok(run.p.returncode == 0, "timeprobe run --probes=vdso-check exits 0", run.p.stdout[-2000:])
ok(not run.bad, "every record's CRC is valid", run.bad)
mine = [r for r in run.recs if r.get("probe") == "vdso-check"]
res = {r["name"]: r for r in mine if r["type"] == "result"}
skips = [r for r in mine if r["type"] == "skip"]
if not res and skips:
    ok(all(r.get("reason") for r in skips), "skipped, and says why", skips)
    done()
names = ["clock_gettime(CLOCK_%s)" % c for c in (
    "REALTIME", "MONOTONIC", "PROCESS_CPUTIME_ID", "THREAD_CPUTIME_ID", "MONOTONIC_RAW",
    "REALTIME_COARSE", "MONOTONIC_COARSE", "BOOTTIME", "REALTIME_ALARM", "BOOTTIME_ALARM",
    "TAI")] + ["gettimeofday()", "time()"]
ok(set(res) | {r.get("name") for r in skips} >= set(names), "a record for every entry",
   sorted(set(names) - set(res)))
ok(all(r["path"] == ("vdso" if r["kernel_entries"] == 0 else "syscall") and r["kernel_entries"] in (0, 1)
       for r in res.values()), "path and kernel_entries agree, 0 or 1 per call",
   [(k, r["path"], r["kernel_entries"]) for k, r in res.items()])
cpu = [res[n] for n in names[2:4] if n in res]
ok(cpu and all(r["path"] == "syscall" for r in cpu), "CPU-time clocks take the system call", cpu)
coarse = [res[n] for n in names[5:7] if n in res]
ok(coarse and all(r["path"] == "vdso" for r in coarse), "coarse clocks stay in the vDSO", coarse)
mono = res.get(names[1], {})
ok(mono.get("status") == "ok" and mono.get("clocksource"), "CLOCK_MONOTONIC read fine, clocksource named", mono)
diag("clocksource %s: CLOCK_MONOTONIC by %s" % (mono.get("clocksource"), mono.get("path")))
table = [l for l in run.human if l.startswith("  clock_gettime(")]
ok(len(table) == len([n for n in names if n.startswith("clock_gettime")]), "a human line per clock id", table)
done()
