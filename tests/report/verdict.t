#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tp-report's Verdict section (tools/report/verdict.c), right after the
conditions: a run's verdict record shown as written, word and figure, with
the probes' declared bounds beside each; the emulator said first; an item
the table does not know (a newer suite) shown under its id; a capture with
no verdict record says so and nothing is computed; record text escaped in
Markdown. Last, a real `timeprobe run` of this machine: its own verdict."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, done, ok, skip, tp_report, write_log  # noqa: E402

TP_REPORT = tp_report()
tmp = tempfile.mkdtemp(prefix="tp-verdict.")

VERDICT = {"type": "verdict", "emulated": "tcg", "emulated_by": "QEMU tcg:max", "items": {
    "wakeup_max_ns": {"word": "fair", "value": 150000, "unit": "ns",
                      "from": "wakeup: clock_nanosleep TIMER_ABSTIME 100us",
                      "p999_ns": 120000, "n": 1000},
    "noise_stolen_pct": {"word": "not measured", "value": None, "unit": "%",
                         "why": "probe noise not run (not selected)"},
    "tsc_stub_vs_kernel_ppm": {"word": "unknown", "value": -3.5, "unit": "ppm",
                               "why": "the two figures share an origin <b>|x|</b>"},
    "future_item": {"word": "good", "value": 7, "unit": "ns", "from": "a newer suite"},
}}


def log(name, verdict=True, accel=None, wakeup_ns=None, noise_why=None):
    recs = [{"type": "run", "env": "os", "machine": name, "accel": accel},
            {"type": "result", "probe": "clocks", "name": "c", "ns_per_call": 20}]
    if verdict:
        v = json.loads(json.dumps(VERDICT))
        if wakeup_ns is not None:
            v["items"]["wakeup_max_ns"]["value"] = wakeup_ns
        if noise_why is not None:
            v["items"]["noise_stolen_pct"]["why"] = noise_why
        recs.append(v)
    recs.append({"type": "end", "probes_ok": 1, "probes_skipped": 0, "probes_failed": 0,
                 "watchdog": False, "records": len(recs) - 1})
    return write_log(os.path.join(tmp, name + ".log"), recs)


def report(*args):
    return subprocess.run([TP_REPORT, *args], capture_output=True, text=True)


def section(text, title="Verdict"):
    """The non-blank lines of one section: from its heading to the next heading
    (Markdown: a line of #; text: an unindented line)."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.strip().lstrip("# ") == title), None)
    if start is None:
        return []
    out = []
    for l in lines[start + 1:]:
        if l.startswith("#") or (l.strip() and not l.startswith((" ", "|", "-"))):
            break
        if l.strip():
            out.append(l)
    return out


with_v, without = log("with"), log("without", verdict=False)
r = report(with_v)
sec = section(r.stdout)
ok(r.returncode == 0 and sec, "a run with a verdict record: a Verdict section", r.stdout[:800])
ok(sec and "under an emulator (QEMU tcg:max)" in sec[0], "the emulator first", sec[:1])
row = [l for l in sec if "worst wake-up latency" in l]
ok(row and "150 us: fair (p99.9 120 us, n 1000)" in row[0] and "good <= 100 us, fair <= 1 ms" in row[0],
   "wake-up: figure, word, p99.9 with n, and the bounds its probe declares", row)
row = [l for l in sec if "time stolen" in l]
ok(row and "not measured" in row[0] and "not selected" in row[0], "not measured with why", row)
ok(any("future_item" in l and "7 ns: good" in l for l in sec), "an item the table does not know: by its id")
rows = [l for l in sec if "TSC invariant" in l]
ok(rows and rows[0].split()[-1] == "-", "an item the record lacks: '-'", rows)
lines = r.stdout.splitlines()
ok(lines.index(next(l for l in lines if l.strip() == "Verdict")) <
   lines.index(next(l for l in lines if l.startswith("Run 1 of"))), "before the run's tables")

r = report(without)
sec = section(r.stdout)
ok(r.returncode == 0 and sec == ["  os/without: no verdict record (a capture from before verdicts, "
                                   "or the run did not finish)"],
   "no verdict record: says so, and nothing else", sec)

r = report(log("busy-tcg", accel="tcg:max"))
text = r.stdout
ok(text.index("Conditions") < text.index("Verdict"), "just after the conditions")

r = report("--format=markdown", with_v, without)
sec = section(r.stdout)
ok(any("without: no verdict record" in l for l in sec) and any(l.startswith("|") for l in sec),
   "two runs, one without: its line, and the table of the other", sec)
ok(not re.search(r"(?<!\\)<b>", r.stdout) and "\\|x\\|" in r.stdout, "record text escaped in Markdown",
   [l for l in sec if "origin" in l])

# a hostile verdict record: wrong types, control characters, a table separator
bad = {"type": "verdict", "emulated": "tcg", "emulated_by": "a\x1b[31m\nb|c", "items": {
    "x\x07\n|y": {"word": 5, "value": "s", "unit": 7, "n": "q", "p999_ns": None},
    "wakeup_max_ns": [], "z": None, "tsc_invariant": {"value": 1e308, "unit": None},
    "noise_max_gap_ns": {"word": "good", "value": -1e300, "unit": "ns", "n": 1e300, "why": "w\x1b"}}}
path = write_log(os.path.join(tmp, "bad.log"), [{"type": "run", "env": "os", "machine": "bad"}, bad,
                                                 {"type": "end", "records": 2}])
for fmt in ("text", "markdown"):
    r = report("--format=" + fmt, path)
    sec = section(r.stdout)
    ok(r.returncode == 0 and len(sec) > 10 and not any(c in r.stdout for c in "\x1b\x07"),
       "%s: a hostile verdict record is shown, its control characters written out" % fmt, sec[:3])

# this machine's own verdict, from a real run
if not os.access(BIN, os.X_OK):
    skip("a real run's verdict", "build/timeprobe not built (make userland)")
else:
    path = os.path.join(tmp, "real.log")
    with open(path, "w") as f:
        p = subprocess.run([BIN, "run", "--probes=tscsync", "--profile=quick"], stdout=f,
                           stderr=subprocess.DEVNULL, timeout=300)
    r = report(path)
    sec = section(r.stdout)
    row = [l for l in sec if "cross-CPU offset" in l]
    ok(p.returncode == 0 and row and any(w in row[0] for w in ("good", "fair", "poor", "not measured")),
       "a real run: its cross-CPU offset has a word", sec)
    ok(any("probe wakeup not run (not selected)" in l for l in sec),
       "a real run: a probe not selected is not measured, and says why", sec)
# several runs: the spread of each item beside the words, and the why
# said once when every run gives the same, by run when they differ
r = report("--label=a,b,c", log("s1", wakeup_ns=1930000), log("s2", wakeup_ns=20800),
           log("s3", wakeup_ns=15000, noise_why="probe noise skipped: no CPU to spare"))
sec = section(r.stdout)
row = [l for l in sec if "worst wake-up latency" in l]
ok(row and "15 us .. 1.93 ms over 3 runs" in row[0], "three runs: the wake-up item's spread", row)
row = [l for l in sec if "time stolen" in l]
ok(row and "a: probe noise not run (not selected); b: probe noise not run (not selected); "
   "c: probe noise skipped: no CPU to spare" in row[0], "whys that differ: each run's", row)
row = [l for l in sec if "future_item" in l]
ok(row and "7 ns .. 7 ns over 3 runs" in row[0] and ": " not in row[0].split("over 3 runs")[1],
   "no why: the column stays empty", row)
done()
