#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fleet leads with its answer (docs/fleet.md): 1 000 runs made from one
committed capture with tools/tp1rec.py, each its own machine, node-0500's
CLOCK_MONOTONIC vDSO read cost (one figure) times 10. The text names that
outlier (machine, figure, ratio 10x, its run an outlier in 1 figure)
within its first 24 lines, before the per-figure table; the --html page's
first table holds it, and the page plots only figures with an outlier
and the verdict items: at most 12 000 px of plots (their count times the
height each <img> declares) and 5 MB for the whole folder. Time is a TAP
diagnostic. Only the capture's clocks records and those of the run itself
(run, verdict, readiness, end) are copied: the rest would only slow it."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tp1 import ROOT, done, ok, timing, tp_report, test_data  # noqa: E402
from tp1rec import record_line, records  # noqa: E402

TP_REPORT = tp_report()
CAPTURE = os.path.join(test_data(), "aa-host3-1-a.log")
RUNS, BAD, SLOW = 1000, 500, 10
tmp = tempfile.mkdtemp(prefix="tp-fleet-answer.")


def is_slowed(r):
    return (r.get("type") == "result" and r.get("probe") == "clocks" and r.get("path") == "vdso"
            and r.get("name") == "clock_gettime(CLOCK_MONOTONIC)")


try:
    # the run's own records and the clocks probe's: what the fleet reads, a third of the bytes
    recs = [r for r in records(open(CAPTURE, encoding="utf-8", errors="replace").read())[0]
            if (r.get("probe") or r.get("for_probe") or "clocks") == "clocks"]
    assert sum(map(is_slowed, recs)) == 1, "the capture has one CLOCK_MONOTONIC vdso result"
    run_at = next(i for i, r in enumerate(recs) if r["type"] == "run")
    rest = "\n".join(record_line(r) for r in recs[run_at + 1:]) + "\n"
    fleet = os.path.join(tmp, "fleet")
    os.mkdir(fleet)
    for i in range(1, RUNS + 1):
        name = "node-%04d" % i
        with open(os.path.join(fleet, name + ".log"), "w") as f:
            f.write(record_line(dict(recs[run_at], machine=name)) + "\n")
            if i != BAD:
                f.write(rest)
                continue
            f.write("\n".join(record_line(dict(r, ns_per_call=r["ns_per_call"] * SLOW)
                                          if is_slowed(r) else r)
                              for r in recs[run_at + 1:]) + "\n")

    t0 = time.monotonic()
    p = subprocess.run([TP_REPORT, "--fleet", fleet], capture_output=True, text=True)
    timing(time.monotonic() - t0 < 60, "--fleet over 1 000 runs in under 60 s",
           "%.1f s" % (time.monotonic() - t0))
    head = p.stdout.splitlines()[:24]
    row = [l for l in head if l.lstrip().startswith("node-0500 ")]
    ok(p.returncode == 0 and p.stdout.startswith("Fleet: 1000 runs from 1000 files, 1 group"),
       "--fleet reads 1 000 runs into one group", p.stdout[:200] + p.stderr[-400:])
    ok(len(row) == 1 and re.search(r"clock_gettime\(CLOCK_MONOTONIC\) .*path=vdso.*: ns_per_call +"
                                   r"\S+ +ns +10x +1 +1 figure +\S*node-0500\.log$", row[0]),
       "the outlier in the first 24 lines: machine, figure, 10x its group, 1 figure", "\n".join(head))
    ok(re.search(r"^Outliers, 1 ", p.stdout, re.M) and
       p.stdout.find("Outliers, 1 ") < p.stdout.find("Each figure"),
       "one outlier, said before the per-figure table")

    html = os.path.join(tmp, "html")
    p = subprocess.run([TP_REPORT, "--fleet", "--html=" + html, fleet], capture_output=True,
                       text=True)
    page = open(os.path.join(html, "index.html")).read() if p.returncode == 0 else ""
    first = page.split("</table>")[0]
    ok("<table>" in first and "node-0500" in first and re.search(r"<td class=\"num\">10x</td>", first)
       and page.find("<table>") < page.find("<img"),
       "--html: the first table is the outliers', node-0500 10x in it, before any plot",
       page[:800] + p.stderr[-400:])
    heights = [int(h) for h in re.findall(r'<img [^>]*height="(\d+)"', page)]
    imgs = len(re.findall(r"<img ", page))
    verdict = len(re.findall(r'<img alt="verdict ', page))
    ok(imgs == len(heights) and imgs == 1 + verdict and verdict > 0,
       "--html plots the one figure with an outlier and the %d verdict items, each its height "
       "declared" % verdict, (imgs, len(heights), verdict))
    ok(sum(heights) <= 12000, "--html: %d px of plots, at most 12 000" % sum(heights))
    size = sum(os.path.getsize(os.path.join(html, f)) for f in os.listdir(html))
    ok(size <= 5 * 1000 * 1000, "--html: %d bytes in all, at most 5 MB" % size)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
done()
