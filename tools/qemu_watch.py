#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs QEMU and watches its serial output, so that a guest that stops is
noticed in minutes rather than at the overall time limit.

    tools/qemu_watch.py [--log FILE] [--silence S] [--timeout S] [--started TEXT]
                        -- COMMAND...

Everything COMMAND prints (QEMU's serial console on stdio and its own
messages) is copied to stdout, or to FILE with --log. COMMAND is ended when:
  - it prints "KVM internal error" (QEMU then pauses the guest for ever),
  - the guest's kernel prints "Kernel panic - not syncing" (the stub's
    panic=0 keeps a panicked machine there, so that hardware does not
    reboot into the same panic for ever; a panic=N reboot would end QEMU
    under -no-reboot with status 0): exit 122, after its backtrace,
  - nothing new arrives for --silence S, unless a phase announced with
    ANNOUNCE below is still within its limit plus LIMIT_MARGIN_S,
  - the overall --timeout S passes.
The announcement (common/announce.h) is one line, "timeprobe: WHAT, limit
N s", printed by whatever may stay silent longer than S: the stub before
calibrating, the suite before each probe (it ends an over-long probe
itself) and before holding its last screen. An announcement replaces the
one before it; the suite's end record closes the last probe's.
It then prints on stderr one line with the reason and the last lines the
guest printed, and exits 125 (guest stopped) or 124 (overall limit).
Otherwise it exits with COMMAND's status (128 + N when signal N ended it).
With --started TEXT, a COMMAND that fails (a status other than 0, or
stopped as above) before printing TEXT instead exits 123, said on stderr
with its last lines: the launcher then checks its accelerator again."""
import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time

# A phase's announced limit (common/announce.h), at the start of a line
# (not quoted inside a record); WHAT is printable text.
ANNOUNCE = re.compile(rb"(?m)(?:^|(?<=\r))timeprobe: ([ -~]{1,120}?), limit ([0-9]{1,7}) s")
# The suite has finished its probes: the last probe's limit no longer holds.
SUITE_END = re.compile(rb'TP1 \{"type":"end"')
INTERNAL_ERROR = b"KVM internal error"
# Linux's panic() (kernel/panic.c): the guest will do nothing more.
KERNEL_PANIC = b"Kernel panic - not syncing"
# Seconds of silence allowed past an announced limit (the suite's error
# record after an over-long probe, a slow guest clock under TCG) and after
# an internal error (the register dump QEMU prints).
LIMIT_MARGIN_S = 60
DUMP_GRACE_S = 2
EXIT_NOT_STARTED = 123
EXIT_TIMEOUT = 124
EXIT_STOPPED = 125
EXIT_PANIC = 122
# Until the guest's first output (the firmware starting, 5 to 20 s under
# TCG), a line on stderr this often says the launcher is still waiting.
WAIT_NOTE_S = 5


class Watch:
    """What the output so far says: until when an announced phase may stay
    silent, and why the guest should be stopped (None while it should not)."""

    def __init__(self, silence_s, started=None):
        self.base = silence_s
        self.start_mark = started.encode() if started else None
        self.started = started is None  # the start mark seen (or none asked for)
        self.phase = None        # (what, limit_s, when) of the last announcement
        self.phase_until = None  # when its limit and margin run out
        self.tail = b""
        self.error_at = None
        self.panic_at = None

    def feed(self, data, now):
        """Reads new output; a line split across two reads is seen whole
        (the tail of earlier output is kept), and only once."""
        text = self.tail + data
        fresh = len(self.tail)
        events = [(m.end(), m) for m in ANNOUNCE.finditer(text)]
        events += [(m.end(), None) for m in SUITE_END.finditer(text)]
        for at, m in sorted(events, key=lambda e: e[0]):
            if at <= fresh:
                continue
            if m is None:
                self.phase, self.phase_until = None, None
                continue
            limit = int(m.group(2))
            self.phase = (m.group(1).decode("ascii"), limit, now)
            self.phase_until = now + limit + LIMIT_MARGIN_S
        if self.error_at is None and INTERNAL_ERROR in text:
            self.error_at = now
        if self.panic_at is None and KERNEL_PANIC in text:
            self.panic_at = now
        if not self.started and self.start_mark in text:
            self.started = True
        self.tail = text[-4096:]

    def verdict(self, now, last_output):
        if self.error_at is not None and now - self.error_at >= DUMP_GRACE_S:
            return "QEMU reported a KVM internal error; the guest is paused"
        if self.panic_at is not None and now - self.panic_at >= DUMP_GRACE_S:
            return "the guest's kernel panicked"
        silent = now - last_output
        if silent <= self.base or (self.phase_until is not None and now <= self.phase_until):
            return None
        why = "no serial output for %d s (allowed %d s" % (silent, self.base)
        if self.phase_until is not None:
            what, limit, at = self.phase
            why += "; '%s, limit %d s' was %d s ago" % (what[:60], limit, now - at)
        return why + ")"


def last_lines(tail, n=15):
    lines = tail.decode("utf-8", "replace").replace("\r", "\n").split("\n")
    lines = [l for l in lines if l.strip()]
    return lines[-n:]


def stop(proc):
    """Ends QEMU (one process: it starts none of its own)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def run(cmd, out, silence_s, timeout_s, started=None):
    # QEMU stays in our process group: whoever stops us stops it too.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        return watch_output(proc, out, silence_s, timeout_s, started)
    finally:
        stop(proc)


def tell(what, watch):
    """One line saying what happened, then the last lines the guest printed."""
    sys.stderr.write("qemu-run: %s; last lines:\n" % what)
    for line in last_lines(watch.tail):
        sys.stderr.write("qemu-run: | %s\n" % line[:200])
    sys.stderr.flush()


def wait_note(start, now, noted):
    """Before the guest's first output: a line every WAIT_NOTE_S s; the notes so far."""
    if now - start < (noted + 1) * WAIT_NOTE_S:
        return noted
    sys.stderr.write("qemu-run: no output from the guest yet, %d s after QEMU started "
                     "(the firmware is starting)\n" % (now - start))
    sys.stderr.flush()
    return noted + 1


def watch_output(proc, out, silence_s, timeout_s, started=None):
    watch = Watch(silence_s, started)
    start = last = time.monotonic()
    fd = proc.stdout.fileno()
    why, status, noted, heard = None, None, 0, False
    while why is None:
        ready, _, _ = select.select([fd], [], [], 1.0)
        now = time.monotonic()
        if not ready and not heard:
            noted = wait_note(start, now, noted)
        if ready:
            heard = True
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
    secs = time.monotonic() - start
    if why is None and watch.panic_at is not None:
        why, status = "the guest's kernel panicked (and QEMU exited)", EXIT_PANIC
    elif why is None:
        status = 128 - status if status < 0 else status
        if status == 0 or watch.started:
            return status
        why = "QEMU exited with status %d" % status
    else:
        stop(proc)
        if watch.panic_at is not None and status is None:
            status = EXIT_PANIC
    if not watch.started and status != EXIT_TIMEOUT:
        tell("QEMU failed after %d s, before printing '%s': %s"
             % (secs, watch.start_mark.decode(), why), watch)
        return EXIT_NOT_STARTED
    tell("guest stopped after %d s: %s" % (secs, why), watch)
    return status if status is not None else EXIT_STOPPED


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log")
    ap.add_argument("--silence", type=int, default=180)
    ap.add_argument("--timeout", type=int, default=0)
    ap.add_argument("--started")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("no command given")
    out = open(a.log, "wb") if a.log else sys.stdout.buffer
    # A stop of our own (Ctrl-C, the test's killpg) ends QEMU too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        sys.exit(run(cmd, out, a.silence, a.timeout, a.started))
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
