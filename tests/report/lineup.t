#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tp-report lines figures up across runs (lineup.c, model.c): results read
through each run's booted clocksource get an as-booted row that lines up when
the clocksources differ; each probe's heading says how many of its figures
line up; a Line-up section before the lead names each probe with less than
half lined up and the identity key whose values differ; a single run and a
pair that lines up fully have neither."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import done, ok, tp_report, write_log  # noqa: E402

TP_REPORT = tp_report()
tmp = tempfile.mkdtemp(prefix="tp-lineup.")


def clock(name, path, cs, ns, **extra):
    return dict({"type": "result", "probe": "clocks", "name": name, "path": path,
                 "clocksource": cs, "ns_per_call": ns, "ns_per_call_min": ns - 1}, **extra)


ALARM = "clock_gettime(CLOCK_BOOTTIME_ALARM)"


def log(name, booted, vdso=True, clocks=True, hpet_device=False, alarm=False):
    """A run booted with clocksource `booted`: three clock reads through it
    (the libc one served by the vDSO or not), an alarm clock read or its
    skip, wakeup figures that line up."""
    recs = [{"type": "run", "env": name, "machine": name, "clocksource": booted}]
    if clocks:
        recs += [clock("clock_gettime(CLOCK_MONOTONIC)", "vdso" if vdso else "libc", booted,
                       20 if vdso else 700, clock_id=1),
                 clock("clock_gettime(CLOCK_MONOTONIC)", "syscall", booted, 300, clock_id=1),
                 clock("rdtsc", "insn", booted, 10)]
        recs.append(clock(ALARM, "syscall", booted, 400, clock_id=9) if alarm else
                    {"type": "skip", "probe": "clocks", "name": ALARM, "path": "syscall",
                     "clocksource": booted, "clock_id": 9, "reason": "no RTC"})
    if hpet_device:
        recs.append(clock("HPET main counter (MMIO load)", "hpet-mmio", booted, 500, counter="hpet"))
    recs += [{"type": "result", "probe": "wakeup", "name": "nanosleep", "timer": "nanosleep",
              "period_us": p, "mean_ns": 50000 + p, "max_ns": 90000 + p} for p in (100, 1000)]
    recs.append({"type": "end", "probes_ok": 2, "probes_skipped": 0, "probes_failed": 0,
                 "watchdog": False, "records": len(recs)})
    return write_log(os.path.join(tmp, name + ".log"), recs)


def report(*args):
    return subprocess.run([TP_REPORT, *args], capture_output=True, text=True)


def section(text, title):
    """The lines of the section headed by a line starting with title."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(title):
            out = []
            for l in lines[i + 1:]:
                if not l.strip():
                    break
                out.append(l.strip())
            return out
    return None


host = log("host", "kvm-clock")
appl = log("appliance", "hpet", vdso=False, hpet_device=True, alarm=True)
r = report("--label=host,appliance", host, appl)
out = r.stdout
lineup = section(out, "Line-up")
ok(r.returncode == 0 and lineup is not None, "clocksources differ: a Line-up section", out[:600])
lineup = lineup or []
# 3 results x 2 figures each side, none shared; the alarm clock and the
# HPET read (a counter: no as-booted row) add 2 more each in the appliance
want = ("clocks: 0 of 16 figures measured in every run; the runs differ in clocksource: kvm-clock on host, "
        "hpet on appliance; by each run's own default clocksource: 3 of 4 rows, host has no %s "
        "(it skipped them)" % ALARM)
ok(lineup == [want], "it names clocks, its count, the key and each run's value, the as-booted rows "
   "and the one a run skipped", "\n".join(lineup))
ok(out.find("Line-up") < out.find("Figures furthest") or "Figures furthest" not in out,
   "the Line-up section comes before the lead", out[:800])
ok("clocks (0 of 16 figures measured in every run; by each run's own default clocksource: 3 of 4 rows)"
   in out and "wakeup (4 of 4 figures measured in every run)" in out, "each probe's heading says how many figures line up", out)
ok("clock_gettime(CLOCK_MONOTONIC)  path=libc clocksource=as booted clock_id=1: host kvm-clock, appliance hpet"
   in out, "the as-booted row of the libc route names each run's booted clocksource", out)

rows = list(csv.DictReader(io.StringIO(report("--format=csv", "--label=host,appliance", host, appl).stdout)))
booted = [x for x in rows if "as booted" in x["ident"]]
mono = {x["run"]: x["mean"] for x in booted
        if x["result"] == "clock_gettime(CLOCK_MONOTONIC)" and "path=libc" in x["ident"]
        and x["figure"] == "ns_per_call"}
ok(mono == {"1": "20", "2": "700"}, "CLOCK_MONOTONIC through libc as booted: the vDSO's 20 and hpet's 700 line up",
   mono)
ok(booted and all(x["n"] == "1" for x in booted if x["result"] != ALARM),
   "every as-booted figure of a clock both runs read has a value in both",
   [(x["run"], x["result"], x["figure"], x["n"]) for x in booted])
ok(not any("HPET" in x["result"] for x in booted), "a platform counter's read gets no as-booted row",
   [x["result"] for x in booted])

doc = json.loads(report("--format=json", "--label=host,appliance", host, appl).stdout)
ok(sorted({f["result"] for f in doc["figures"] if f["as_booted"]}) ==
   ["clock_gettime(CLOCK_BOOTTIME_ALARM)", "clock_gettime(CLOCK_MONOTONIC)", "rdtsc"] and
   all(("as booted" in f["ident"]) == f["as_booted"] for f in doc["figures"]),
   "JSON marks the as-booted figures, and only those", [f["ident"] for f in doc["figures"]])

r = report(host)
rows = report("--format=csv", host).stdout
ok(r.returncode == 0 and "as booted" not in r.stdout and "as booted" not in rows and
   "Line-up" not in r.stdout, "a single run: no as-booted rows, no Line-up section", r.stdout[:400])

twin = log("twin", "kvm-clock")
r = report("--label=host,twin", host, twin)
ok(r.returncode == 0 and "Line-up" not in r.stdout and "as booted" not in r.stdout and
   "clocks (6 of 6 figures measured in every run)" in r.stdout,
   "a pair that lines up fully: no Line-up section, no as-booted rows", r.stdout[:800])

bare = log("bare", "kvm-clock", clocks=False)
r = report("--label=host,bare", host, bare)
ok(section(r.stdout, "Line-up") == ["clocks: 0 of 6 figures measured in every run; bare has none of its results"],
   "a probe one run lacks is named with that run", r.stdout[:600])
done()
