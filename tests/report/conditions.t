#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tp-report says first what bears on every figure of a run (conditions.c):
records lost, no end record, other work on its CPUs, an emulator; a clean
run has no Conditions section; --strict exits 3 when there is one."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import done, ok, tp_report, write_log  # noqa: E402

TP_REPORT = tp_report()
tmp = tempfile.mkdtemp(prefix="tp-conditions.")


def log(name, accel=None, busy=None, drop=0, end=True, refused=None):
    """A two-result host run; drop removes that many results after the run record;
    refused, an (option, value) whose error record the run has."""
    recs = [{"type": "run", "env": "os", "machine": name, "accel": accel,
             "loadavg_start": [3.5, 3.0, 2.0]}]
    if refused:
        recs.append({"type": "error", "option": refused[0], "value": refused[1],
                     "reason": "no such probe; did you mean wakeup?", "action": "default kept"})
    recs += [{"type": "result", "probe": "clocks", "name": "c%d" % i, "ns_per_call": 20 + i}
             for i in range(2)][drop:]
    if end:
        recs.append({"type": "end", "probes_ok": 1, "probes_skipped": 0, "probes_failed": 0,
                     "watchdog": False, "loadavg_end": [4.0, 3.1, 2.0], "other_cpu_s": 1.2,
                     "other_busy_pct": busy, "records": 3 + bool(refused)})
    return write_log(os.path.join(tmp, name + ".log"), recs)


def report(*args):
    return subprocess.run([TP_REPORT, *args], capture_output=True, text=True)


clean = log("clean", busy=0.8)
r = report(clean)
ok(r.returncode == 0 and "Conditions" not in r.stdout, "a clean run: no Conditions section", r.stdout[:400])
r = report("--strict", clean)
ok(r.returncode == 0, "a clean run with --strict: exit 0", r.stderr)

cases = [
    ("busy", log("busy", busy=39.4), "other work used 39 % of its CPUs while it ran "
     "(load average 3.50 at the start, 4.00 at the end)"),
    ("lost", log("lost", drop=1), "1 of the 3 records the suite wrote are not in this log"),
    ("noend", log("noend", end=False), "no end record: the run did not finish"),
    ("tcg", log("tcg", accel="tcg:max"), "ran under QEMU's TCG emulator"),
    ("refused", log("refused", refused=("probes", "wakup\x1b[2J")),
     "the option probes=wakup\\x1b[2J was refused (no such probe; did you mean wakeup?)"),
]
for name, path, says in cases:
    r = report(path)
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    ok(r.returncode == 0 and lines[:1] == ["Conditions"] and says in lines[1],
       "%s: the report opens with the condition" % name, r.stdout[:400])
    r = report("--strict", path)
    ok(r.returncode == 3, "%s: --strict exits 3" % name, r.returncode)

r = report("--label=a,b", clean, cases[0][1])
head = r.stdout.split("\n\n")[:3]
ok(r.returncode == 0 and any("Conditions" in h and "b: other work used 39 %" in h for h in head)
   and "a:" not in r.stdout.split("Conditions", 1)[1].split("\n\n", 1)[0],
   "a comparison names the busy run and not the clean one, before its figures", r.stdout[:600])
done()
