#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A fleet made of one capture, for tests/report/fleet.t and
tools/bench/fleet.sh (docs/fleet.md, docs/benchmarks.md "fleet"):

    fleet-data.py CAPTURE DIR N [BAD]

writes DIR/node-001.log ... DIR/node-N.log, copies of CAPTURE's records,
each with its run record's machine set to its own name (node-001...), and
in node-BAD (when given) every clocks result's read costs (the declared
ns figures whose key says per call) times 10. Valid TP1 lines, CRCs and
all; CAPTURE's other lines are left out."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tp1rec import record_line, records  # noqa: E402

SLOW = 10
SLOW_KEYS = ("ns_per_call", "ns_per_call_min", "ns_per_call_mean", "ns_per_call_p99")


def lines(recs, name, slow):
    out = []
    for r in recs:
        if r["type"] == "run":
            r = dict(r, machine=name)
        elif slow and r["type"] == "result" and r.get("probe") == "clocks":
            r = dict(r, **{k: r[k] * SLOW for k in SLOW_KEYS if isinstance(r.get(k), (int, float))})
        out.append(record_line(r))
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    capture, folder, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    bad = int(sys.argv[4]) if len(sys.argv) == 5 else 0
    with open(capture, encoding="utf-8", errors="replace") as f:
        recs = records(f.read())[0]
    os.makedirs(folder, exist_ok=True)
    # every copy but its run record is the same text: framed once
    run_at = next(i for i, r in enumerate(recs) if r["type"] == "run")
    head, tail = lines(recs[:run_at], "", False), lines(recs[run_at + 1:], "", False)
    for i in range(1, n + 1):
        name = "node-%03d" % i
        with open(os.path.join(folder, name + ".log"), "w") as f:
            if i == bad:
                f.write(lines(recs, name, True))
            else:
                f.write(head + lines([recs[run_at]], name, False) + tail)


main()
