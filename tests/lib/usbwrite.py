# SPDX-License-Identifier: MIT
"""Helpers of the stick writer's tests (tests/host/usb.t, usb-loop.t): real
loop devices over files in one scratch folder, mounted or held open only
through this module and all undone at exit, on a failure or a signal too;
and a run of tp-usbwrite that answers its prompt after doing something."""
import atexit
import hashlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PROMPT = b"to go on: "


class Loops:
    """Loop devices, mounts and holders of this test, undone by cleanup()."""

    def __init__(self):
        self.top = tempfile.mkdtemp(prefix="tp-usb.")
        self.devs, self.mounts, self.procs = [], [], []
        atexit.register(self.cleanup)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, lambda s, f: sys.exit(128 + s))

    def path(self, name):
        return os.path.join(self.top, name)

    def unavailable(self):
        """None, or why this machine cannot give the test a loop device."""
        if os.geteuid() != 0:
            return "loop devices need root"
        if not shutil.which("losetup"):
            return "no losetup (util-linux)"
        try:
            self.attach("probe", 4096)
        except (OSError, subprocess.CalledProcessError) as e:
            return "losetup cannot attach a loop device here: %s" % (
                getattr(e, "stderr", None) or e).strip()
        return None

    def attach(self, name, size, fill=b"\xaa", *flags):
        """A loop device over a new file of size bytes of fill; its /dev path."""
        backing = self.path(name)
        with open(backing, "wb") as f:
            f.write(fill * size)
        return self.loop_over(backing, *flags)

    def loop_over(self, backing, *flags):
        """A loop device over backing (a file or a device); its /dev path."""
        p = subprocess.run(["losetup", "-f", "--show", *flags, backing], capture_output=True,
                           text=True, check=True)
        dev = p.stdout.strip()
        self.devs.append(dev)
        return dev

    def mount(self, dev):
        """dev mounted read-write on a new folder, its writes done; the folder."""
        point = tempfile.mkdtemp(dir=self.top, prefix="mnt.")
        subprocess.run(["mount", "-o", "noatime", dev, point], check=True, capture_output=True)
        self.mounts.append(point)
        subprocess.run(["sync"], check=True)
        return point

    def hold(self, dev):
        """Another process holding dev open with O_EXCL until cleanup."""
        code = ("import os, sys, time\nos.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)\n"
                "print('held', flush=True)\ntime.sleep(600)\n")
        p = subprocess.Popen([sys.executable, "-c", code, dev], stdout=subprocess.PIPE,
                             text=True)
        self.procs.append(p)
        if p.stdout.readline().strip() != "held":
            raise RuntimeError("could not hold %s open exclusively" % dev)
        return p

    def cleanup(self):
        for p in self.procs:
            p.kill()
            p.wait()
        for point in reversed(self.mounts):
            subprocess.run(["umount", point], capture_output=True)
        for dev in reversed(self.devs):
            subprocess.run(["losetup", "-d", dev], capture_output=True)
        self.procs, self.mounts, self.devs = [], [], []
        shutil.rmtree(self.top, ignore_errors=True)


def start(*tools):
    """(Loops, image path, image bytes): the test's loop devices and a random
    image of 3 MiB + 512. When a tool is not built or this machine gives no
    loop device, the whole test is skipped with the reason."""
    missing = [t for t in tools if not os.access(t, os.X_OK)]
    if missing:
        print("1..0 # SKIP %s not built (make usbwrite)" % " ".join(missing))
        sys.exit(0)
    loops = Loops()
    why = loops.unavailable()
    if why:
        print("1..0 # SKIP %s" % why)
        sys.exit(0)
    img = loops.path("image.img")
    with open(img, "wb") as f:
        f.write(os.urandom(3 * 1024 * 1024 + 512))
    return loops, img, os.path.getsize(img)


def digest(path, length=None):
    """SHA-256 of a file's or a device's bytes (the first length of them)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        left = length
        while left is None or left > 0:
            chunk = f.read(1 << 20 if left is None else min(left, 1 << 20))
            if not chunk:
                break
            h.update(chunk)
            if left is not None:
                left -= len(chunk)
    return h.hexdigest()


def run_answering(cmd, answer, at_prompt=None, env=None, timeout=60):
    """Runs cmd; when it asks for the device name, calls at_prompt() and then
    types answer. Returns (exit status, stdout, stderr) as text."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    out = b""
    deadline = time.monotonic() + timeout
    while PROMPT not in out and time.monotonic() < deadline:
        ready, _, _ = select.select([p.stdout], [], [], 1)
        chunk = os.read(p.stdout.fileno(), 4096) if ready else b""
        if ready and not chunk:
            break
        out += chunk
    if PROMPT in out and at_prompt:
        at_prompt()
    try:
        rest, err = p.communicate(answer.encode(), timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        rest, err = p.communicate()
    return p.returncode, (out + rest).decode(errors="replace"), err.decode(errors="replace")
