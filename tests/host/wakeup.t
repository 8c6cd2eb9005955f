#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe wakeup on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `wakeup`: every mechanism and period gives a result (or
# a skip with a reason), the figures are ordered (min <= p50 <= p99 <= p99.9
# <= max), nothing wakes before its time, the histogram's counts add up to
# the samples, the set-up in force is recorded, and every record's CRC is
# valid. A second run asks for SCHED_FIFO: it is in force, or the refusal is
# in the record. clock_nanosleep TIMER_ABSTIME on CLOCK_REALTIME, BOOTTIME
# and TAI, and mq_timedreceive (whose timeout is a REALTIME time), say the
# clock they waited on. Then the length asked, --wakeup-samples and
# --wakeup-seconds, in the records and the estimate.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import done, ok, run_probe  # noqa: E402

MECHS = ["clock_nanosleep TIMER_ABSTIME", "clock_nanosleep relative", "nanosleep", "usleep",
         "timer_create SIGEV_SIGNAL", "timer_create SIGEV_THREAD_ID", "timerfd", "select",
         "poll", "ppoll", "epoll_wait", "epoll_pwait2"]
OTHER_CLOCKS = ["CLOCK_REALTIME", "CLOCK_BOOTTIME", "CLOCK_TAI"]
MECHS += ["clock_nanosleep TIMER_ABSTIME " + c for c in OTHER_CLOCKS] + ["mq_timedreceive"]
ABSOLUTE = {"clock_nanosleep TIMER_ABSTIME", "timer_create SIGEV_SIGNAL",
            "timer_create SIGEV_THREAD_ID", "timerfd", "mq_timedreceive"} | {
    "clock_nanosleep TIMER_ABSTIME " + c for c in OTHER_CLOCKS}
CLOCK = {"mq_timedreceive": "CLOCK_REALTIME"}   # its timeout is a CLOCK_REALTIME time


def mine(recs, kind):
    """The run's records of KIND (not a round's: docs/records.md, "Rounds")."""
    return [r for r in recs if r.get("type") == kind and r.get("probe") == "wakeup" and "round" not in r]


def hist_total(h):
    return sum(h["buckets"].values()) + h["overflow"] + h.get("underflow", 0)


# 1. the quick default on a host: no SCHED_FIFO, periods 1000 and 100 us
p, recs, bad, human, _ = run_probe("wakeup", timeout=300)
res, skips = mine(recs, "result"), mine(recs, "skip")
ok(p.returncode == 0, "timeprobe run exits 0", p.stdout[-2000:])
rnd = [r for r in recs if r.get("type") == "result" and r.get("probe") == "wakeup" and "round" in r]
# in rounds each mechanism's samples are shared out; the run's record is over all of them
ok(rnd and all(sum(x["samples"] for x in rnd if x["name"] == r["name"]) == r["samples"]
               and min(x["min_ns"] for x in rnd if x["name"] == r["name"]) == r["min_ns"]
               and max(x["max_ns"] for x in rnd if x["name"] == r["name"]) == r["max_ns"]
               and sum(x["overruns"] for x in rnd if x["name"] == r["name"]) == r["overruns"]
               for r in res),
   "rounds: the run's samples, overruns, min and max are its rounds' together",
   [(r["name"], r["round"], r["samples"], r["min_ns"], r["max_ns"]) for r in rnd][:12])
ok(not bad, "every record's CRC is valid", "\n".join(bad))
ok(not mine(recs, "error"), "no error records", mine(recs, "error"))
missing = []
for period in (1000, 100):
    for m in MECHS:
        name = "%s %dus" % (m, period)
        r = [x for x in res if x["name"] == name]
        s = [x for x in skips if x.get("name") == name and x.get("reason")]
        if len(r) + len(s) != 1:
            missing.append(name)
ok(not missing, "every mechanism and period is present once (or skipped with a reason)", missing)
ok(all("%s %dus" % (m, per) in [r["name"] for r in res]
       for m in ABSOLUTE for per in (1000, 100)),
   "clock_nanosleep, POSIX timers and timerfd are measured at both periods")
ok(all(r["samples"] == 200 for r in res), "quick: 200 samples each",
   [(r["name"], r["samples"]) for r in res if r["samples"] != 200])
ok(all(r["n"] == r["samples"] for r in res), "n, the samples behind the percentiles, is given")
ok(all(r["min_ns"] <= r["p50_ns"] <= r["p99_ns"] <= r["p999_ns"] <= r["max_ns"]
       and r["min_ns"] <= r["avg_ns"] <= r["max_ns"] for r in res),
   "min <= p50 <= p99 <= p99.9 <= max, min <= avg <= max")
ok(all(r["min_ns"] >= 0 for r in res), "nothing wakes before its time (min_ns >= 0)",
   [(r["name"], r["min_ns"]) for r in res if r["min_ns"] < 0])
ok(all(hist_total(r["hist"]) == r["samples"] for r in res),
   "histogram buckets + overflow add up to samples",
   [(r["name"], hist_total(r["hist"]), r["samples"]) for r in res
    if hist_total(r["hist"]) != r["samples"]])
ok(all(r["hist"]["width_ns"] == 1000 and all(v > 0 for v in r["hist"]["buckets"].values())
       for r in res), "1 us buckets, written sparse (no empty bucket)")
ok(all(r["hist"]["outliers_ns"] and r["hist"]["outliers_ns"][0] == r["max_ns"] for r in res),
   "the largest outlier is max_ns")
ok(all(isinstance(r["overruns"], int) and r["overruns"] >= 0 for r in res), "overruns counted")
ok(all(r["latency_from"] == ("deadline" if r["mechanism"] in ABSOLUTE else "call+interval")
       for r in res), "latency_from says how latency was measured")
ok(all(r["priority"] == 0 and r["priority_requested"] == 0 and r["cpu"] == -1
       and isinstance(r["mlockall"], bool) and r["timerslack_ns"] >= 0 for r in res),
   "host default: priority 0, not pinned, mlockall and timer slack reported")
ok(all(r["clock"] == CLOCK.get(r["mechanism"], r["mechanism"].split()[-1]
                               if r["mechanism"].split()[-1] in OTHER_CLOCKS else "CLOCK_MONOTONIC")
       for r in res),
   "each record names the clock it slept on", [(r["name"], r["clock"]) for r in res])
poll = [x for x in skips if x["name"] == "poll 100us"]
ok(poll and "ms" in poll[0]["reason"], "poll at 100 us is skipped: its timeout is in ms", poll)
ok(any(l.startswith("clock_nanosleep TIMER_ABSTIME") and l.split()[2] == "1000" for l in human),
   "human table has a line per mechanism and period")

# 2. cyclictest-style: SCHED_FIFO 90, pinned to CPU 0, one period
p, recs, bad, human, _ = run_probe("wakeup", "--wakeup-priority=90", "--wakeup-cpu=0", "--wakeup-us=500", timeout=300)
res = mine(recs, "result")
ok(p.returncode == 0 and not bad, "with --wakeup-priority=90: exits 0, CRCs valid", p.stdout[-2000:])
ok(res and all(r["period_us"] == 500 for r in res), "wakeup-us picks the period")
ok(res and all(r["priority_requested"] == 90 and
               (r["priority"] == 90 or (r["priority"] == 0 and r.get("priority_error")))
               for r in res), "SCHED_FIFO 90 in force, or the refusal recorded",
   res[:1])
ok(res and all(r["cpu"] == 0 or r.get("cpu_error") for r in res), "pinned to CPU 0, or why not")
ok(not mine(recs, "error"), "no error records", mine(recs, "error"))

# 3. the length asked (cyclictest's -l and -D), from the probe's own option table
p, recs, bad, human, _ = run_probe("wakeup", "--wakeup-samples=37", "--wakeup-us=1000", timeout=120)
res = mine(recs, "result")
ok(p.returncode == 0 and res and all(r["samples"] == 37 for r in res),
   "--wakeup-samples=37: every mechanism's record says 37 samples",
   [(r["name"], r["samples"]) for r in res][:4] or p.stdout[-1500:])
p, recs, bad, human, _ = run_probe("wakeup", "--wakeup-seconds=1", "--wakeup-us=1000", timeout=120)
res = mine(recs, "result")
# 1 s shared by the mechanisms at one period: 1000000 us / mechanisms / 1000 us each
want = 1000000 // len(MECHS) // 1000
ok(p.returncode == 0 and res and all(r["samples"] == want for r in res),
   "--wakeup-seconds=1: %d samples each of %d mechanisms at 1000 us" % (want, len(MECHS)),
   [(r["name"], r["samples"]) for r in res][:4] or p.stdout[-1500:])
ok(any("~0:01" in l for l in human), "the estimate says the second asked",
   [l for l in human if "expected" in l])

done()
