#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The accelerator choice proves itself (tools/accel.sh) and a stopped guest
is noticed (tools/qemu_watch.py). A stand-in QEMU early in PATH fails every
KVM request as hosted CI runners do (an abort at once, or "KVM internal
error" and a hang); the choice must fall back to TCG, say why once, and the
appliance must still boot to its end record. Then a guest that goes silent
is ended by the watcher with its last lines."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

real = shutil.which("qemu-system-x86_64")
if not real:
    bail("qemu-system-x86_64 not found")
fake_dir = os.path.join(ROOT, "tests", "boot", "fake-qemu")
ACCEL_SH = os.path.join(ROOT, "tools", "accel.sh")


def fake_env(mode, cache, accel="auto"):
    env = dict(os.environ)
    env.update(PATH=fake_dir + os.pathsep + env["PATH"], FAKE_QEMU_MODE=mode,
               FAKE_QEMU_REAL=real, TIMEPROBE_CACHE=cache, ACCEL=accel)
    return env


def choose(env):
    t0 = time.monotonic()
    r = subprocess.run(["sh", ACCEL_SH], capture_output=True, text=True, env=env, timeout=300)
    return r, time.monotonic() - t0


have_kvm = os.access("/dev/kvm", os.R_OK | os.W_OK)
for mode, sign in (("abort", "QEMU exited with status"), ("internal-error", "KVM internal error")):
    cache = tempfile.mkdtemp(prefix="timeprobe-accel-")
    env = fake_env(mode, cache)
    if not have_kvm:
        skip("%s: fallback to TCG" % mode, "no usable /dev/kvm node here to pretend with")
        continue
    r, secs = choose(env)
    diag("%s: self-check took %.1f s" % (mode, secs))
    ok(r.returncode == 0 and r.stdout.strip() == "tcg max", "%s: KVM refused, TCG chosen" % mode,
       r.stdout + r.stderr)
    ok(r.stderr.count("KVM present but unusable here") == 1 and sign in r.stderr,
       "%s: one line says why" % mode, r.stderr)
    r2, _ = choose(env)
    ok(r2.stdout.strip() == "tcg max" and "self-check took" not in r2.stderr,
       "%s: the verdict is cached, not checked again" % mode, r2.stderr)
    ok("KVM unusable here (found before" in r2.stderr and sign not in r2.stderr,
       "%s: a cached verdict says so in one short line, not the whole reason again" % mode, r2.stderr)
    r3, secs3 = choose(fake_env(mode, cache, accel="kvm"))
    ok(r3.returncode == 1 and "ACCEL=kvm but KVM is unusable here" in r3.stderr and sign in r3.stderr,
       "%s: ACCEL=kvm fails with the reason" % mode, r3.stderr)
    diag("%s: ACCEL=kvm refused in %.1f s" % (mode, secs3))
    if mode == "internal-error":
        # the appliance boots on TCG all the same, and says so in its run record
        img = image_copy("accel", QUICK)
        status, secs, text = boot(img, "q35", timeout=900, env=env)
        ok(status == 0, "a KVM that stops in the firmware: the appliance boots on TCG and "
           "powers off", text[-2000:])
        suite = check_suite(text)
        ok(bool(suite) and suite[0].get("accel") == "tcg:max", "the run record says tcg:max",
           suite[0].get("accel") if suite else None)
    shutil.rmtree(cache, ignore_errors=True)

# A guest that stops printing is ended by the watcher, with its last lines:
# here the appliance halts after its end record (an announced hold would
# be waited for: tests/host/qemu-watch.t).
img = image_copy("silent", "timeprobe.profile=quick timeprobe.probes=yield timeprobe.after=halt")
status, secs, text = boot(img, "q35", timeout=1200, silence=20)
ok(status == 125, "a silent guest: the launcher ends it (status 125)", "status %s" % status)
ok("no serial output for" in text and "guest stopped" in text,
   "the reason is said", text[-1500:])
ok("qemu-run: | " in text and "System halted" in text,
   "the last lines the guest printed are shown", text[-1500:])
diag("silent guest ended %.0f s after the launch (silence allowed: 20 s)" % secs)
done()
