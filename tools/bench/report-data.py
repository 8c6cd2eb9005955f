#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a large synthetic TP1 log for tools/bench/report-cost.sh.

  report-data.py probes N FILE    one run of N results, each of its own probe
  report-data.py records N FILE   one run of N results of four clocks probes,
                                  repeated over iterations (--repeat)
  report-data.py wide N FILE      one run of N distinct results of 560 keys
                                  each, every value distinct (the widest the
                                  report keeps per byte read)

Records are framed by tools/tp1rec.py, the one Python writer.
The figures are made up; only their number and shape matter here.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tp1rec import record_line  # noqa: E402

NAMES = ["clock_gettime(CLOCK_MONOTONIC)", "clock_gettime(CLOCK_REALTIME)",
         "clock_gettime(CLOCK_MONOTONIC_RAW)", "gettimeofday()"]


def rec(obj):
    return record_line(obj) + "\n"


def head(out):
    out.write(rec({"type": "run", "version": "0.1.0", "env": "host",
                   "kernel": "6.1.0", "cmdline": "", "cpu_model": "bench",
                   "cpus": 2, "clocksource": "tsc", "machine": "bench"}))


def probes(n, out):
    """n results, one per probe: the report's worst case for per-probe work."""
    head(out)
    for i in range(n):
        out.write(rec({"type": "result", "probe": "p%07d" % i, "name": "n",
                       "ns_per_call": 10 + i % 97, "ticks_per_call": 30 + i % 89}))
    out.write(rec({"type": "end", "records": n + 1}))


def records(n, out):
    """n results of a few probes, many iterations of each."""
    head(out)
    for i in range(n):
        it, k = divmod(i, len(NAMES))
        ns = 18 + (i * 7919) % 100 / 50
        out.write(rec({"type": "result", "iteration": it + 1, "probe": "clocks",
                       "name": NAMES[k], "path": "vdso", "clocksource": "tsc",
                       "ns_per_call": round(ns, 2), "ticks_per_call": round(ns * 3, 1),
                       "ns_per_call_min": round(ns * 0.97, 2),
                       "ns_per_call_p99": round(ns * 1.4, 2), "resolution_ns": 1}))
    out.write(rec({"type": "end", "records": n + 1}))


def wide(n, out):
    """n results of their own probe, 560 figures each, none equal."""
    head(out)
    for i in range(n):
        obj = {"type": "result", "probe": "w%05d" % i, "name": "n"}
        for k in range(560):
            obj["k%03d" % k] = i + k
        out.write(rec(obj))
    out.write(rec({"type": "end", "records": n + 1}))


def main():
    kinds = {"probes": probes, "records": records, "wide": wide}
    if len(sys.argv) != 4 or sys.argv[1] not in kinds or not sys.argv[2].isdigit():
        sys.exit("usage: report-data.py probes|records|wide N FILE")
    with open(sys.argv[3], "w") as out:
        kinds[sys.argv[1]](int(sys.argv[2]), out)


if __name__ == "__main__":
    main()
