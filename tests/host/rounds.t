#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Host test of the suite's rounds (userland/suite.c, rounds.c; docs/records.md
# "Rounds"). The injection `rounds` is a made-up probe that splits: round k
# draws the k samples k*100 + j, j < k, and writes their n, mean and median;
# its last round writes them over every round's samples together. With
# --rounds=3: three round records with "round" 1..3 and the same name and
# keys, then one run record without "round", whose figures are those of all
# six samples (mean 234 and median 201, where the mean of the round means is
# 200.5 and the median of the round medians 200). A whole probe (vdso-check)
# writes no round record; the run record says the rounds asked for, the keys
# records whether each probe splits; rounds interleave (round 1 of yield
# before round 2 of rounds; yield's quick window of 200 ms holds 2 of its
# smallest rounds); --rounds=1 runs every probe whole.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, done, ok, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("vdso-check,yield", "--inject=rounds", "--rounds=3", "--yield-threads=1")
ok(run.p.returncode == 0 and not run.bad, "the run ends well, every record whole", run.p.stdout[-1500:])
res = [r for r in run.recs if r["type"] == "result" and r.get("probe") == "rounds"]
rounds = [r for r in res if "round" in r]
whole = [r for r in res if "round" not in r]
ok([r["round"] for r in rounds] == [1, 2, 3] and len(whole) == 1 and res[-1] is whole[0],
   "three round records, 1..3, then one run record without round", res)
ok(all(r["name"] == "made-up" and set(r) == set(whole[0]) | {"round"} for r in rounds),
   "the round records have the run record's name and keys", res)
ok([r.get("n") for r in rounds] == [1, 2, 3] and [r.get("mean_x") for r in rounds] == [100, 200.5, 301],
   "each round's figures are its own samples'", rounds)
w = whole[0] if whole else {}
ok(w.get("n") == 6 and w.get("mean_x") == 234 and w.get("median_x") == 201,
   "the run's figures are over all six samples (not 200.5 and 200 of the rounds' figures)", w)
vd = [r for r in run.recs if r.get("probe") == "vdso-check"]
ok(vd and not any("round" in r for r in vd), "a whole probe writes no round record", vd[:2])
ok(re.search(r"^timeprobe: 3 probes in (\d+) rounds, profile quick", run.p.stdout, re.M),
   "the run's first line counts its rounds", run.p.stdout[:600])
runrec = [r for r in run.recs if r["type"] == "run"]
ok(runrec and runrec[0].get("rounds") == 3, "the run record says rounds 3", runrec[:1])
keys = {r["for_probe"]: r for r in run.recs if r["type"] == "keys"}
ok(keys.get("yield", {}).get("rounds") is True and keys["yield"].get("min_round_ms", 0) > 0
   and keys.get("vdso-check", {}).get("rounds") is False and keys["vdso-check"].get("whole"),
   "keys records: yield splits, vdso-check stays whole and says why",
   {k: keys.get(k) for k in ("yield", "vdso-check")})
order = [(r.get("probe"), r.get("round")) for r in run.recs if r["type"] == "result" and "round" in r]
ok(order.index(("yield", 1)) < order.index(("rounds", 1)) < order.index(("yield", 2))
   < order.index(("rounds", 2)), "rounds interleave: round 1 of each probe, then round 2", order)
yres = [r for r in run.recs if r["type"] == "result" and r.get("probe") == "yield"]
yr = [r.get("round") for r in yres]
ok(len(yr) >= 3 and yr == list(range(1, len(yr))) + [None]
   and yres[-1].get("total_yields") == sum(r.get("total_yields", 0) for r in yres[:-1]),
   "yield: its rounds (as many as 3 of its 100 ms fit), then the run's figure over all their yields", yres)
att = [r.get("round") for r in run.recs if r["type"] == "attribution" and r.get("for_probe") == "rounds"]
ok(att == [1, 2, 3], "one attribution record per round, with its round", att)
ok(any(h.startswith("  made-up: n 6,") for h in run.human)
   and not any(h.startswith("  made-up: n 1,") for h in run.human),
   "the console shows the run's table, not the rounds'", run.human[-40:])

one = run_probe("yield", "--inject=rounds", "--rounds=1", "--yield-threads=1")
ok(one.p.returncode == 0 and not any("round" in r for r in one.recs if r["type"] == "result")
   and [r.get("n") for r in one.recs if r.get("probe") == "rounds" and r["type"] == "result"] == [1],
   "--rounds=1: every probe whole, no round record", one.p.stdout[-1500:])
bad = run_probe("vdso-check", "--rounds=0")
ok(bad.p.returncode == 2, "--rounds=0 refused (exit 2)", bad.p.stdout[-500:])
done()
