#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe noise on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `noise`: the quick profile gives one record per CPU and a
# total in under 5 s, with sane figures (stolen below 100 %, only gaps at or
# above the threshold, percentiles ordered, histogram counts adding up), the
# interrupt deltas where /proc has them, options honoured (threshold,
# duration; a host's calibration is never labelled the stub's), one record
# under `taskset -c 0`, and every record's CRC valid.
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import done, ok, run_probe, skip, timing  # noqa: E402


def run(*args, prefix=()):
    p, recs, bad, _, secs = run_probe("noise", *args, prefix=prefix)
    return p, {r["name"]: r for r in recs if r.get("type") == "result" and r.get("probe") == "noise"}, bad, secs


def sane(r, threshold, duration_ms):
    """Problems with one cpu/total record, as a list of strings."""
    bad = []
    if not (0 <= r["stolen_pct"] < 100):
        bad.append("stolen_pct %s" % r["stolen_pct"])
    # at least the window asked for; how much longer is the machine's load (slow(), a diagnostic)
    if not duration_ms * 0.99 <= r["duration_ms"]:
        bad.append("duration_ms %s" % r["duration_ms"])
    if r["threshold_ns"] != threshold:
        bad.append("threshold_ns %s" % r["threshold_ns"])
    if r["interruptions"] > 0:
        if not (threshold <= r["p50_gap_ns"] <= r["p99_gap_ns"] <= r["p999_gap_ns"] <= r["max_gap_ns"] * 1.000001):
            bad.append("percentiles %s %s %s %s" % (r["p50_gap_ns"], r["p99_gap_ns"], r["p999_gap_ns"], r["max_gap_ns"]))
        if abs(r["per_s"] - r["interruptions"] * 1000 / r["duration_ms"]) > 1e-6 * r["per_s"] + 1e-9:
            bad.append("per_s %s" % r["per_s"])
    else:
        if r["p50_gap_ns"] is not None or r["stolen_pct"] != 0:
            bad.append("quiet CPU with figures")
    h = r["gaps"]
    kept = r.get("gaps_kept", r["interruptions"])
    if r["n"] != kept:
        bad.append("n %s, gaps kept %s" % (r["n"], kept))
    if sum(h["buckets"].values()) + h["below"] + h["overflow"] != kept:
        bad.append("histogram holds %d, kept %d" % (sum(h["buckets"].values()), kept))
    if h["below"] != 0:
        bad.append("histogram: %d gaps below the threshold" % h["below"])
    if h["base_ns"] != threshold:
        bad.append("histogram base %s" % h["base_ns"])
    return bad


cpus = sorted(os.sched_getaffinity(0))

# 1. quick, as it comes
p, res, bad, elapsed = run()
ok(p.returncode == 0, "timeprobe run exits 0", p.stdout[-2000:])
ok(not bad, "every record's CRC is valid", "\n".join(bad))
timing(elapsed < 5, "quick profile under 5 s", "%.2f s" % elapsed)
names = sorted(k for k in res if k.startswith("cpu "))
ok(names == sorted("cpu %d" % c for c in cpus), "one record per CPU (%d)" % len(cpus), names)
ok("total" in res, "a total record")
problems = {k: sane(r, 1000, 1000) for k, r in res.items() if k.startswith("cpu ") or k == "total"}
ok(not any(problems.values()), "every CPU and the total: sane figures", problems)
cal = res.get("tsc calibration", {})
ok(cal.get("calibration") == "user" and cal.get("ref") == "CLOCK_MONOTONIC_RAW" and 1e8 <= cal.get("tsc_hz", 0) <= 1e10
   and cal.get("threshold_ns") == 1000, "host: the user calibration, in its own record", cal)
if "total" in res and names:
    t = res["total"]
    ok(t["interruptions"] == sum(res[k]["interruptions"] for k in names)
       and t["max_gap_ns"] == max((res[k]["max_gap_ns"] or 0) for k in names)
       or t["interruptions"] == 0, "total: sums interruptions, takes the largest gap", t)
    mean = sum(res[k]["stolen_pct"] * res[k]["duration_ms"] for k in names) / (len(names) * t["duration_ms"])
    ok(abs(t["stolen_pct"] - mean) < 1e-6 + 1e-6 * mean, "total: stolen_pct is the CPUs' share (%.4f)" % mean, t)
else:
    skip("total sums", "no total")
    skip("total stolen", "no total")
if os.path.exists("/proc/interrupts"):
    irq = res.get("interrupts") or {}
    src = {k: v for k, v in irq.items() if k not in ("type", "probe", "name", "duration_ms", "per_cpu", "truncated")}
    ok(irq and src and all(isinstance(v, int) and v > 0 for v in src.values()),
       "interrupts: flat non-zero integer deltas per source", irq)
    ok(irq.get("truncated") or all(sum(c.get(k, 0) for c in irq.get("per_cpu", {}).values()) == v
                                   for k, v in src.items() if not k.startswith(("ERR", "MIS"))),
       "interrupts: per-CPU deltas add up to the totals", irq)
else:
    skip("interrupts deltas", "no /proc/interrupts")
    skip("interrupts something", "no /proc/interrupts")

# 2. options: threshold and duration; a host has no stub, so its own calibration
p, res, bad, _ = run("--noise-threshold-ns=5000", "--noise-ms=300")
ok(p.returncode == 0 and not bad, "options: runs, CRCs valid", p.stdout[-1500:])
cpu0, cal = res.get("cpu %d" % cpus[0], {}), res.get("tsc calibration", {})
ok(cpu0.get("threshold_ns") == 5000 and cal.get("calibration") != "stub",
   "options: threshold used, the calibration is not labelled the stub's", [cpu0, cal])
problems = {k: sane(r, 5000, 300) for k, r in res.items() if k.startswith("cpu ") or k == "total"}
ok(not any(problems.values()), "options: sane figures at 5000 ns, 300 ms", problems)
late = [k for k, r in res.items() if (k.startswith("cpu ") or k == "total") and r["duration_ms"] > 300 * 1.5 + 50]
timing(not late, "options: every window within 1.5 x 300 ms + 50", late)

# 3. one CPU
if shutil.which("taskset"):
    p, res, bad, _ = run("--noise-ms=200", prefix=("taskset", "-c", "0"))
    ok(p.returncode == 0 and not bad, "taskset -c 0: runs, CRCs valid", p.stdout[-1500:])
    ok(sorted(k for k in res if k.startswith("cpu ")) == ["cpu 0"] and "total" in res,
       "taskset -c 0: one CPU record and the total", sorted(res))
else:
    skip("taskset run", "no taskset")
    skip("taskset one", "no taskset")

done()
