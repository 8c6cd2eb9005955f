#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/qemu-run.sh, the launcher, with a stand-in QEMU that prints its
arguments: every path stays one argument whatever it holds (a blank, a
comma, which QEMU's -drive option wants doubled), from a launcher whose own
folder has a blank in it, and a bad path or format is named in one line."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa

tmp = tempfile.mkdtemp(prefix="tp-qemu-run.")
tools = os.path.join(tmp, "tools, with blanks")
os.makedirs(tools)
for f in ("qemu-run.sh", "accel.sh", "qemu_watch.py"):
    shutil.copy(os.path.join(ROOT, "tools", f), tools)
bindir = os.path.join(tmp, "bin")
os.makedirs(bindir)
# Prints its arguments and the firmware's first line; asked for KVM, fails as
# FAKE_KVM says: abort (at once, as a stale KVM verdict does), late (exit 3
# after the firmware started).
FAKE = r"""#!/bin/sh
for a in "$@"; do printf '[%s]\n' "$a"; done
case " $* " in
*accel=kvm*)
	case ${FAKE_KVM:-ok} in
	abort) echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2; kill -ABRT $$ ;;
	late) echo "BdsDxe: loading Boot0001"; exit 3 ;;
	esac ;;
esac
echo "BdsDxe: loading Boot0001"
"""
for name in ("qemu-system-x86_64", "qemu-system-aarch64"):    # the same fake for ARCH=arm64
    with open(os.path.join(bindir, name), "w") as f:
        f.write(FAKE)
    os.chmod(os.path.join(bindir, name), 0o755)
data = os.path.join(tmp, "my disks, v2")
os.makedirs(data)
img = os.path.join(data, "time probe.img")
code = os.path.join(data, "OVMF code.fd")
for p in (img, code, os.path.join(data, "vars.fd")):
    open(p, "wb").close()
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], ACCEL="tcg",
           OVMF_CODE=code, OVMF_VARS=os.path.join(data, "vars.fd"))


def launch(*args):
    return subprocess.run(["sh", os.path.join(tools, "qemu-run.sh"), *args], env=env,
                          capture_output=True, text=True, timeout=60)


def qemu_args(out):
    return [l[1:-1] for l in out.splitlines() if l.startswith("[") and l.endswith("]")]


r = launch(img, "--", "-name", "a b")
a = qemu_args(r.stdout)
ok(r.returncode == 0 and "if=ide,format=raw,file=" + img.replace(",", ",,") in a,
   "a disk path with blanks and a comma: one -drive argument, its comma doubled", a)
ok("if=pflash,format=raw,readonly=on,file=" + code.replace(",", ",,") in a,
   "the firmware path too", a)
ok(a[-2:] == ["-name", "a b"], "extra QEMU arguments pass through as given", a[-2:])
r = launch("--cdrom", "--machine", "pc", img)
a = qemu_args(r.stdout)
ok(r.returncode == 0 and "if=none,id=cd,format=raw,media=cdrom,readonly=on,file=" + img.replace(",", ",,") in a
   and a[-2:] == ["-device", "ide-cd,drive=cd"], "--cdrom: the same path, one argument", a)
r = launch("--cdrom", img)
a = qemu_args(r.stdout)
ok(r.returncode == 0 and a[-4:] == ["-device", "ahci,id=ahci0", "-device", "ide-cd,drive=cd,bus=ahci0.0"],
   "--cdrom on q35: on its own AHCI controller", a[-4:])
r = subprocess.run(["sh", os.path.join(tools, "qemu-run.sh"), "--cdrom", img], env=dict(env, ARCH="arm64"),
                   capture_output=True, text=True, timeout=60)
a = qemu_args(r.stdout)
ok(r.returncode == 0 and a[:3] == ["-machine", "virt,accel=tcg", "-cpu"] and
   "if=none,id=cd,format=raw,media=cdrom,readonly=on,file=" + img.replace(",", ",,") in a and
   a[-4:] == ["-device", "virtio-scsi-pci,id=scsi0", "-device", "scsi-cd,drive=cd,bus=scsi0.0"],
   "ARCH=arm64 --cdrom: virt (from q35), the CD on virtio-scsi, where AAVMF boots it", a)
log = os.path.join(data, "serial log.txt")
r = launch("--log", log, img)
ok(r.returncode == 0 and "[if=ide,format=raw,file=%s]" % img.replace(",", ",,") in open(log).read(),
   "--log with a blank: QEMU's output lands there", r.stderr)
missing = os.path.join(data, "no such.img")
r = launch(missing)
ok(r.returncode == 2 and r.stderr.strip() == "qemu-run: image not found: '%s'" % missing,
   "a missing image: exit 2 and one line naming it whole", r.stderr)
r = launch("--format", "raw,readonly=off", img)
ok(r.returncode == 2 and "--format 'raw,readonly=off'" in r.stderr and not qemu_args(r.stdout),
   "a format that is not a format name: refused before QEMU starts", r.stderr)

# A cached KVM choice that fails at start is checked again once (tools/accel.sh
# proves KVM only where /dev/kvm can be opened).
cache = os.path.join(tmp, "cache")
env.update(ACCEL="auto", TIMEPROBE_CACHE=cache, FAKE_KVM="ok")


def accel_of(out):
    return [a for a in qemu_args(out) if ",accel=" in a]


if not os.access("/dev/kvm", os.R_OK | os.W_OK):
    skip("a stale KVM choice is checked again", "no usable /dev/kvm node here to pretend with")
else:
    r = launch(img)
    ok(r.returncode == 0 and accel_of(r.stdout) == ["q35,accel=kvm"], "KVM proven and cached",
       r.stderr)
    env["FAKE_KVM"] = "late"
    r = launch(img)
    ok(r.returncode == 3 and "checking the accelerator again" not in r.stderr,
       "a failure after the firmware started is the guest's: its status, no recheck", r.stderr)
    env["FAKE_KVM"] = "abort"
    r = launch(img)
    ok(r.returncode == 0 and accel_of(r.stdout) == ["q35,accel=kvm", "q35,accel=tcg"],
       "the cached KVM choice aborts at start: checked again, booted under TCG", r.stdout)
    ok("before the firmware started; checking the accelerator again" in r.stderr.replace("\n", " ")
       and "using TCG" in r.stderr, "and the messages say so", r.stderr)
    verdict = [open(os.path.join(cache, f)).readline().strip() for f in os.listdir(cache)
               if f.startswith("accel-") and not f.endswith(".tmp")]
    ok(verdict == ["tcg max"], "the cache holds the new verdict", verdict)
    with open(os.path.join(cache, os.listdir(cache)[0]), "w") as f:
        f.write("kvm host\n\n")
    env["ACCEL"] = "kvm"
    r = launch(img)
    ok(r.returncode == 1 and "ACCEL=kvm but KVM is unusable here" in r.stderr
       and len(accel_of(r.stdout)) == 1, "ACCEL=kvm and a stale choice: checked again, then refused",
       r.stderr)
shutil.rmtree(tmp, ignore_errors=True)
done()
