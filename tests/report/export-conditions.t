#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every export carries the run's conditions (emulator, hypervisor, busy)
and its tsc=reliable answer (tools/report/export_facts.c), checked per
format on committed captures: a TCG run (tcg:max, not safe), a KVM guest
(KVMKVMKVM, unknown) and a busy KVM guest (97.7 % other work, no readiness
record); a capture with no verdict record. JUnit: properties, tsc_invariant skipped under TCG; KTAP: a
"# conditions:" diagnostic; KCIDB: environment.misc; OpenMetrics:
timeprobe_tsc_reliable{answer=...} and the run's gauges, promtool-clean;
CSV: four columns; PTS: the System's Notes."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tp1 import ROOT, done, ok, skip, tp_report, test_data  # noqa: E402

TP_REPORT = tp_report()
DATA = test_data()
TCG = os.path.join(DATA, "aa-tcg2-1-a.log")
KVM = os.path.join(DATA, "aa-host3-1-a.log")
BUSY = os.path.join(DATA, "fresh-yield-stress2-1.log")


def export(fmt, *files):
    r = subprocess.run([TP_REPORT, "--format=" + fmt, *files], capture_output=True, text=True)
    ok(r.returncode == 0, "--format=%s of %s exits 0" % (fmt, " ".join(map(os.path.basename, files))),
       r.stderr)
    return r.stdout


# JUnit: the first suite's properties
for path, emu, hyp, busy, answer in ((TCG, "tcg:max", "none", "not busy", "not safe"),
                                     (KVM, "none", "KVMKVMKVM", "not busy", "unknown"),
                                     (BUSY, "none", "KVMKVMKVM", "busy", "no record")):
    x = export("junit", path)
    first = x.split("</testsuite>")[0]
    props = dict(re.findall(r'<property name="(timeprobe\.[a-z_]+)" value="([^"]*)"/>', first))
    name = os.path.basename(path)
    ok(props.get("timeprobe.emulator") == emu, "junit %s: emulator %s" % (name, emu), props)
    if hyp:
        ok(props.get("timeprobe.hypervisor") == hyp, "junit %s: hypervisor %s" % (name, hyp), props)
    ok(props.get("timeprobe.busy", "").startswith(busy + ":"), "junit %s: %s" % (name, busy), props)
    ok(props.get("timeprobe.tsc_readiness") == answer, "junit %s: tsc_readiness %s" % (name, answer),
       props)
x = export("junit", TCG)
ok(re.search(r'name="tsc_invariant">\s*<skipped message="[^"]*emulator', x) and
   not re.search(r'name="tsc_invariant">\s*<failure', x),
   "junit TCG: tsc_invariant skipped (the emulator's), not failed")
x = export("junit", os.path.join(DATA, "report-host.log"))
ok(re.search(r'<testsuite name="conditions" tests="0"', x),
   "junit without a verdict record: a suite \"conditions\" of no test carries them")

# KTAP: one diagnostic per run, after its "# run" line
k = export("ktap", TCG, KVM)
lines = k.splitlines()
diags = [l for l in lines if l.startswith("# conditions: ")]
ok(len(diags) == 2 and all(lines[lines.index(d) - 1].startswith("# run ") for d in diags),
   "ktap: a # conditions: line after each run's # run line", diags)
ok(diags and diags[0] == "# conditions: emulator tcg:max; hypervisor none; "
   "other work 0 % of CPUs (not busy); tsc=reliable not safe", "ktap TCG: its words", diags[:1])
ok(len(diags) > 1 and "hypervisor KVMKVMKVM" in diags[1] and "tsc=reliable unknown" in diags[1],
   "ktap KVM: hypervisor and answer", diags[1:])

# KCIDB: every test's environment.misc
for path, emu, hyp, busy, answer in ((TCG, "tcg:max", None, False, "not safe"),
                                     (BUSY, None, "KVMKVMKVM", True, None)):
    doc = json.loads(export("kcidb", path))
    miscs = [t["environment"]["misc"] for t in doc["tests"]]
    name = os.path.basename(path)
    ok(miscs and all(m.get("tsc_readiness") == answer for m in miscs),
       "kcidb %s: misc.tsc_readiness %s in every test" % (name, answer), miscs[:1])
    c = miscs[0].get("conditions", {}) if miscs else {}
    ok(c.get("emulator") == emu and c.get("hypervisor") == hyp and c.get("busy") is busy,
       "kcidb %s: misc.conditions" % name, c)
c = json.loads(export("kcidb", BUSY))["tests"][0]["environment"]["misc"]["conditions"]
ok(abs(c["other_busy_pct"] - 97.710772) < 1e-6, "kcidb busy: other_busy_pct as the end record says", c)

# OpenMetrics
om = export("openmetrics", TCG, KVM)
rel = re.findall(r'^timeprobe_tsc_reliable\{[^}]*answer="([^"]*)"\} 1 \d+$', om, re.M)
ok(sorted(rel) == ["not safe", "unknown"], "openmetrics: timeprobe_tsc_reliable{answer=...} per run", rel)
emu = re.findall(r'^timeprobe_run_emulated\{[^}]*env="([^"]*)"[^}]*\} (\d)', om, re.M)
ok(sorted(emu) == [("appliance", "1"), ("os", "0")], "openmetrics: timeprobe_run_emulated", emu)
virt = re.findall(r'^timeprobe_run_virtual\{[^}]*env="([^"]*)"[^}]*\} (\d)', om, re.M)
ok(sorted(virt) == [("appliance", "0"), ("os", "1")], "openmetrics: timeprobe_run_virtual", virt)
om = export("openmetrics", BUSY)
busy = re.findall(r'^timeprobe_run_other_busy_ratio\{[^}]*\} ([0-9.]+)', om, re.M)
ok(busy and abs(float(busy[0]) - 0.97710772) < 1e-9, "openmetrics: other_busy_ratio", busy)
ok("timeprobe_tsc_reliable" not in om, "openmetrics: no readiness record, no timeprobe_tsc_reliable")
promtool = shutil.which("promtool")
tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tp-export-cond.%d.prom" % os.getpid())
r = subprocess.run([TP_REPORT, "--textfile=" + tmp, TCG, KVM], capture_output=True, text=True)
if not promtool:
    skip("promtool check metrics reads the textfile", "no promtool (Debian's prometheus)")
else:
    p = subprocess.run([promtool, "check", "metrics"], stdin=open(tmp), capture_output=True, text=True)
    ok(r.returncode == 0 and p.returncode == 0 and "timeprobe_tsc_reliable{" in open(tmp).read(),
       "promtool check metrics reads the textfile with timeprobe_tsc_reliable", p.stdout + p.stderr)
os.unlink(tmp)

# CSV: four columns on every row
rows = list(csv.DictReader(io.StringIO(export("csv", TCG, KVM, BUSY))))
by_run = {}
for row in rows:
    by_run.setdefault(row["run"], set()).add(
        (row["emulator"], row["hypervisor"], row["other_busy_pct"], row["tsc_reliable"]))
ok(by_run.get("1") == {("tcg:max", "", "0", "not safe")}, "csv TCG: its four columns", by_run.get("1"))
ok(by_run.get("2") == {("", "KVMKVMKVM", "0", "unknown")}, "csv KVM: its four columns", by_run.get("2"))
ok(by_run.get("3") == {("", "KVMKVMKVM", "97.710772", "")}, "csv busy: its four columns", by_run.get("3"))

# PTS: each System's Notes
notes = re.findall(r"<Notes>([^<]*)</Notes>", export("pts", TCG, BUSY))
ok(len(notes) == 2 and "emulator tcg:max" in notes[0] and "tsc=reliable not safe" in notes[0],
   "pts TCG: Notes say emulator and answer", notes[:1])
ok(len(notes) == 2 and "(busy)" in notes[1] and "97 %" not in notes[1] and "98 % of CPUs" in notes[1],
   "pts busy: Notes say busy", notes[1:])
done()
