#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe switch on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `switch`: the same-CPU and cross-CPU variants all appear
# (or the cross-CPU ones skip with a reason when one CPU is available; checked
# for real by running under `taskset -c 0`), the figures are consistent, and
# every record's CRC is valid; the pipe variants on one CPU carry lmbench
# lat_ctx's figure: half a round trip minus the pipe overhead measured beside
# it, exactly as docs/probes/switch.md's formula says.
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import diag, done, ok, run_probe, skip, timing  # noqa: E402

VARIANTS = ["pipe-process-same-cpu", "pipe-process-cross-cpu", "pipe-thread-same-cpu",
            "pipe-thread-cross-cpu", "futex-thread-same-cpu", "futex-thread-cross-cpu"]


def half(r):
    """Half a round trip: a switch on one CPU, a hand-over across two."""
    return r.get("ns_per_half_round_trip", r.get("ns_per_handoff", 0))


LAT_CTX_KEYS = ["lat_ctx_ns", "lat_ctx_ns_min", "lat_ctx_ns_max", "lat_ctx_ns_stddev",
                "pipe_overhead_ns", "pipe_overhead_ns_min", "pipe_overhead_ns_max",
                "pipe_overhead_ns_stddev", "lat_ctx_formula"]


def lat_ctx_off(r):
    """lat_ctx_ns minus the docs' formula, and what %.9g rounding allows."""
    want = r["us_per_round_trip"] * 1000 / r["switches_per_round_trip"] - r["pipe_overhead_ns"]
    return abs(r["lat_ctx_ns"] - want), 1e-8 * (half(r) + r["pipe_overhead_ns"])


def check_lat_ctx(res, label):
    pipe1 = {k: r for k, r in res.items() if r["mechanism"] == "pipe" and r["placement"] == "same-cpu"}
    ok(pipe1 and all(all(k in r for k in LAT_CTX_KEYS) for r in pipe1.values())
       and not any(k in r for name, r in res.items() if name not in pipe1 for k in LAT_CTX_KEYS),
       "%s: lat_ctx_ns and pipe_overhead_ns in the pipe variants on one CPU, nowhere else" % label,
       sorted(pipe1))
    if not pipe1 or not all(all(k in r for k in LAT_CTX_KEYS) for r in pipe1.values()):
        return
    ok(all(0 < r["pipe_overhead_ns_min"] <= r["pipe_overhead_ns"] <= r["pipe_overhead_ns_max"]
           and r["pipe_overhead_ns_stddev"] >= 0 for r in pipe1.values()),
       "%s: pipe overhead measured, min <= median <= max" % label)
    offs = {k: lat_ctx_off(r) for k, r in pipe1.items()}
    ok(all(off <= tol for off, tol in offs.values()),
       "%s: lat_ctx_ns = us_per_round_trip * 1000 / 2 - pipe_overhead_ns (to the records' rounding)"
       % label, offs)
    ok(all(r["lat_ctx_ns_min"] <= r["lat_ctx_ns"] <= r["lat_ctx_ns_max"] and r["lat_ctx_ns_stddev"] >= 0
           for r in pipe1.values()),
       "%s: lat_ctx_ns within its paired repetitions' min and max" % label)
    for k, r in pipe1.items():
        diag("%s: %s lat_ctx %.0f ns = half round trip %.0f - pipe overhead %.0f (min %.0f max %.0f)"
             % (label, k, r["lat_ctx_ns"], half(r), r["pipe_overhead_ns"],
                r["pipe_overhead_ns_min"], r["pipe_overhead_ns_max"]))


def check_results(res, label):
    good = all(r["round_trips"] > 0 and r["reps"] >= 3 and r["round_trips_per_rep"] >= 16
               and 0 < r["us_per_round_trip_min"] <= r["us_per_round_trip"] <= r["us_per_round_trip_max"]
               and r["us_per_round_trip_stddev"] >= 0
               and r["switches_per_round_trip"] == 2
               and abs(half(r) - r["us_per_round_trip"] * 500) <= 1e-6 * half(r)
               for r in res.values())
    ok(good, "%s: figures consistent (min <= median <= max, ns per half round trip = us/rt * 1000 / 2)"
       % label, json.dumps(list(res.values()), indent=1))
    ok(all(("ns_per_half_round_trip" in r) == (r["placement"] == "same-cpu")
           and ("ns_per_handoff" in r) == (r["placement"] == "cross-cpu")
           and "ns_per_switch" not in r for r in res.values()),
       "%s: ns_per_half_round_trip on one CPU, ns_per_handoff across two" % label)
    check_lat_ctx(res, label)
    # each side sleeps or is preempted about once per round trip
    ok(all(r["ctxsw_per_round_trip"] >= 0 for r in res.values()),
       "%s: getrusage's switches per round trip counted" % label)
    timing(all(1.0 <= r["ctxsw_per_round_trip"] <= 3.0 for r in res.values()),
       "%s: getrusage sees 1..3 switches per round trip" % label,
       [(k, r["ctxsw_per_round_trip"]) for k, r in res.items()])
    ok(all(r["cpu_main"] == r["cpu_peer"] for k, r in res.items() if k.endswith("same-cpu"))
       and all(r["cpu_main"] != r["cpu_peer"] for k, r in res.items() if k.endswith("cross-cpu")),
       "%s: same-cpu on one CPU, cross-cpu on two" % label)


def by_name(recs, typ):
    """The run's records of TYP by name (not a round's: docs/records.md, "Rounds")."""
    return {r["name"]: r for r in recs if r.get("type") == typ and r.get("probe") == "switch"
            and "round" not in r}


ncpu = len(os.sched_getaffinity(0))

# 1. as it comes
p, recs, bad, _, _ = run_probe("switch")
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
rounds = [r for r in recs if r.get("type") == "result" and r.get("probe") == "switch" and "round" in r]
ok(rounds and all(sum(x["reps"] for x in rounds if x["name"] == k) == r["reps"] for k, r in res.items()),
   "rounds: each variant's repetitions over its rounds add up to the run record's",
   [(r["name"], r["round"], r["reps"]) for r in rounds])
# the run's figures are over every round's repetitions together: its
# smallest and largest are the rounds' smallest and largest, to the digit
ok(rounds and all(min(x["us_per_round_trip_min"] for x in rounds if x["name"] == k) == r["us_per_round_trip_min"]
                  and max(x["us_per_round_trip_max"] for x in rounds if x["name"] == k) == r["us_per_round_trip_max"]
                  for k, r in res.items()),
   "rounds: the run's min and max round trip are the rounds' min and max (samples merged)",
   [(r["name"], r["round"], r["us_per_round_trip_min"], r["us_per_round_trip_max"]) for r in rounds])

# 2. one CPU, really: the cross-CPU variants must skip with a reason
if shutil.which("taskset"):
    p, recs, bad, _, _ = run_probe("switch", prefix=("taskset", "-c", "0"))
    res, sk = by_name(recs, "result"), by_name(recs, "skip")
    ok(not bad, "taskset -c 0: every record's CRC is valid", "\n".join(bad))
    ok(sorted(res) == sorted(v for v in VARIANTS if v.endswith("same-cpu")),
       "taskset -c 0: only the same-CPU variants measure", sorted(res))
    ok(sorted(sk) == sorted(v for v in VARIANTS if v.endswith("cross-cpu"))
       and all("CPU" in s["reason"] for s in sk.values()),
       "taskset -c 0: the cross-CPU variants skip with a reason", sk)
    check_lat_ctx(res, "taskset -c 0")
else:
    for name in ("taskset CRC", "taskset same", "taskset skip", "taskset lat_ctx"):
        skip(name, "no taskset")

done()
