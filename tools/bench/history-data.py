#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Machines' histories made of real captures, for tests/report/history.t,
tools/bench/history.sh and the study in docs/history.md:

    history-data.py DIR RUNS [options] CAPTURE...

writes DIR/m01-r001.log ...: RUNS runs of each machine, run i a copy of
CAPTURE number i (cycling through them), its run record's machine_id set to
m01, m02, ... and its start to one hour after the run before. Valid TP1
lines, CRCs redone (tools/tp1rec.py); the captures' other lines left out.

  --machines=M        M machines (default 1), each with its own copies
  --figure=SPEC       the figure changed: PROBE:NAME:KEY, or PROBE:NAME:K=V:KEY
                      to pick the result whose identity field K is V
  --scale=F --from=K  its value times F from run K on (1-based)
  --kernel=REL --from=K   kernel release REL from run K on
  --noise=SD --seed=S its value replaced by the first capture's times
                      exp(N(0, SD)) (a series with a known between-run noise)
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tp1rec import record_line, records  # noqa: E402


def parse():
    p = argparse.ArgumentParser(usage=__doc__)
    p.add_argument("dir")
    p.add_argument("runs", type=int)
    p.add_argument("captures", nargs="+")
    p.add_argument("--machines", type=int, default=1)
    p.add_argument("--figure")
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--from", dest="first", type=int, default=0)
    p.add_argument("--kernel")
    p.add_argument("--noise", type=float)
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


def matches(rec, spec):
    parts = spec.split(":")
    probe, name, key, want = parts[0], parts[1], parts[-1], parts[2:-1]
    if rec.get("type") != "result" or rec.get("probe") != probe or rec.get("name") != name:
        return None
    if any(str(rec.get(w.split("=", 1)[0])) != w.split("=", 1)[1] for w in want):
        return None
    return key if isinstance(rec.get(key), (int, float)) else None


def set_value(rec, key, v):
    """rec with key at v, its interval moved with it."""
    old = rec[key]
    rec = dict(rec, **{key: v})
    ci = rec.get(key + "_ci95")
    if isinstance(ci, list) and len(ci) == 3 and old:
        rec[key + "_ci95"] = [ci[0] * v / old, ci[1] * v / old, ci[2]]
    return rec


def one_run(recs, a, machine, i, base, rng):
    out = []
    later = a.first and i + 1 >= a.first
    for r in recs:
        if r["type"] == "run":
            r = dict(r, machine_id=machine, start="2026-%02d-%02dT%02d:00:00Z" % (
                1 + i // (24 * 28), 1 + i // 24 % 28, i % 24))
            if a.kernel and later:
                r["kernel"] = a.kernel
        elif r["type"] == "fingerprint" and a.kernel and later:
            r = dict(r, kernel_release=a.kernel)
        key = a.figure and matches(r, a.figure)
        if key:
            v = r[key] if a.noise is None else base * math.exp(rng.gauss(0, a.noise))
            r = set_value(r, key, v * (a.scale if later else 1))
        out.append(record_line(r))
    return "\n".join(out) + "\n"


def main():
    a = parse()
    caps = []
    for c in a.captures:
        with open(c, encoding="utf-8", errors="replace") as f:
            caps.append(records(f.read())[0])
    base = None
    if a.figure:
        hits = [r[matches(r, a.figure)] for r in caps[0] if matches(r, a.figure)]
        if not hits:
            sys.exit("history-data: no %s in %s" % (a.figure, a.captures[0]))
        base = hits[0]
    rng = random.Random(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    for m in range(1, a.machines + 1):
        for i in range(a.runs):
            text = one_run(caps[i % len(caps)], a, "m%02d" % m, i, base, rng)
            with open(os.path.join(a.dir, "m%02d-r%03d.log" % (m, i + 1)), "w") as f:
                f.write(text)


main()
