#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tp-report --fleet (docs/fleet.md): 200 copies of the committed host
capture as 200 machines (tools/bench/fleet-data.py), node-137's clock reads
10x: the outliers name node-137 (file and machine) and no other, with the
ratio to the group's median; --place gives node-137 the top rank and an
ordinary node the middle; 16 runs of one configuration (A/A) name no
outlier; captures of two environments make two groups; a
file that cannot be read is said and the rest reported; a hostile machine
name reaches the terminal with its control characters written out;
--place gives a signed offset a difference, not a ratio, in aligned columns. The
time and peak memory are TAP diagnostics (docs/benchmarks.md, "fleet"),
never pass/fail."""
import glob
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, ok, done, diag, timing, write_log, tp_report, test_data  # noqa: E402

REPORT = tp_report()
DATA = test_data()
HOST = os.path.join(DATA, "aa-host-1-a.log")
tmp = tempfile.mkdtemp(prefix="timeprobe-fleet.")


def report(*args):
	t0 = time.monotonic()
	p = subprocess.run([REPORT] + list(args), capture_output=True, text=True)
	return p, time.monotonic() - t0


try:
	fleet = os.path.join(tmp, "fleet")
	subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "fleet-data.py"), HOST,
			fleet, "200", "137"], check=True)
	before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
	p, secs = report("--fleet", fleet)
	rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
	out = p.stdout
	ok(p.returncode == 0 and out.startswith("Fleet: 200 runs from 200 files, 1 group"),
	   "--fleet DIR reads 200 runs into one group", out[:300] + p.stderr[-500:])
	outliers = out.split("\nOutliers", 1)[1].split("\nRuns most", 1)[0] if "\nOutliers" in out else ""
	named = set(re.findall(r"^  (node-\d+) .*/(node-\d+)\.log$", outliers, re.M))
	ok(named == {("node-137", "node-137")}, "the outliers name node-137, file and machine, and no other",
	   sorted(named)[:10])
	per_call = re.search(r"^  node-137 .*path=vdso[^:\n]*: ns_per_call +\S+ +ns +(\S+)x ", outliers,
			     re.M)
	ok(per_call and float(per_call.group(1)) == 10, "with its ratio to the median: 10x",
	   outliers[:800])
	top = out.split("\nRuns most often an outlier:\n", 1)[-1].splitlines()[:1]
	ok(top and "node-137.log (node-137)" in top[0], "node-137 leads the runs most often an outlier", top)
	timing(secs < 10, "200 runs in under 10 s", "%.2f s" % secs)
	if rss > before:
		diag("peak RSS of tp-report --fleet over 200 runs: %d KiB" % rss)

	p, _ = report("--fleet", "--place=" + os.path.join(fleet, "node-137.log"), fleet)
	row = re.search(r"^ *(\S+) +\S+ +\S+ +\S+x +ns +clocks clock_gettime\(CLOCK_MONOTONIC\)[^\n]*"
			r"path=vdso[^\n:]*: ns_per_call +\(outlier\)$", p.stdout, re.M)
	ok(p.returncode == 0 and row and float(row.group(1)) > 99,
	   "--place: node-137's clock read ranks at the top, an outlier", p.stdout[:1200])
	p, _ = report("--fleet", "--place=" + os.path.join(fleet, "node-001.log"), fleet)
	row = re.search(r"^ *(\S+) +\S+ +\S+ +(\S+)x +ns +clocks clock_gettime\(CLOCK_MONOTONIC\)[^\n]*"
			r"path=vdso[^\n:]*: ns_per_call *$", p.stdout, re.M)
	ok(p.returncode == 0 and row and 45 < float(row.group(1)) < 55 and float(row.group(2)) == 1,
	   "--place: node-001 ranks in the middle, at the median", p.stdout[:1200])

	# identical runs on an idle machine (the older aa-host-* sets ran beside other work)
	aa = sorted(sum((glob.glob(os.path.join(DATA, "aa-host%d-*.log" % k)) for k in (3, 4, 5)), []))
	p, _ = report("--fleet", *aa)
	ok(p.returncode == 0 and len(aa) >= 10 and "Outliers" not in p.stdout,
	   "A/A: %d quiet runs of one configuration (aa-host3-* to aa-host5-*) name no outlier" % len(aa),
	   p.stdout.split("Outliers", 1)[-1][:800])

	p, _ = report("--fleet", HOST, os.path.join(DATA, "aa-tcg-1-a.log"),
		      os.path.join(tmp, "missing.log"))
	ok(p.returncode == 1 and "2 groups by environment" in p.stdout and "missing.log" in p.stderr
	   and "1 file not read" in p.stdout,
	   "two environments, two groups; a missing file said, the rest reported", p.stdout[:300] + p.stderr)

	evil = [{"type": "run", "version": "0.1.0", "records_version": 1, "env": "os",
		 "kernel": "k\x1b[2J", "cpu_model": "c", "machine": "m\x1b]0;owned\x07\n",
		 "start": "2026-12-03T10:00:00Z"},
		{"type": "result", "probe": "clocks", "name": "n'<b>\x1b[31m", "clock": "CLOCK_MONOTONIC",
		 "path": "vdso", "ns_per_call": 12.5}]
	files = [write_log(os.path.join(tmp, "evil-%d.log" % i), evil) for i in range(3)]
	p, _ = report("--fleet", *files)
	ok(p.returncode == 0 and "\x1b" not in p.stdout and "\x07" not in p.stdout and "\\x1b" in p.stdout,
	   "control characters from records are written out, never sent", repr(p.stdout[:400]))

	# --place: a signed figure (an offset) gets a difference, not a ratio; every figure a rank
	offs = []
	for i, off in enumerate([-5.0, 3.0, 10.0, -2.0, 7.0]):
		offs.append(write_log(os.path.join(tmp, "off-%d.log" % i), [
			{"type": "run", "version": "0.1.0", "records_version": 1, "env": "os", "kernel": "k",
			 "cpu_model": "c", "machine": "m%d" % i, "start": "2026-12-03T10:00:00Z"},
			{"type": "result", "probe": "tscsync", "name": "offset cpu1 cpu0", "cpu_a": 1, "cpu_b": 0,
			 "offset_ns": off, "bound_ns": 20.0, "round_trip_ns": 100.0 + i}]))
	p, _ = report("--fleet", "--place=" + offs[0], *offs)
	rows = [l.split() for l in p.stdout.splitlines() if "tscsync offset" in l]
	off = next((r for r in rows if r[-1] == "offset_ns"), None)
	rt = next((r for r in rows if r[-1] == "round_trip_ns"), None)
	ok(p.returncode == 0 and off and off[:4] == ["10", "-5", "3", "-8"] and rt and rt[3].endswith("x"),
	   "--place: offset_ns -5 against 3 is -8 (a difference), round_trip_ns a ratio", p.stdout)
	ok(len(rows) == 3 and all(re.match(r"^[0-9.]+$", r[0]) for r in rows),
	   "--place: every figure has a percentile rank", rows)
	header = next((l for l in p.stdout.splitlines() if l.startswith("rank %")), "")
	body = [l for l in p.stdout.splitlines() if "tscsync offset" in l]
	ok(header and all(l.index(" ns ") == body[0].index(" ns ") for l in body),
	   "--place: the columns line up", p.stdout)

	html = os.path.join(tmp, "html")
	small = os.path.join(tmp, "small")
	subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "fleet-data.py"),
			os.path.join(DATA, "serial-q35-lava.log"), small, "4"], check=True)
	p, _ = report("--fleet", "--html=" + html, small, *files, os.path.join(fleet, "node-137.log"),
		      *[os.path.join(fleet, "node-%03d.log" % i) for i in range(1, 9)])
	page = open(os.path.join(html, "index.html")).read() if os.path.exists(html) else ""
	imgs = re.findall(r'<img alt="[^"]*" src="(fleet-\d+\.png)"', page)
	# the statistics tables: figure, n, median, p5, p95, unit, outliers
	stats = re.findall(r'<tr><td>([^<]*)</td><td class="num">\d+</td>(?:<td[^>]*>[^<]*</td>){4}'
			   r'<td class="num">(\d+)</td></tr>', page)
	want = [f for f, out in stats if int(out) or f.startswith("verdict ")]
	ok(p.returncode == 0 and stats and want and len(imgs) == len(want) and
	   p.stdout == html + "/index.html\n",
	   "--html: one plot per figure with an outlier or of the verdict (%d of %d), the page's path "
	   "on stdout" % (len(want), len(stats)), (len(imgs), len(want), p.stdout[-300:] + p.stderr[-800:]))
	ok(page.find("<h2>Outliers: ") < page.find("<img") and "node-137" in page.split("</table>")[0],
	   "--html: the page opens with the outlier table, node-137 in it", page[:600])
	if shutil.which("gnuplot"):
		ok(all(os.path.getsize(os.path.join(html, i)) > 1000 for i in imgs),
		   "gnuplot drew every one from the one script (a hostile title quoted)", p.stderr[-800:])
	ok(("n'&lt;b&gt;" in page or "n&#39;&lt;b&gt;" in page) and "<b>" not in page,
	   "record text on the page is escaped", page[:600])
finally:
	shutil.rmtree(tmp, ignore_errors=True)
done()
