#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tp-report --fail-on (tools/report/gate.c) on committed captures: a TCG
run with a poor clock read exits 4 and names it on stderr, not the
emulator's tsc_invariant; a run with a fair item passes --fail-on=poor and
fails --fail-on=fair; `not safe` fails --fail-on=unsafe, `unknown` not; a
bad level is usage (2); --help's exit codes say 4. Then make run's end,
tools/after-run.sh, with FAIL_ON= on the same logs; and JUnit's verdict
suite: tsc_invariant skipped under the emulator, not failed."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tp1 import ROOT, done, ok, tp_report, test_data  # noqa: E402

TP_REPORT = tp_report()
DATA = test_data()
POOR = os.path.join(DATA, "aa-tcg2-1-a.log")   # TCG: clock_read_ns poor, tsc=reliable not safe
FAIR = os.path.join(DATA, "aa-tcg2-1-b.log")   # TCG: clock_read_ns fair, tsc_invariant poor
HOST = os.path.join(DATA, "aa-host3-1-a.log")  # KVM guest: good and not measured, unknown
tmp = tempfile.mkdtemp(prefix="tp-gate.")


def report(*args):
    return subprocess.run([TP_REPORT, *args], capture_output=True, text=True)


r = report("--fail-on=poor", POOR)
ok(r.returncode == 4, "--fail-on=poor on a run with a poor item exits 4", r.returncode)
ok(re.search(r"^report: --fail-on: .*: clock_read_ns poor: 1002\.98 ns", r.stderr, re.M),
   "stderr names the poor item, its figure and its source", r.stderr)
ok("tsc_invariant" not in r.stderr, "the emulator's tsc_invariant is not a failure", r.stderr)
ok("not safe" not in r.stderr, "poor alone does not fail on the readiness answer", r.stderr)
ok(r.stdout.startswith(report(POOR).stdout[:200]), "the report itself is on stdout as without it")

r = report("--fail-on=poor", FAIR)
ok(r.returncode == 0 and not r.stderr, "a fair run passes --fail-on=poor", (r.returncode, r.stderr))
r = report("--fail-on=fair", FAIR)
ok(r.returncode == 4 and "clock_read_ns fair:" in r.stderr,
   "and fails --fail-on=fair, naming the fair item", (r.returncode, r.stderr))
ok(r.stderr.count("\n") == 1, "only that item (tsc_invariant under TCG is no failure)", r.stderr)

r = report("--fail-on=unsafe", POOR)
ok(r.returncode == 4 and "tsc=reliable not safe" in r.stderr and "clock_read_ns" not in r.stderr,
   "--fail-on=unsafe fails on `not safe`, and on nothing else", (r.returncode, r.stderr))
r = report("--fail-on=unsafe,fair,poor", HOST)
ok(r.returncode == 0 and not r.stderr, "a run with good items and `unknown` passes every level",
   (r.returncode, r.stderr))
r = report("--fail-on=poor,unsafe", POOR)
ok(r.returncode == 4 and r.stderr.count("report: --fail-on:") == 2, "levels add up", r.stderr)
r = report("--fail-on=poor", HOST, POOR)
ok(r.returncode == 4 and r.stderr.count("report: --fail-on:") == 1,
   "of two runs, the one that reached the level fails the whole", r.stderr)

prom = os.path.join(tmp, "gate.prom")
r = report("--fail-on=poor", "--textfile=" + prom, POOR)
ok(r.returncode == 4 and os.path.getsize(prom) > 0, "--textfile: written, and the gate's 4 too",
   (r.returncode, r.stderr))

for bad in ("bad", "", "poor,", "Poor"):
    r = report("--fail-on=" + bad, POOR)
    ok(r.returncode == 2, "--fail-on=%r is bad usage" % bad, r.returncode)

r = report("--help")
ok(re.search(r"^  --fail-on ", r.stdout, re.M) and re.search(r"^  4: --fail-on", r.stdout, re.M),
   "--help has the option and exit status 4 (the man page is made from it)")

# make run's end (tools/run.sh calls it after the boot)
after = os.path.join(ROOT, "tools", "after-run.sh")


def after_run(log, fail_on):
    env = dict(os.environ, RESULTS_DIR=os.path.join(tmp, "results"), TP_REPORT=TP_REPORT)
    env.pop("FAIL_ON", None)
    if fail_on is not None:
        env["FAIL_ON"] = fail_on
    copy = os.path.join(tmp, os.path.basename(log))
    shutil.copy(log, copy)
    return subprocess.run(["sh", after, "0", copy], capture_output=True, text=True, env=env,
                          cwd=tmp)


r = after_run(POOR, None)
ok(r.returncode == 0, "after-run.sh without FAIL_ON: a run that ended is 0", r.stderr)
r = after_run(POOR, "poor")
ok(r.returncode == 4 and "clock_read_ns poor" in r.stderr, "FAIL_ON=poor: 4, the item on stderr",
   (r.returncode, r.stderr))
r = after_run(FAIR, "poor")
ok(r.returncode == 0, "FAIL_ON=poor on a fair run: 0", (r.returncode, r.stderr))

# JUnit: the emulator's tsc_invariant skipped, the poor clock read failed
r = report("--format=junit", POOR)
inv = re.search(r'<testcase classname="verdict" name="tsc_invariant">\s*<(\w+) message="([^"]*)"',
                r.stdout)
ok(inv and inv.group(1) == "skipped" and "emulator" in inv.group(2),
   "JUnit: tsc_invariant under TCG is skipped, saying emulator", inv and inv.groups())
ok(re.search(r'name="clock_read_ns">\s*<failure', r.stdout), "JUnit: the poor clock read fails")
shutil.rmtree(tmp)
done()
