#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The detection study of docs/history.md: how often `tp-report --history`
finds a x1.1 step in a figure whose between-run noise is under 2 %, and how
often it names a change where there is none.

    tools/bench/history-study.py [SERIES]    (default 20; needs build/tp-report)

The figure: clocks' clock_gettime(CLOCK_MONOTONIC) through the vDSO,
ns_per_call_min, whose between-run term in tools/report/floors.tsv (env os)
is sd 0.0185 of its log. Each series is 20 runs of the committed capture
tests/data/aa-host4-1-a.log (tools/bench/history-data.py), that figure
drawn as its value times exp(N(0, 0.0185)), seed k for series k: SERIES
series x1.1 from run 11 (10 runs before, 10 after), SERIES without a step.
A step is found when the series has a change of that figure at run 11 (or,
counted apart, at run 10 or 12); a false alarm is any change in a series
without one."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
REPORT = os.environ.get("TP_REPORT", os.path.join(ROOT, "build", "tp-report"))
# tests/data, its sets of runs extracted (tests/lib/testdata.sh)
CAPTURE = os.path.join(ROOT, subprocess.run(["sh", os.path.join(ROOT, "tests", "lib", "testdata.sh")], check=True,
                                            stdout=subprocess.PIPE, text=True).stdout.strip(), "aa-host4-1-a.log")
FIG = "clocks:clock_gettime(CLOCK_MONOTONIC):path=vdso:ns_per_call_min"
SD = 0.0185


def changes(d, seed, scale):
	subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "history-data.py"), d, "20",
			"--figure=" + FIG, "--noise=%g" % SD, "--seed=%d" % seed, "--scale=%g" % scale,
			"--from=11", CAPTURE], check=True)
	out = subprocess.run([REPORT, "--history", "--format=json", d], check=True,
			     capture_output=True, text=True).stdout
	return json.loads(out)["machines"][0]["changes"]


def main():
	n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
	found = near = alarms = 0
	with tempfile.TemporaryDirectory(prefix="timeprobe-history-study.") as tmp:
		for k in range(1, n + 1):
			ch = changes(os.path.join(tmp, "step-%d" % k), k, 1.1)
			at = [c["run"] for c in ch if any(f["key"] == "ns_per_call_min" and "path=vdso" in f["result"]
							  for f in c["figures"])]
			found += 11 in at
			near += 11 not in at and (10 in at or 12 in at)
			alarms += bool(changes(os.path.join(tmp, "flat-%d" % k), 1000 + k, 1.0))
	print("x1.1 step, noise sd %.4f, 10 runs before and 10 after: found at run 11 in %d of %d series, "
	      "one run off in %d more" % (SD, found, n, near))
	print("no step, same noise, 20 runs: a change named in %d of %d series" % (alarms, n))


main()
