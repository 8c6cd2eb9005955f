#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Host test of clocks and noise in rounds (docs/probes/clocks.md and
# docs/probes/noise.md, "Rounds"; docs/records.md "Rounds"): a real quick
# run with --rounds=3 writes, for each probe, its round records (round 1..3,
# the run record's name and identity keys) before its run records (no
# round), one run record per figure the rounds measured, and a keys record
# that says it splits. The run's figures cover every round: noise's spin
# time and gap counts, clocks' batches, are the rounds' sums. Structure only:
# no timing is asserted.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, done, ok, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("clocks,noise", "--rounds=3")
ok(run.p.returncode == 0 and not run.bad, "the run ends well, every record whole", run.p.stdout[-1500:])
keys = {r["for_probe"]: r for r in run.recs if r["type"] == "keys"}
IDS = {"clocks": ("name", "clocksource", "path", "clock_id"), "noise": ("name", "cpu", "threshold_ns")}


def ident(r, probe):
    return tuple(r.get(k) for k in IDS[probe])


for probe in ("clocks", "noise"):
    ok(keys.get(probe, {}).get("rounds") is True and keys[probe].get("min_round_ms", 0) > 0,
       "%s: its keys record says it splits, with its smallest round" % probe, keys.get(probe))
    res = [r for r in run.recs if r["type"] == "result" and r.get("probe") == probe]
    whole = [r for r in res if "round" not in r]
    by_round = {k: [r for r in res if r.get("round") == k] for k in (1, 2, 3)}
    ok(all(by_round[k] for k in (1, 2, 3)) and not [r for r in res if r.get("round") not in (None, 1, 2, 3)],
       "%s: result records of rounds 1, 2 and 3" % probe, [r.get("round") for r in res])
    first_run = res.index(whole[0]) if whole else -1
    ok(whole and all("round" not in r for r in res[first_run:])
       and all(res.index(r) < first_run for k in (1, 2) for r in by_round[k]),
       "%s: the run's records (no round) come after rounds 1 and 2" % probe, [r.get("round") for r in res])
    run_ids = {ident(r, probe) for r in whole}
    ok(all({ident(r, probe) for r in by_round[k]} <= run_ids for k in (1, 2, 3))
       and len(run_ids) == len(whole),
       "%s: every round record names a run record (same name and identity keys), one run record each" % probe,
       sorted(map(str, run_ids))[:10])
    ok(all(set(r) - {"round"} <= set(w) for r in by_round[3] for w in whole
           if ident(w, probe) == ident(r, probe)),
       "%s: a round record's keys are its run record's" % probe, by_round[3][:2])

noise = [r for r in run.recs if r["type"] == "result" and r.get("probe") == "noise"]
cpu = lambda rs, k: [r for r in rs if r.get("name") == "cpu 0" and r.get("round") == k]  # noqa: E731
rounds0 = [cpu(noise, k)[0] for k in (1, 2, 3) if cpu(noise, k)]
run0 = cpu(noise, None)
ok(len(rounds0) == 3 and run0 and run0[0]["interruptions"] == sum(r["interruptions"] for r in rounds0)
   and abs(run0[0]["duration_ms"] - sum(r["duration_ms"] for r in rounds0)) < 0.01,
   "noise cpu 0: the run's interruptions and spin time are its rounds' sums", (rounds0, run0))
clocks = [r for r in run.recs if r["type"] == "result" and r.get("probe") == "clocks"]
mono = [r for r in clocks if r.get("name") == "clock_gettime(CLOCK_MONOTONIC)" and r.get("path") == "syscall"]
ok(len(mono) == 4 and mono[-1].get("n") == sum(r.get("n", 0) for r in mono[:3]),
   "clocks: the syscall read's run figure is over its rounds' batches together (n the rounds' sum)", mono)
att = [r.get("round") for r in run.recs if r["type"] == "attribution" and r.get("for_probe") in ("clocks", "noise")]
ok(att == [1, 1, 2, 2, 3, 3], "one attribution record per probe and round, each with its round", att)
done()
