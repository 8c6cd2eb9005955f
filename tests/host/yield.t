#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe yield on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `yield`: the sweep gives one record per thread count with
# positive throughput, figures within the bounds their formulas allow, the seed's
# gnuplot columns are printed, and every record's CRC is valid. In rounds
# (the default, 5): each N's round records, requested_ms the round's share,
# then its run record (no "round") over all of them, which the checks below
# read: its window the rounds' windows summed, its yields theirs.
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import done, ok, run_probe, timing  # noqa: E402

ncpu = os.cpu_count() or 1

# 1. default quick sweep
p, recs, bad, human, _ = run_probe("yield")
allres = [r for r in recs if r.get("type") == "result" and r.get("probe") == "yield"]
res = [r for r in allres if "round" not in r]
rnd = [r for r in allres if "round" in r]
ok(p.returncode == 0, "timeprobe run exits 0", p.stdout[-2000:])
ok(not bad, "every record's CRC is valid", "\n".join(bad))
want = sorted({1, 2, ncpu, 10})
got = [r["threads"] for r in res]
ok(got == want, "quick sweep is %s, one record per N" % want, "got %s" % got)
ok(all(r["total_per_s"] > 0 and r["avg_per_thread_per_s"] > 0 for r in res),
   "every N has positive throughput", res)
ok(all(abs(r["avg_per_thread_per_s"] * r["threads"] - r["total_per_s"]) <= 1e-6 * r["total_per_s"]
       for r in res), "avg_per_thread_per_s = total_per_s / threads")
ok(all(r["ns_per_yield"] > 0 and r["total_yields"] > 0 for r in res), "ns_per_yield and total_yields positive")
nr = max([r["round"] for r in rnd] or [0])
ok(nr >= 2 and all(r["requested_ms"] == 200 // nr for r in rnd)
   and all(r["total_yields"] == sum(x["total_yields"] for x in rnd if x["threads"] == r["threads"])
           and abs(r["duration_ms"] - sum(x["duration_ms"] for x in rnd if x["threads"] == r["threads"])) < 0.01
           for r in res),
   "rounds: each asked 200 ms / %d; the run's yields and window are their sums" % nr,
   [(r["threads"], r.get("round"), r["total_yields"], r["duration_ms"]) for r in allres])
ok(all(r["duration_ms"] >= 200 and r["requested_ms"] == 200 for r in res),
   "quick: the common window closes at the 200 ms deadline or after",
   [(r["threads"], r["duration_ms"]) for r in res])
timing(all(r["duration_ms"] <= 2000 for r in res), "quick: ~200 ms per N",
       [(r["threads"], r["duration_ms"]) for r in res])
ok(all(0 <= r["late_threads"] <= r["threads"] and 0 <= r["zero_work_threads"] <= r["threads"]
       for r in res), "late_threads and zero_work_threads within 0..threads",
   [(r["threads"], r["late_threads"], r["zero_work_threads"]) for r in res])
ok(all(r["vol_ctxsw"] >= 0 and r["invol_ctxsw"] >= 0 for r in res), "context-switch counts present")
# sum((c - m)^2) / (N m^2) is largest, N - 1, when one thread has every call
ok(all(0 <= r["normalized_variance"] <= r["threads"] - 1 + 1e-9 for r in res),
   "normalized variance within [0, threads - 1]",
   [(r["threads"], r["normalized_variance"]) for r in res])
timing(all(r["normalized_variance"] < 1 for r in res), "normalized variance below 1",
       [(r["threads"], r["normalized_variance"]) for r in res])
# A starved thread scores 0 (the seed's semantics): on a loaded host that is
# a finding, not a failure.
two = [r for r in res if r["threads"] == 2]
timing(two and two[0]["zero_work_threads"] == 0, "2 threads: no thread starved",
       two and two[0]["zero_work_threads"])
# The main thread starts and stops the threads as SCHED_FIFO only from nice 0
# and where it may (a child of this test tries the same): the record says which.
may = os.nice(0) == 0 and subprocess.run(
    [sys.executable, "-c", "import os; os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))"],
    stderr=subprocess.DEVNULL).returncode == 0
want_policy = "SCHED_FIFO" if may else "SCHED_OTHER"
ok(all(r.get("creator_policy") == want_policy for r in res),
   "creator_policy is %s here (nice %d)" % (want_policy, os.nice(0)),
   [r.get("creator_policy") for r in res])
ok(any(re.match(r"\s+2\s+\d+\s+\d+\s+\d+\s+\d+\.\d+", h) for h in human),
   "human table has a line for 2 threads")

# 2. threads override, deduplicated and sorted; gnuplot columns
p, recs, bad, human, _ = run_probe("yield", "--yield-threads=3,1,3", "--yield-gnuplot=1")
res = [r for r in recs if r.get("type") == "result" and r.get("probe") == "yield" and "round" not in r]
ok(not bad, "override run: every record's CRC is valid", "\n".join(bad))
ok([r["threads"] for r in res] == [1, 3], "--yield-threads=3,1,3 runs 1 and 3",
   [r["threads"] for r in res])
gp = [h for h in human if re.fullmatch(r"\d+\t\t\d+\t\t\d+\t\t\d+\t\t\d+\.\d{6}", h)]
ok(len(gp) == 2 and gp[0].startswith("1\t\t") and gp[1].startswith("3\t\t"),
   "--yield-gnuplot prints the seed's columns, one line per N", "\n".join(human))
ok(all(int(g.split("\t\t")[1]) == int(r["total_per_s"]) for g, r in zip(gp, res)),
   "gnuplot total work/s matches the record")

done()
