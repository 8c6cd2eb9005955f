#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Host test of probe `switch`: the same-CPU and cross-CPU variants all appear
# (or the cross-CPU ones skip with a reason when one CPU is available; checked
# for real by running under `taskset -c 0`), the figures are consistent, and
# every record's CRC is valid.
import json
import os
import shutil
import subprocess
import sys
import zlib

BIN = os.environ.get("TIMEPROBE", "build/timeprobe")
VARIANTS = ["pipe-process-same-cpu", "pipe-process-cross-cpu", "pipe-thread-same-cpu",
            "pipe-thread-cross-cpu", "futex-thread-same-cpu", "futex-thread-cross-cpu"]
n = 0
failed = 0


def ok(cond, name, diag=None):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, name))
    if not cond:
        failed += 1
        if diag:
            for line in str(diag).splitlines():
                print("#   " + line)
    return cond


def skip(name, why):
    global n
    n += 1
    print("ok %d - %s # SKIP %s" % (n, name, why))


def run(prefix=()):
    p = subprocess.run([*prefix, BIN, "run", "--probes=switch", "--profile=quick"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    recs, bad = [], []
    for line in p.stdout.splitlines():
        if not line.startswith("TP1 "):
            continue
        body, sep, crc = line[4:].rpartition(" *")
        if not sep or "%08x" % zlib.crc32(body.encode()) != crc:
            bad.append(line)
            continue
        recs.append(json.loads(body))
    return p, recs, bad


def check_results(res, label):
    good = all(r["round_trips"] > 0 and r["reps"] >= 3 and r["round_trips_per_rep"] >= 16
               and 0 < r["us_per_round_trip_min"] <= r["us_per_round_trip"] <= r["us_per_round_trip_max"]
               and r["us_per_round_trip_stddev"] >= 0
               and r["switches_per_round_trip"] == 2
               and abs(r["ns_per_switch"] - r["us_per_round_trip"] * 500) <= 1e-6 * r["ns_per_switch"]
               for r in res.values())
    ok(good, "%s: figures consistent (min <= median <= max, ns_per_switch = us/rt * 1000 / 2)" % label,
       json.dumps(list(res.values()), indent=1))
    # each side sleeps or is preempted about once per round trip
    ok(all(1.0 <= r["ctxsw_per_round_trip"] <= 3.0 for r in res.values()),
       "%s: getrusage sees 1..3 switches per round trip" % label,
       [(k, r["ctxsw_per_round_trip"]) for k, r in res.items()])
    ok(all(r["cpu_main"] == r["cpu_peer"] for k, r in res.items() if k.endswith("same-cpu"))
       and all(r["cpu_main"] != r["cpu_peer"] for k, r in res.items() if k.endswith("cross-cpu")),
       "%s: same-cpu on one CPU, cross-cpu on two" % label)


def by_name(recs, typ):
    return {r["name"]: r for r in recs if r.get("type") == typ and r.get("probe") == "switch"}


ncpu = len(os.sched_getaffinity(0))

# 1. as it comes
p, recs, bad = run()
ok(p.returncode == 0, "timeprobe run exits 0", p.stdout[-2000:])
ok(not bad, "every record's CRC is valid", "\n".join(bad))
res, sk = by_name(recs, "result"), by_name(recs, "skip")
ok(all(v in res for v in VARIANTS if v.endswith("same-cpu")), "the same-CPU variants all appear",
   sorted(res))
if ncpu >= 2:
    ok(all(v in res for v in VARIANTS if v.endswith("cross-cpu")),
       "the cross-CPU variants all appear (%d CPUs)" % ncpu, sorted(res))
else:
    ok(all(v in sk and sk[v]["reason"] for v in VARIANTS if v.endswith("cross-cpu")),
       "one CPU: the cross-CPU variants skip with a reason", sk)
check_results(res, "default")

# 2. one CPU, really: the cross-CPU variants must skip with a reason
if shutil.which("taskset"):
    p, recs, bad = run(("taskset", "-c", "0"))
    res, sk = by_name(recs, "result"), by_name(recs, "skip")
    ok(not bad, "taskset -c 0: every record's CRC is valid", "\n".join(bad))
    ok(sorted(res) == sorted(v for v in VARIANTS if v.endswith("same-cpu")),
       "taskset -c 0: only the same-CPU variants measure", sorted(res))
    ok(sorted(sk) == sorted(v for v in VARIANTS if v.endswith("cross-cpu"))
       and all("CPU" in s["reason"] for s in sk.values()),
       "taskset -c 0: the cross-CPU variants skip with a reason", sk)
else:
    for name in ("taskset CRC", "taskset same", "taskset skip"):
        skip(name, "no taskset")

print("1..%d" % n)
sys.exit(1 if failed else 0)
