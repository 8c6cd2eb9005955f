#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tp-report --history (docs/history.md), on histories made of real
committed captures (tools/bench/history-data.py, CRCs redone): 30 quiet runs
of one machine (aa-host4-*, aa-host3-1..5) where runs 21 to 30 read one
clock 1.3x dearer and boot another kernel release name run 21, that figure
and the kernel change, and nothing else; the same 30 unchanged name no
change; with the busy capture aa-host6-3-a (beside stress-ng, other work 50 %)
as run 14 still none, and that run is said busy. --format=json gives the
change to a real parser; --machine keeps one machine of two; --html draws one
plot for the one changed figure; a hostile machine id never reaches the
terminal or the page unescaped; the boots under TCG of fresh-tcg5-* say so once."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, ok, done, write_log, tp_report, test_data  # noqa: E402

REPORT = tp_report()
DATA = test_data()
GEN = os.path.join(ROOT, "tools", "bench", "history-data.py")
FIG = "clocks:clock_gettime(CLOCK_MONOTONIC):path=vdso:ns_per_call"
QUIET = sorted(glob.glob(os.path.join(DATA, "aa-host4-*.log"))) + \
	sorted(glob.glob(os.path.join(DATA, "aa-host3-[1-5]-*.log")))
BUSY = os.path.join(DATA, "aa-host6-3-a.log")
tmp = tempfile.mkdtemp(prefix="timeprobe-history.")


def history(name, captures, *opts):
	d = os.path.join(tmp, name)
	subprocess.run([sys.executable, GEN, d, "30"] + list(opts) + captures, check=True)
	return d


def report(*args):
	return subprocess.run([REPORT, "--history"] + list(args), capture_output=True, text=True)


def answer(out):
	return out.split("\nSeries, machine ", 1)[0]


try:
	step = history("step", QUIET, "--figure=" + FIG, "--scale=1.3", "--from=21",
		       "--kernel=6.19.1-fc")
	p = report(step)
	a = answer(p.stdout)
	lines = [ln for ln in a.splitlines() if ln.startswith("  run ")]
	ok(p.returncode == 0 and a.startswith("History: 30 runs of 1 machine from 30 files; 1 change found"),
	   "x1.3 from run 21: one change found", a + p.stderr[-500:])
	ok(len(lines) == 1 and lines[0].startswith("  run 21 (") and
	   re.search(r"clock_gettime\(CLOCK_MONOTONIC\) \S+ path=vdso[^:]*: ns_per_call 1\.30x dearer", lines[0]),
	   "it names run 21 and that clock read, 1.30x dearer", lines)
	ok(lines and lines[0].endswith("; with it: kernel 6.18.44-fc-v1252 → 6.19.1-fc"),
	   "and the kernel release that changed with it, and no other field", lines)
	series = p.stdout.split("\nSeries, machine ", 1)[-1].splitlines()
	ok(sum(" | " in s for s in series) == 1, "one series is cut by a change, the rest are not",
	   [s[:160] for s in series if " | " in s])

	p = report("--format=json", step)
	doc = json.loads(p.stdout) if p.returncode == 0 else {}
	ch = doc.get("machines", [{}])[0].get("changes", [])
	ok(len(ch) == 1 and ch[0]["run"] == 21 and len(ch[0]["figures"]) == 1 and
	   ch[0]["figures"][0]["key"] == "ns_per_call" and abs(ch[0]["figures"][0]["ratio"] - 1.3) < 0.02 and
	   ch[0]["with"] == [{"field": "kernel", "before": "6.18.44-fc-v1252", "after": "6.19.1-fc"}],
	   "--format=json: the change for a parser (run, figure, ratio, the kernel field)", p.stdout[:800])

	html = os.path.join(tmp, "html")
	p = report("--html=" + html, step)
	page = open(os.path.join(html, "index.html")).read() if p.returncode == 0 else ""
	imgs = re.findall(r'<img alt="" src="(history-\d+\.png)">', page)
	ok(p.stdout == html + "/index.html\n" and len(imgs) == 1 and "run 21 (" in page,
	   "--html: the answer and one plot, for the one changed figure", p.stdout + p.stderr[-500:])
	if shutil.which("gnuplot"):
		ok(imgs and os.path.getsize(os.path.join(html, imgs[0])) > 1000, "gnuplot drew it")

	p = report(history("same", QUIET))
	ok(p.returncode == 0 and "; 0 changes found" in p.stdout.splitlines()[0] and
	   "  no change beyond the figures' between-run noise" in answer(p.stdout),
	   "30 quiet runs, nothing changed: no change", answer(p.stdout)[:800])

	busy = QUIET[:13] + [BUSY] + QUIET[13:29]
	p = report(history("busy", busy))
	a = answer(p.stdout)
	ok(p.returncode == 0 and "; 0 changes found" in a.splitlines()[0], "one busy run among 30: no change",
	   a[:800])
	ok(re.search(r"^  run 14 \(\S+, \S+m01-r014\.log\): busy, left out of every series "
		     r"\(hogs: other work 50 % of CPUs\)$", a, re.M), "that run is said busy, as the comparison says it",
	   a[:800])

	tcg = sorted(glob.glob(os.path.join(DATA, "fresh-tcg5-*.log")))
	p = report(*tcg)
	ok(p.returncode == 0 and len(tcg) > 10 and
	   re.search(r"^History: %d runs of 1 machine .*\n(.*\n)*  every run: TCG$" % len(tcg), answer(p.stdout),
		     re.M),
	   "%d boots under TCG: the emulator said once, as the comparison says it" % len(tcg), answer(p.stdout)[:600])

	two = history("two", QUIET, "--machines=2")
	p = report("--machine=m02", two)
	ok(p.returncode == 0 and p.stdout.startswith("History: 30 runs of 1 machine from 60 files") and
	   "\nMachine m02 " in p.stdout and "m01" not in answer(p.stdout),
	   "--machine=m02: that machine's 30 runs of the 60", p.stdout[:300])

	evil = [{"type": "run", "version": "0.1.0", "records_version": 1, "env": "os",
		 "kernel": "k\x1b[2J", "machine_id": "m\x1b]0;owned\x07<b>'",
		 "start": "2026-12-03T10:%02d:00Z" % i} for i in range(16)]
	files = [write_log(os.path.join(tmp, "evil-%d.log" % i),
			   [evil[i], {"type": "result", "probe": "clocks", "name": "n'<b>",
				      "path": "vdso", "ns_per_call": 12.5 if i < 8 else 40}])
		 for i in range(16)]
	p = report(*files)
	ok(p.returncode == 0 and "\x1b" not in p.stdout and "\x07" not in p.stdout and "\\x1b" in p.stdout,
	   "control characters from records are written out, never sent", repr(p.stdout[:400]))
	p = report("--html=" + os.path.join(tmp, "evil"), *files)
	page = open(os.path.join(tmp, "evil", "index.html")).read() if p.returncode == 0 else ""
	ok(page and "<b>" not in page and "\x1b" not in page and 'src="history-0000.png"' in page,
	   "record text on the page and its plot's title is escaped", page[:600] + p.stderr[-400:])
finally:
	shutil.rmtree(tmp, ignore_errors=True)
done()
