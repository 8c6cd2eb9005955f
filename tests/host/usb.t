#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/write-usb.sh (make usb) against plain files, never a disk: with
TP_USB_TEST=1 the "device" is a plain file and the kernel's answers come from
a crafted /sys tree and a crafted lsblk. Each refusal leaves the file as it
was and says why in one line; a stick that passes every check is written,
read back and compared; a byte changed after writing is caught."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa

TOOL = os.path.join(ROOT, "tools", "write-usb.sh")
top = tempfile.mkdtemp(prefix="tp-usb.")
IMG = os.path.join(top, "image.img")
with open(IMG, "wb") as f:
    f.write(os.urandom(3 * 1024 * 1024 + 512))
IMG_BYTES = os.path.getsize(IMG)
GB = 1000 ** 3

FAKE_LSBLK = """#!/bin/sh
# crafted lsblk: the answer to each query write-usb.sh makes, from files
echo "$*" >> "$TP_FAKE/calls"
case $2 in
NAME,TYPE,MOUNTPOINT) cat "$TP_FAKE/usage" ;;
TRAN) cat "$TP_FAKE/tran" ;;
*) cat "$TP_FAKE/show" ;;
esac
"""

SYS_PATHS = {
    "usb": "devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block",
    "sata": "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block",
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def disk(case, size=16 * GB, bus="usb", removable=1, ro=0, tran="usb", usage=None,
         name="sdz", part=None):
    """A crafted machine: /sys for one disk (and a partition of it), lsblk's
    answers, and the "device": a plain file of 0xAA bytes. Returns (dir, dev)."""
    d = os.path.join(top, case)
    sysfs = os.path.join(d, "sys")
    dpath = os.path.join(SYS_PATHS[bus], name)
    attrs = {"size": str(size // 512), "ro": str(ro), "removable": str(removable),
             "device/vendor": "SanDisk ", "device/model": "Cruzer\x1b[2J Blade    "}
    for k, v in attrs.items():
        write(os.path.join(sysfs, dpath, k), v + "\n")
    write(os.path.join(sysfs, dpath, name + "1", "partition"), "1\n")
    write(os.path.join(sysfs, dpath, name + "1", "size"), str(size // 512 - 2048) + "\n")
    os.makedirs(os.path.join(sysfs, "class", "block"))
    os.symlink(os.path.join("..", "..", dpath), os.path.join(sysfs, "class", "block", name))
    os.symlink(os.path.join("..", "..", dpath, name + "1"),
               os.path.join(sysfs, "class", "block", name + "1"))
    devname = part or name
    dev = os.path.join(d, "dev", devname)
    if usage is None:
        usage = "%s disk\n%s1 part\n" % (dev, dev)
    fake = os.path.join(d, "fake")
    write(os.path.join(fake, "usage"), usage)
    write(os.path.join(fake, "tran"), tran + "\n")
    write(os.path.join(fake, "show"), "NAME SIZE TYPE FSTYPE LABEL MOUNTPOINT\n%s 14.9G disk\n"
          "`-%s1 14.9G part vfat STICK\n" % (name, name))
    write(os.path.join(fake, "lsblk"), FAKE_LSBLK)
    os.chmod(os.path.join(fake, "lsblk"), 0o755)
    os.makedirs(os.path.dirname(dev), exist_ok=True)
    with open(dev, "wb") as f:
        f.write(b"\xaa" * (IMG_BYTES + 4096))
    return d, dev


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(d, dev, answer, *flags, env_extra=None, test_mode=True, img=IMG):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("TP_USB"):
            del env[k]
    if test_mode:
        env.update(TP_USB_TEST="1", TP_USB_SYSFS=os.path.join(d, "sys"),
                   TP_USB_LSBLK=os.path.join(d, "fake", "lsblk"), TP_FAKE=os.path.join(d, "fake"))
    env.update(env_extra or {})
    p = subprocess.run(["sh", TOOL, *flags, img, dev], input=answer, capture_output=True,
                       text=True, env=env, timeout=60)
    return p


def refused(case, why, answer="sdz\n", flags=(), **kw):
    """One refusal: exit 1, one line on stderr naming the reason, file untouched."""
    dargs = {k: kw.pop(k) for k in list(kw) if k not in ("env_extra", "test_mode", "img")}
    d, dev = disk(case, **dargs)
    before = digest(dev)
    p = run(d, dev, answer, *flags, **kw)
    err = p.stderr.strip().splitlines()
    ok(p.returncode == 1 and len(err) == 1 and why in err[0] and "nothing was written" in err[0],
       "%s: refused (%s)" % (case, why), "exit %d\nstdout: %s\nstderr: %s" % (p.returncode,
                                                                          p.stdout[-500:], p.stderr))
    ok(digest(dev) == before, "%s: the device file is untouched" % case)
    return p


def written(case, answer="sdz\n", flags=(), **kw):
    """A write that passes: exit 0, the image at the start of the file, verified."""
    d, dev = disk(case, **kw)
    p = run(d, dev, answer, *flags)
    with open(dev, "rb") as f:
        head = f.read(IMG_BYTES)
        tail = f.read()
    ok(p.returncode == 0, "%s: written (exit 0)" % case, p.stdout[-1500:] + p.stderr[-1500:])
    ok(head == open(IMG, "rb").read() and tail == b"\xaa" * 4096,
       "%s: the file starts with the image, the rest is as it was" % case)
    want = digest(IMG)
    ok("image    sha256 %s" % want in p.stdout and "sha256 %s (first %d bytes read back)"
       % (want, IMG_BYTES) in p.stdout, "%s: the read-back hash is printed and matches" % case,
       p.stdout[-800:])
    return d, p


# --- a stick that passes every check ---
d, p = written("stick")
out = p.stdout + p.stderr
ok("SanDisk Cruzer[2J Blade, 16.0 GB, transport usb" in p.stdout, "the vendor, model, size and "
   "transport are shown before asking, without control characters", p.stdout[:600])
ok("`-sdz1 14.9G part vfat STICK" in p.stdout, "the current partitions are shown (lsblk)")
ok("type the device name (sdz)" in p.stdout, "the user is asked to type the name back")
ok("copied" in p.stderr, "dd's progress and summary are shown", p.stderr[-300:])
ok("Next:" in p.stdout and "UEFI" in p.stdout and "115200" in p.stdout,
   "it says what to do next (boot in UEFI mode, serial console)", p.stdout[-900:])
calls = open(os.path.join(d, "fake", "calls")).read().splitlines()
ok(calls and all(c.endswith(os.path.join(d, "dev", "sdz")) for c in calls),
   "lsblk was asked about the device given and nothing else", calls)
written("answer-with-path", answer=os.path.join(top, "answer-with-path", "dev", "sdz") + "\n")

# --- the user's confirmation ---
refused("wrong-name", "the answer was 'sdy', not 'sdz'", answer="sdy\n")
refused("no-answer", "the answer was '', not 'sdz'", answer="")
refused("yes-is-not-a-name", "the answer was 'yes'", answer="yes\n")
refused("answer-with-escapes", "the answer was 'sd\\tz', not 'sdz'", answer="sd\\tz\n")

# --- what the device is ---
refused("partition", "it is a partition, not a whole disk (write to the disk, /dev/sdz)",
        part="sdz1")
refused("read-only", "it is read-only", ro=1)
refused("no-medium", "it has no medium", size=0)
refused("too-small", "it holds 1048576 bytes, the image needs %d" % IMG_BYTES, size=1024 * 1024)

# --- what uses it ---
dev_of = lambda case: os.path.join(top, case, "dev", "sdz")  # noqa: E731
refused("mounted", "%s1 is mounted on /media/user/STICK" % dev_of("mounted"),
        usage="%s disk\n%s1 part /media/user/STICK\n" % (dev_of("mounted"), dev_of("mounted")))
refused("root", "holds the running root (/ is on %s2)" % dev_of("root"),
        usage="%s disk\n%s1 part /boot/efi\n%s2 part /\n" % ((dev_of("root"),) * 3))
refused("root-on-lvm", "holds the running root (/ is on /dev/mapper/vg-root)",
        usage="%s disk\n%s1 part\n/dev/mapper/vg-root lvm /\n" % ((dev_of("root-on-lvm"),) * 2))
refused("swap", "is in use as swap", usage="%s disk\n%s1 part [SWAP]\n" % ((dev_of("swap"),) * 2))
refused("raid-member", "/dev/md0 (raid1: LVM, RAID, encryption...) is built on it",
        usage="%s disk\n%s1 part\n/dev/md0 raid1\n" % ((dev_of("raid-member"),) * 2))

# --- fixed and large disks: refused, unless --force ---
refused("fixed-disk", "neither removable nor on USB (transport 'sata')", bus="sata", removable=0,
        tran="sata")
written("fixed-disk-forced", flags=("--force",), bus="sata", removable=0, tran="sata")
written("card-reader", bus="sata", removable=1, tran="")
refused("large", "it is 600.0 GB, larger than any stick we expect (256 GB)", size=600 * GB)
written("large-forced", flags=("--force",), size=600 * GB)
written("at-the-limit", size=256 * GB)
written("loop-device", usage="%s loop\n" % os.path.join(top, "loop-device", "dev", "sdz"))
refused("loop-on-it", "/dev/loop7 (loop: LVM, RAID, encryption...) is built on it",
        usage="%s disk\n%s1 part\n/dev/loop7 loop\n" % ((dev_of("loop-on-it"),) * 2))

# --- the read-back catches a stick that lost a byte ---
d, dev = disk("flipped")
p = run(d, dev, "sdz\n", env_extra={"TP_USB_TEST_FLIP": "4096"})
ok(p.returncode == 1 and "read-back differs from the image" in p.stderr,
   "a byte changed after writing: the read-back compare fails (exit 1)", p.stdout + p.stderr)

# --- the test hook itself writes only to plain files; without it, only block devices ---
d, dev = disk("symlink")
link = dev + "-link"
os.symlink(dev, link)
p = run(d, link, "sdz-link\n")
ok(p.returncode == 1 and "writes only to plain files" in p.stderr,
   "test mode refuses a link (only plain files)", p.stderr)
p = run(d, "/dev/null", "null\n")
ok(p.returncode == 1 and "writes only to plain files" in p.stderr,
   "test mode refuses a device node", p.stderr)
before = digest(dev)
p = run(d, dev, "sdz\n", test_mode=False, env_extra={"TP_USB_SYSFS": os.path.join(d, "sys")})
ok(p.returncode == 1 and "not a block device" in p.stderr and digest(dev) == before,
   "without TP_USB_TEST=1 a plain file is refused and the crafted /sys is ignored", p.stderr)

# --- usage ---
p = subprocess.run(["sh", TOOL, IMG], capture_output=True, text=True)
ok(p.returncode == 2 and p.stderr.startswith("usage:"), "one argument: usage, exit 2")
p = subprocess.run(["sh", TOOL, "--yes", IMG, dev], capture_output=True, text=True)
ok(p.returncode == 2 and "unknown option --yes" in p.stderr, "no --yes: confirmation cannot be skipped")
d, dev = disk("no-image")
p = run(d, dev, "sdz\n", img=os.path.join(top, "missing.img"))
ok(p.returncode == 1 and "no image" in p.stderr, "a missing image is named", p.stderr)

shutil.rmtree(top)
done()
