#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/qemu_watch.py, the launcher's watcher: what output allows how much
silence, and what it does with a guest that stops (stand-in commands)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
import qemu_watch as qw  # noqa: E402

W = os.path.join(ROOT, "tools", "qemu_watch.py")

# --- the allowance, fed by hand (no clock involved) ---
M = qw.LIMIT_MARGIN_S
w = qw.Watch(30)
w.feed(b"Linux version 6.1\n", 0)
ok(w.verdict(30, 0) is None, "plain output: the base allowance", w.verdict(30, 0))
ok(w.verdict(31, 0) is not None and "no serial output for 31 s" in w.verdict(31, 0),
   "silence past the allowance is a verdict", w.verdict(31, 0))
w.feed(b"timeprobe: probe noise started, li", 100)
w.feed(b"mit 480 s\n", 100)
ok(w.verdict(100 + 480 + M, 100) is None,
   "a probe's start line split across reads lends its limit and the margin", w.verdict(100 + 480 + M, 100))
bad = w.verdict(101 + 480 + M, 100) or ""
ok("no serial output for" in bad and "'probe noise started, limit 480 s' was 541 s ago" in bad,
   "past them, silence is a verdict that names the last announcement", bad)
w.feed(b"TP1 {\"type\":\"result\",\"probe\":\"noise\"} *00000000\n", 200)
ok(w.verdict(100 + 480 + M, 200) is None, "and output within the probe does not shorten it")
w.feed(b"timeprobe: probe yield started, limit 5 s\n", 300)
ok(w.verdict(300 + 5 + M + 1, 300) is not None, "the next probe's limit replaces the last one's")
w.feed(b"timeprobe: probe tsc started, limit 100 s\n", 400)
w.feed(b'TP1 {"type":"end","records":3} *00000000\n', 401)
ok(w.verdict(432, 401) is not None, "the end record closes the last probe's limit", w.verdict(432, 401))
w.feed(b"reboot: Power down\n", 500)
ok(w.verdict(531, 500) is not None, "a start line seen before is not counted again")
w2 = qw.Watch(30)
w2.feed(b"timeprobe: probe x started, limit 99999999 s\n", 0)
ok(w2.verdict(31, 0) is not None, "an absurd limit (too many digits) is not taken")
w2.feed(b'TP1 {"type":"stub_cmdline","cmdline":"a\\rtimeprobe: b, limit 999 s"} *0\n', 100)
ok(w2.verdict(131, 100) is not None, "an announcement inside a record's text is not one")

# The stub's announcement before calibrating (boot/tsc.c) and the suite's
# before the hold (userland/main.c): one rule, as both print it.
w5 = qw.Watch(60)
w5.feed(b"timeprobe: stub 0.1.0\r\ntimeprobe: calibrating the TSC, limit 601 s\r\n", 10)
ok(w5.verdict(10 + 601 + M, 10) is None, "the stub's calibration limit is honoured",
   w5.verdict(10 + 601 + M, 10))
ok(w5.verdict(10 + 601 + M + 1, 10) is not None, "and ends with its margin")
w5.feed(b'TP1 {"type":"calib_summary","source":"stub"} *0\r\n', 200)
ok(w5.verdict(261, 200) is None, "calibration records within the limit do not end it")
w6 = qw.Watch(60)
w6.feed(b'TP1 {"type":"end","records":3} *0\n', 0)
w6.feed(b"timeprobe: done; holding this screen, then powering off, limit 3600 s\n", 1)
ok(w6.verdict(1 + 3600, 1) is None, "the announced hold after the end record is honoured")
ok(w6.verdict(1 + 3600 + M + 1, 1) is not None, "and a guest silent past it is stopped")
w3 = qw.Watch(30)
w3.feed(b"KVM internal error. Suberror: 1\n", 100)
ok(w3.verdict(100, 100) is None and "KVM internal error" in (w3.verdict(100 + qw.DUMP_GRACE_S, 100) or ""),
   "a KVM internal error is a verdict once QEMU has printed its dump")

# The suite's own announcement, as build/timeprobe prints it (common/announce.c).
if os.path.exists(BIN):
    out = run_probe("yield")
    lines = [l for l in out.human if "limit" in l]
    ok(lines and all(qw.ANNOUNCE.match(l.encode()) for l in lines),
       "the suite's probe start lines are announcements the watcher reads", lines)
else:
    skip("the suite's announcement", "no %s (make userland)" % BIN)

# Before the guest's first output: one waiting note per WAIT_NOTE_S s (clock fed by hand).
import io  # noqa: E402
N = qw.WAIT_NOTE_S
saved, sys.stderr = sys.stderr, io.StringIO()
counts = [qw.wait_note(0, N - 0.1, 0), qw.wait_note(0, N, 0), qw.wait_note(0, N + 1, 1),
          qw.wait_note(0, 2 * N, 1)]
notes, sys.stderr = sys.stderr.getvalue(), saved
ok(counts == [0, 1, 1, 2] and notes.count("no output from the guest yet") == 2
   and "%d s after QEMU started" % N in notes,
   "a waiting note at each %d s before the first output, none between" % N, (counts, notes))

# --- whole runs with stand-in commands ---
def watch(script, *args, timeout=60):
    return subprocess.run([sys.executable, W, *args, "--", "sh", "-c", script],
                          capture_output=True, timeout=timeout)


r = watch("echo hello; exit 3")
ok(r.returncode == 3 and r.stdout == b"hello\n", "a command that ends: its output and status pass through",
   r)
r = watch("echo line one; echo line two; exec sleep 600", "--silence", "2")
ok(r.returncode == qw.EXIT_STOPPED, "a silent command is ended with status 125", r.returncode)
err = r.stderr.decode()
ok("no serial output for" in err and "qemu-run: | line two" in err, "the reason and the last lines on stderr",
   err)
r = watch("echo 'timeprobe: done; holding this screen, then powering off, limit 3 s'; sleep 4; echo bye",
          "--silence", "1")
ok(r.returncode == 0 and r.stdout.endswith(b"bye\n"),
   "an announced hold silent past the base allowance ends normally", r)
r = watch("echo KVM internal error. Suberror: 1; exec sleep 600", "--silence", "300")
ok(r.returncode == qw.EXIT_STOPPED and "KVM internal error" in r.stderr.decode(),
   "a KVM internal error ends the command long before the silence allowance", r.stderr)
r = watch("echo '[ 9.1] Kernel panic - not syncing: Too many boot env vars at k30'; "
          "echo '---[ end Kernel panic'; exec sleep 600", "--silence", "300")
ok(r.returncode == qw.EXIT_PANIC and "kernel panicked" in r.stderr.decode(),
   "a kernel panic ends the command at once with status 122", r.stderr)
r = watch("echo 'Kernel panic - not syncing: Attempted to kill init!'; exit 0")
ok(r.returncode == qw.EXIT_PANIC, "a panic then a reboot that ends QEMU (-no-reboot, status 0): "
   "still 122", r.returncode)
r = watch("while :; do echo tick; sleep 0.2; done", "--silence", "60", "--timeout", "2")
ok(r.returncode == qw.EXIT_TIMEOUT and "overall limit of 2 s" in r.stderr.decode(),
   "a chatty command past the overall limit: status 124", r.stderr)
r = watch("echo dying; kill -ABRT $$")
ok(r.returncode == 128 + 6, "a command ended by a signal: 128 + its number, as a shell says (not 250)",
   r.returncode)
r = watch("echo 'error: failed to set MSR'; exit 1", "--started", "BdsDxe:")
ok(r.returncode == qw.EXIT_NOT_STARTED and "before printing 'BdsDxe:'" in r.stderr.decode()
   and "qemu-run: | error: failed to set MSR" in r.stderr.decode(),
   "--started: a failure before the mark is status 123, said with the last lines", r.stderr)
r = watch("echo KVM internal error. Suberror: 1; exec sleep 600", "--started", "BdsDxe:")
ok(r.returncode == qw.EXIT_NOT_STARTED, "--started: so is an internal error before it", r.stderr)
r = watch("echo BdsDxe: loading; exit 3", "--started", "BdsDxe:")
ok(r.returncode == 3 and not r.stderr, "--started: after the mark, the command's own status", r.stderr)
log = os.path.join(BUILD, "tests", "qemu-watch.log")
r = watch("echo hi; sleep %d; echo bye" % (N + 1))
ok(r.returncode == 0 and b"no output from the guest yet" not in r.stderr,
   "once the guest has spoken, its silence gets no waiting note", r.stderr)
os.makedirs(os.path.dirname(log), exist_ok=True)
r = watch("printf 'a\\rb\\n'", "--log", log)
ok(r.returncode == 0 and open(log, "rb").read() == b"a\rb\n" and r.stdout == b"",
   "--log keeps the bytes exactly, and nothing on stdout")
done()
