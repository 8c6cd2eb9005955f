#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel-variant matrix with two variants, hz100 and hz1000: two kernel
builds (cached after the first run), two boots, one comparison report. Slow:
run by `make test-all`, not `make test`.

Checks that the report compares both, that the run records name kernels with
HZ 100 and 1000, and that the kernels really tick at that rate. ITIMER_VIRTUAL
counts user time charged by the scheduler tick and is checked only from the
tick, so at a 100 us request it fires once per tick: its actual interval
(measured on the thread's CPU clock) is the tick, 10000 us at HZ=100 and
1000 us at HZ=1000 (docs/variants.md).

Under TCG on a busy host the guest loses ticks: QEMU delivers one timer
interrupt for several missed periods and the kernel charges one tick for
them, so CPU time runs ahead of charged user time and every ITIMER_VIRTUAL
interval stretches by the same factor. The 10000 us request measures that
factor in the same boot (10000 us of charged time against its actual CPU
time), so the test divides it out: tick = actual(100) / actual(10000) x 10000.
On hardware or an idle host the factor is 1 and this is the raw figure.

TP_MATRIX_REUSE=1 checks the logs and report already in build/matrix without
running the matrix again (for working on the checks).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

VARIANTS = {"hz100": 100, "hz1000": 1000}
APPEND = "timeprobe.profile=quick timeprobe.probes=itimer timeprobe.itimer-us=100,10000"
OUT = os.path.join(BUILD, "matrix")
# Bands around the tick, for the tick seen through the loss factor and for
# the raw figure (never well below the tick: a signal per tick at most).
TICK_LOW, TICK_HIGH = 0.6, 1.6
RAW_LOW = 0.5

cmd = ["make", "-C", ROOT, "--no-print-directory", "matrix", "B=build",
       "VARIANTS=" + " ".join(VARIANTS), "MATRIX_APPEND=" + APPEND]
diag("running: make " + " ".join(cmd[4:]))
if os.environ.get("TP_MATRIX_REUSE") == "1":
    diag("TP_MATRIX_REUSE=1: checking the existing build/matrix")
    status, output = 0, ""
else:
    # Progress (the first run builds two kernels) as diagnostics; the rest kept.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace")
    output = []
    for line in p.stdout:
        output.append(line)
        if line.startswith(("matrix:", "kernel:", "kernel/build.sh:")):
            diag(line.rstrip())
    status = p.wait()
    output = "".join(output)
    ok(status == 0, "make matrix exited with status 0", output[-3000:])

report_path = os.path.join(OUT, "report.md")
report = open(report_path).read() if os.path.exists(report_path) else ""
ok(report != "", "build/matrix/report.md was written", output[-2000:])
for v in VARIANTS:
    ok(v in report, "the report names %s" % v, report[:1500])
ok("ITIMER_VIRTUAL" in report, "the report compares the ITIMER_VIRTUAL figures", report[:1500])
plots = os.path.join(OUT, "plots")
ok(os.path.isdir(plots) and len(os.listdir(plots)) > 0, "plots written to build/matrix/plots/")

itimer_probe = os.path.exists(os.path.join(ROOT, "userland", "probes", "itimer.c"))
floors = {}
for v, hz in VARIANTS.items():
    log = os.path.join(OUT, v + ".log")
    text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    ok(text != "", "%s: serial log %s is there" % (v, os.path.relpath(log, ROOT)))
    suite = check_suite(text, v + ": ")
    run = suite[0] if suite else {}
    ok(run.get("variant") == v, "%s: run record names variant %s" % (v, v), run.get("variant"))
    ok(run.get("kernel_hz") == hz, "%s: run record says kernel_hz %d" % (v, hz), run.get("kernel_hz"))
    ok(APPEND in (run.get("cmdline") or ""), "%s: booted with the matrix's options" % v,
       run.get("cmdline"))

    virt = [r for r in suite if r.get("probe") == "itimer" and r.get("timer") == "ITIMER_VIRTUAL"]
    for r in virt:
        if r["type"] == "result":
            diag("%s: ITIMER_VIRTUAL %d us, load %d: actual %.0f us (%d signals)"
                 % (v, r["requested_us"], r.get("load", 0), r["actual_us"], r.get("signals", 0)))
    if not itimer_probe or not [r for r in suite if r.get("probe") == "itimer"]:
        ok(True, "%s: ITIMER_VIRTUAL floor # SKIP the itimer probe wrote no records "
           "(not in this build yet)" % v)
        continue
    tick_us = 1e6 / hz

    def virt_at(req):
        return [r for r in virt if r["type"] == "result" and r.get("requested_us") == req
                and r.get("load", 0) == 0]
    at100, at10000 = virt_at(100), virt_at(10000)
    raw = at100[0]["actual_us"] if at100 else None
    ok(raw is not None and raw >= RAW_LOW * tick_us,
       "%s: ITIMER_VIRTUAL at 100 us is not faster than the tick: actual %s us, tick %.0f us"
       % (v, "%.0f" % raw if raw is not None else "-", tick_us),
       [r for r in virt if r.get("requested_us") == 100])
    seen = None
    if raw is not None and at10000 and at10000[0]["actual_us"] > 0:
        loss = at10000[0]["actual_us"] / 10000.0
        seen = raw / loss
        diag("%s: CPU time per charged user time x%.2f (ticks lost when > 1), tick seen %.0f us"
             % (v, loss, seen))
    floors[v] = seen
    ok(seen is not None and TICK_LOW * tick_us <= seen <= TICK_HIGH * tick_us,
       "%s: ITIMER_VIRTUAL at 100 us fires once per tick: %s us per signal, tick %.0f us"
       % (v, "%.0f" % seen if seen is not None else "-", tick_us),
       [r for r in virt if r.get("requested_us") in (100, 10000)])

if len(floors) == 2 and all(floors.values()):
    ratio = floors["hz100"] / floors["hz1000"]
    ok(ratio >= 5, "the ITIMER_VIRTUAL floor at HZ=100 is well above HZ=1000's (ratio %.1f, "
       "10 expected)" % ratio)
done()
