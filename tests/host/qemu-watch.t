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
w = qw.Watch(30)
w.feed(b"Linux version 6.1\n", 0)
ok(w.allowed == 30 and w.verdict(10, 0) is None, "plain output: the base allowance")
ok(w.verdict(31, 0) is not None and "no serial output for 31 s" in w.verdict(31, 0),
   "silence past the allowance is a verdict", w.verdict(31, 0))
w.feed(b"timeprobe: probe noise started, li", 1)
w.feed(b"mit 480 s\n", 2)
ok(w.allowed == 480 + qw.PROBE_MARGIN_S, "a probe's start line split across reads lends its limit",
   w.allowed)
w.feed(b"TP1 {\"type\":\"result\",\"probe\":\"noise\"} *00000000\n", 3)
ok(w.allowed == 480 + qw.PROBE_MARGIN_S, "and keeps it while the probe prints", w.allowed)
w.feed(b"timeprobe: probe yield started, limit 5 s\n", 4)
ok(w.allowed == 5 + qw.PROBE_MARGIN_S, "the next probe's limit replaces the last one's", w.allowed)
w4 = qw.Watch(180)
w4.feed(b"timeprobe: probe yield started, limit 5 s\n", 0)
ok(w4.allowed == 180, "a short probe never lowers the allowance below the base", w4.allowed)
w.feed(b"timeprobe: probe tsc started, limit 100 s\n", 5)
w.feed(b'TP1 {"type":"end","records":3} *00000000\n', 6)
ok(w.allowed == 30, "the end record brings back the base allowance", w.allowed)
w.feed(b"reboot: Power down\n", 7)
ok(w.allowed == 30, "a start line seen before is not counted again", w.allowed)
w2 = qw.Watch(30)
w2.feed(b"timeprobe: probe x started, limit 99999999 s\n", 0)
ok(w2.allowed == 30, "an absurd limit (too many digits) is not taken", w2.allowed)
w3 = qw.Watch(30)
w3.feed(b"KVM internal error. Suberror: 1\n", 100)
ok(w3.verdict(100, 100) is None and "KVM internal error" in (w3.verdict(100 + qw.DUMP_GRACE_S, 100) or ""),
   "a KVM internal error is a verdict once QEMU has printed its dump")


# --- whole runs with stand-in commands ---
def watch(script, *args, timeout=60):
    return subprocess.run([sys.executable, W, *args, "--", "sh", "-c", script],
                          capture_output=True, timeout=timeout)


r = watch("echo hello; exit 3")
ok(r.returncode == 3 and r.stdout == b"hello\n", "a command that ends: its output and status pass through",
   r)
r = watch("echo line one; echo line two; sleep 600", "--silence", "2")
ok(r.returncode == qw.EXIT_STOPPED, "a silent command is ended with status 125", r.returncode)
err = r.stderr.decode()
ok("no serial output for" in err and "qemu-run: | line two" in err, "the reason and the last lines on stderr",
   err)
r = watch("echo KVM internal error. Suberror: 1; sleep 600", "--silence", "300")
ok(r.returncode == qw.EXIT_STOPPED and "KVM internal error" in r.stderr.decode(),
   "a KVM internal error ends the command long before the silence allowance", r.stderr)
r = watch("while :; do echo tick; sleep 0.2; done", "--silence", "60", "--timeout", "2")
ok(r.returncode == qw.EXIT_TIMEOUT and "overall limit of 2 s" in r.stderr.decode(),
   "a chatty command past the overall limit: status 124", r.stderr)
log = os.path.join(BUILD, "tests", "qemu-watch.log")
os.makedirs(os.path.dirname(log), exist_ok=True)
r = watch("printf 'a\\rb\\n'", "--log", log)
ok(r.returncode == 0 and open(log, "rb").read() == b"a\rb\n" and r.stdout == b"",
   "--log keeps the bytes exactly, and nothing on stdout")
done()
