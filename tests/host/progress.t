#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: a probe's run past 10 s, and its progress lines, timed here; run alone (tools/prove-all.sh)
# Where a host run's output goes (README, "Under a full OS"): on a terminal
# (a pty here) the tables and progress, the records in a file named at the
# end; with stdout redirected, everything in the file as the appliance's
# serial log has it and progress on stderr, plain lines every 5 s of a
# longer probe. Either file reads completely in tp-report.
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BUILD, diag, done, ok, records, timing  # noqa: E402

BIN = os.path.join(BUILD, "timeprobe")
REPORT = os.path.join(BUILD, "tp-report")
if not os.access(BIN, os.X_OK) or not os.access(REPORT, os.X_OK):
    print("1..0 # SKIP build/timeprobe or build/tp-report missing (make userland report)")
    sys.exit(0)
tmp = tempfile.mkdtemp(prefix="tp-progress.")
EXPECTED = re.compile(r"timeprobe: 1 probe, profile quick, expected ~\d+:\d\d in all")


def in_pty(args):
    """args run with stdout and stderr on a pty; what the terminal got."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(tmp)
        os.execv(args[0], args)
    out = b""
    while True:
        r, _, _ = select.select([fd], [], [], 120)
        if not r:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def report_reads(path):
    r = subprocess.run([REPORT, path], capture_output=True, text=True)
    return r.returncode == 0 and ("vdso-check" in r.stdout or "itimer" in r.stdout)


def file_records(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return records(f.read())[0]


try:
    # a terminal: itimer runs ~3 s, long enough for in-place lines, whole
    # (in rounds each is about a second: tests/host/rounds.t has their count)
    rc, term = in_pty([BIN, "run", "--profile=quick", "--probes=itimer", "--rounds=1"])
    ok(rc == 0, "on a terminal: exit 0 (got %d)" % rc, term[-500:])
    ok(EXPECTED.search(term), "the terminal shows the expected total", term[:500])
    ok("TP1 {" not in term, "the terminal shows no record")
    ok("== summary ==" in term, "the terminal shows the tables")
    ok(re.search(r"\r\[1/1\] itimer 0:0\d of ~\d+:\d\d\x1b\[K", term),
       "progress in place: '\\r[1/1] itimer 0:0N of ~M:SS' and the rest of the line wiped")
    m = re.search(r"timeprobe: records in (timeprobe-\d{8}-\d{6}(-\d+)?\.tp1) ", term)
    ok(m, "the records file's name said at the end", term[-300:])
    if m:
        recs = file_records(os.path.join(tmp, m.group(1)))
        types = [r.get("type") for r in recs]
        ok(types[:1] == ["run"] and types[-1:] == ["end"], "the file holds the records, run to end",
           types[:3])
        with open(os.path.join(tmp, m.group(1))) as f:
            ok(all(l.startswith("TP1 ") for l in f), "and only records")
        ok(report_reads(os.path.join(tmp, m.group(1))), "tp-report reads it")

    # redirected: the documented capture
    log, err = os.path.join(tmp, "x.log"), os.path.join(tmp, "x.err")
    before = set(os.listdir(tmp))
    with open(log, "w") as o, open(err, "w") as e:
        rc = subprocess.run([BIN, "run", "--profile=quick", "--probes=vdso-check"], stdout=o,
                            stderr=e, cwd=tmp).returncode
    with open(err) as f:
        errtext = f.read()
    with open(log) as f:
        logtext = f.read()
    ok(rc == 0, "redirected: exit 0 (got %d)" % rc)
    ok(EXPECTED.search(errtext), "progress (the expected total) on stderr", errtext)
    ok("TP1 " not in errtext, "no record on stderr")
    recs = records(logtext)[0]
    ok([r["type"] for r in recs][-1:] == ["end"] and "== summary ==" in logtext,
       "x.log: records to the end record, and the tables")
    ok(report_reads(log), "tp-report reads x.log")
    ok(set(os.listdir(tmp)) == before | {"x.log", "x.err"} or
       set(os.listdir(tmp)) == before, "no records file made when stdout is not a terminal",
       sorted(set(os.listdir(tmp)) - before))

    # --records=FILE beside a redirect; never over a file
    rec = os.path.join(tmp, "r.tp1")
    p = subprocess.run([BIN, "run", "--profile=quick", "--probes=vdso-check", "--records=" + rec],
                       capture_output=True, text=True)
    ok(p.returncode == 0 and records(p.stdout)[0] and file_records(rec)[-1]["type"] == "end",
       "--records=FILE: the records there too, stdout as before")
    size = os.path.getsize(rec)
    p = subprocess.run([BIN, "run", "--profile=quick", "--probes=vdso-check", "--records=" + rec],
                       capture_output=True, text=True)
    ok(p.returncode == 2 and "never replaced" in p.stderr and os.path.getsize(rec) == size,
       "--records=FILE that exists: exit 2, the file kept", p.stderr)

    # plain progress lines on a stderr that is not a terminal: one per 5 s of
    # the probe, on its own grid (0:05, 0:10), so a 12 s drift has two and
    # nothing of it is silent past 5 s (issue 51); their count is asserted,
    # the time between them is the lines' own stamps
    t0 = time.monotonic()
    p = subprocess.run([BIN, "run", "--profile=quick", "--probes=drift", "--drift-s=12"],
                       capture_output=True, text=True, timeout=120)
    secs = time.monotonic() - t0
    lines = [l for l in p.stderr.splitlines() if l.startswith("[1/1] drift ")]
    ok(p.returncode == 0 and len(lines) >= 2 and
       re.fullmatch(r"\[1/1\] drift 0:0[5-9] of ~0:12", lines[0]) and
       re.fullmatch(r"\[1/1\] drift 0:1\d of ~0:12", lines[1]),
       "drift 12 s: two plain progress lines on stderr, '[1/1] drift 0:05 of ~0:12' and "
       "'[1/1] drift 0:10 of ~0:12'", p.stderr)
    ok("\r" not in p.stderr, "plain lines: no carriage return")
    timing(secs > 10, "the probe ran past 10 s", "%.1f s" % secs)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
done()
