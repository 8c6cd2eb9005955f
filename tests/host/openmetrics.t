#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# `timeprobe run --openmetrics=FILE` (docs/fleet.md): the run's own records
# through tp-report into FILE for node_exporter's textfile collector. FILE
# passes `promtool check metrics` (when Debian's prometheus is installed),
# carries the record's figure in seconds, and is the only file left in its
# folder; with --records=PATH the records stay there; without tp-report the
# run says so, exits 1 and keeps the records (TAP).
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, ROOT, done, ok, records, skip  # noqa: E402

REPORT = os.environ.get("TP_REPORT", os.path.join(ROOT, os.environ.get("B", "build"), "tp-report"))
if not os.access(BIN, os.X_OK) or not os.access(REPORT, os.X_OK):
    print("1..0 # SKIP %s or %s not built (make userland report)" % (BIN, REPORT))
    sys.exit(0)
tmp = tempfile.mkdtemp(prefix="timeprobe-openmetrics.")


def run(binary, folder, *args, env=None):
    """BIN run --probes=yield --profile=quick --openmetrics=FOLDER/t.prom ARGS, stdout a file."""
    os.makedirs(folder, exist_ok=True)
    prom = os.path.join(folder, "t.prom")
    with open(os.path.join(tmp, "stdout"), "w+") as out:
        p = subprocess.run([binary, "run", "--probes=yield", "--profile=quick",
                            "--openmetrics=" + prom, *args], stdout=out,
                           stderr=subprocess.PIPE, text=True, timeout=120, env=env)
        out.seek(0)
        recs = records(out.read())[0]
    return p, recs, prom


try:
    folder = os.path.join(tmp, "textfile")
    p, recs, prom = run(BIN, folder)
    text = open(prom).read() if os.path.exists(prom) else ""
    ok(p.returncode == 0 and text.endswith("# EOF\n"), "the run writes FILE", p.stderr[-1500:])
    ok(os.listdir(folder) == ["t.prom"], "nothing else left in its folder (the scratch records removed)",
       os.listdir(folder))
    if shutil.which("promtool"):
        c = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
        ok(c.returncode == 0, "promtool check metrics accepts it", c.stdout + c.stderr)
    else:
        skip("promtool check metrics accepts it", "promtool not installed (tools/deps.sh)")
    # the run's record, not a round's (docs/records.md, "Rounds")
    rec = next((r for r in recs if r["type"] == "result" and r.get("probe") == "yield"
                and r.get("threads") == 1 and "round" not in r), None)
    line = re.search(r'^timeprobe_yield_per_yield_seconds\{[^\n]*result="1 threads"[^\n]*\} (\S+)$',
                     text, re.M)
    ok(rec and line and float(line.group(1)) == rec["ns_per_yield"] * 1e-9,
       "its ns_per_yield arrives in seconds", "%r\n%r" % (rec, line and line.group(0)))

    keep = os.path.join(tmp, "kept.tp1")
    p, recs, prom = run(BIN, os.path.join(tmp, "with-records"), "--records=" + keep)
    ok(p.returncode == 0 and os.path.exists(prom) and os.path.getsize(keep) > 0,
       "with --records=PATH the records stay there", p.stderr[-1500:])

    alone = os.path.join(tmp, "alone")
    os.makedirs(alone)
    shutil.copy(BIN, alone)
    env = dict(os.environ, PATH=alone)
    folder = os.path.join(tmp, "no-report")
    p, recs, prom = run(os.path.join(alone, "timeprobe"), folder, env=env)
    left = [f for f in os.listdir(folder) if ".records-" in f]
    ok(p.returncode == 1 and not os.path.exists(prom) and len(left) == 1
       and left[0] in p.stderr and "tp-report" in p.stderr,
       "without tp-report: exit 1, no FILE, the records kept and named", p.stderr[-1500:])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
done()
