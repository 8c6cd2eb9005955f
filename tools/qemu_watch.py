#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs QEMU and watches its serial output, so that a guest that stops is
noticed in minutes rather than at the overall time limit.

    tools/qemu_watch.py [--log FILE] [--silence S] [--timeout S] -- COMMAND...

Everything COMMAND prints (QEMU's serial console on stdio and its own
messages) is copied to stdout, or to FILE with --log. COMMAND is ended when:
  - it prints "KVM internal error" (QEMU then pauses the guest for ever),
  - nothing new arrives for the allowed silence: --silence S, or, while the
    suite runs a probe, that probe's own time limit plus a margin (the suite
    announces each probe with PROGRESS below and ends an over-long probe
    itself, so a silence longer than that means the guest is stuck),
  - the overall --timeout S passes.
It then prints on stderr one line with the reason and the last lines the
guest printed, and exits 125 (guest stopped) or 124 (overall limit).
Otherwise it exits with COMMAND's status."""
import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time

# The suite's line at the start of each probe (userland/suite.c, run_one).
PROGRESS = re.compile(rb"timeprobe: probe ([A-Za-z0-9_-]{1,32}) started, limit ([0-9]{1,7}) s")
# The suite has finished: back to the plain silence allowance.
SUITE_END = re.compile(rb'TP1 \{"type":"end"')
INTERNAL_ERROR = b"KVM internal error"
# Seconds of silence allowed on top of a probe's own limit (the suite's
# error record, the next probe's start) and after an internal error (the
# register dump QEMU prints).
PROBE_MARGIN_S = 60
DUMP_GRACE_S = 2
EXIT_TIMEOUT = 124
EXIT_STOPPED = 125


class Watch:
    """What the output so far says: the silence allowed now, and why the
    guest should be stopped (None while it should not)."""

    def __init__(self, silence_s):
        self.base = silence_s
        self.allowed = silence_s
        self.tail = b""
        self.error_at = None

    def feed(self, data, now):
        """Reads new output; a line split across two reads is seen whole
        (the tail of earlier output is kept), and only once."""
        text = self.tail + data
        fresh = len(self.tail)
        events = [(m.end(), "probe", int(m.group(2))) for m in PROGRESS.finditer(text)]
        events += [(m.end(), "end", 0) for m in SUITE_END.finditer(text)]
        for at, what, limit in sorted(events):
            if at <= fresh:
                continue
            self.allowed = max(self.base, limit + PROBE_MARGIN_S) if what == "probe" else self.base
        if self.error_at is None and INTERNAL_ERROR in text:
            self.error_at = now
        self.tail = text[-4096:]

    def verdict(self, now, last_output):
        if self.error_at is not None and now - self.error_at >= DUMP_GRACE_S:
            return "QEMU reported a KVM internal error; the guest is paused"
        if now - last_output > self.allowed:
            return "no serial output for %d s (allowed %d s)" % (now - last_output, self.allowed)
        return None


def last_lines(tail, n=15):
    lines = tail.decode("utf-8", "replace").replace("\r", "\n").split("\n")
    lines = [l for l in lines if l.strip()]
    return lines[-n:]


def stop(proc):
    """Ends QEMU (one process: it starts none of its own)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def run(cmd, out, silence_s, timeout_s):
    # QEMU stays in our process group: whoever stops us stops it too.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        return watch_output(proc, out, silence_s, timeout_s)
    finally:
        stop(proc)


def watch_output(proc, out, silence_s, timeout_s):
    watch = Watch(silence_s)
    start = last = time.monotonic()
    fd = proc.stdout.fileno()
    why, status = None, None
    while why is None:
        ready, _, _ = select.select([fd], [], [], 1.0)
        now = time.monotonic()
        if ready:
            data = os.read(fd, 65536)
            if not data:
                status = proc.wait()
                break
            out.write(data)
            out.flush()
            watch.feed(data, now)
            last = now
        why = watch.verdict(now, last)
        if why is None and timeout_s and now - start > timeout_s:
            why = "overall limit of %d s reached" % timeout_s
            status = EXIT_TIMEOUT
    if why is None:
        return status
    stop(proc)
    sys.stderr.write("qemu-run: guest stopped after %d s: %s; last lines:\n"
                     % (time.monotonic() - start, why))
    for line in last_lines(watch.tail):
        sys.stderr.write("qemu-run: | %s\n" % line[:200])
    sys.stderr.flush()
    return status if status is not None else EXIT_STOPPED


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log")
    ap.add_argument("--silence", type=int, default=180)
    ap.add_argument("--timeout", type=int, default=0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("no command given")
    out = open(a.log, "wb") if a.log else sys.stdout.buffer
    # A stop of our own (Ctrl-C, the test's killpg) ends QEMU too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        sys.exit(run(cmd, out, a.silence, a.timeout))
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
