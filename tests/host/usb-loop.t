#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tp-usbwrite (make usb) against real loop devices, as built for users: a
link swapped to another device while the prompt waits, a device another
process holds open exclusively, a disk a loop device reads and writes, a
disk whose partition is mounted, a mounted disk and a read-only one are each
refused, with --force, and their bytes are the same before and after
(SHA-256 of the whole device); a free device is written and verified and
holds the image. Loop devices are neither removable nor on USB, so every
case but one passes --force: --force lifts that check only. Skipped where
this machine has no loop devices."""
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import BUILD, done, ok, skip  # noqa: E402
from usbwrite import digest, run_answering, start  # noqa: E402

TOOL = os.path.join(BUILD, "tp-usbwrite")
loops, IMG, IMG_BYTES = start(TOOL)
MIB = 1024 * 1024


def name(dev):
    return os.path.basename(dev)


def refused(case, dev, why, answer=None, target=None, at_prompt=None, flags=("--force",),
            others=()):
    """One refusal: exit 1, one line on stderr naming the reason, and every
    device's bytes (dev, or target when it is a link, and others) unchanged."""
    devs = [target or dev, *others]
    before = [digest(d) for d in devs]
    rc, out, err = run_answering([TOOL, *flags, IMG, dev], answer or name(target or dev) + "\n",
                                 at_prompt)
    lines = err.strip().splitlines()
    ok(rc == 1 and len(lines) == 1 and why in lines[0] and "nothing was written" in lines[0],
       "%s: refused (%s)" % (case, why), "exit %d\nstdout: %s\nstderr: %s" % (rc, out[-600:], err))
    ok([digest(d) for d in devs] == before,
       "%s: the bytes of %s are unchanged (sha256)" % (case, ", ".join(map(name, devs))))
    return out


# --- a free device: written, verified, holds the image ---
free = loops.attach("free", IMG_BYTES + MIB)
rc, out, err = run_answering([TOOL, "--force", IMG, free], name(free) + "\n")
ok(rc == 0 and "written and verified" in out, "a free loop device with --force: written (exit 0)",
   out[-800:] + err)
ok("read %d bytes back through the same descriptor: equal to the image" % IMG_BYTES in out,
   "the read-back through the same descriptor is reported equal", out[-800:])
ok(digest(free, IMG_BYTES) == digest(IMG), "its first bytes are the image (sha256)")
with open(free, "rb") as f:
    f.seek(IMG_BYTES)
    rest = f.read()
ok(rest == b"\xaa" * MIB, "the bytes after the image are as they were")

# --- without --force a loop device is a fixed disk ---
refused("fixed", loops.attach("fixed", IMG_BYTES + MIB),
        "neither removable nor on USB nor an SD card (transport 'virtual')", flags=())

# --- (a) a link swapped to another device while the prompt waits ---
first = loops.attach("first", IMG_BYTES + MIB)
second = loops.attach("second", IMG_BYTES + MIB)
link = loops.path("stick")
os.symlink(first, link)


def swap():
    os.symlink(second, link + ".new")
    os.replace(link + ".new", link)


out = refused("link-swapped", link, "something changed during the prompt", target=first,
              at_prompt=swap, others=(second,))
ok("type the device name (%s)" % name(first) in out,
   "the link was followed once, before the prompt (it named %s)" % name(first), out[-400:])

# --- (b) a device another process holds open exclusively ---
held = loops.attach("held", IMG_BYTES + MIB)
loops.hold(held)
refused("held", held, "it is in use: another program holds it open exclusively")

# --- a loop device over it: no claim, so the exclusive open succeeds ---
under = loops.attach("under", IMG_BYTES + MIB)
over = loops.loop_over(under)
refused("loop-over-it", under, "it is in use: %s is a loop device over it (losetup -d it first)"
        % over, others=(over,))

# --- (c) a disk whose partition holds a mounted file system ---


def partitioned(size):
    """A loop device with one MBR partition from 1 MiB (an MBR written here:
    no sfdisk needed): (disk, its partition's /dev path, None), or
    (disk, None, why there is no partition)."""
    try:
        dev = loops.attach("partitioned", size, b"\0", "-P")
        with open(dev, "r+b") as f:
            f.seek(446)
            f.write(struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048,
                                size // 512 - 2048))
            f.seek(510)
            f.write(b"\x55\xaa")
        # BLKRRPART returns once the partitions are in sysfs
        subprocess.run(["blockdev", "--rereadpt", dev], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, None, "no partitioned loop device here: %s" % e
    part = dev + "p1"
    if not os.path.exists("/sys/class/block/%s" % name(part)):
        return dev, None, "this kernel made no partition on a loop device (no MBR support?)"
    for _ in range(100):    # devtmpfs makes the node; udev may replace it
        if os.path.exists(part):
            return dev, part, None
        time.sleep(0.1)
    return dev, None, "no %s appeared for the partition in sysfs" % part


def mounted_ext4(dev):
    """An ext4 made on dev and mounted read-write: the folder, or None and why not."""
    # Inode tables and journal written now, not by a kernel thread after mounting.
    try:
        subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                        dev], check=True, capture_output=True, text=True)
        return loops.mount(dev), None
    except (OSError, subprocess.CalledProcessError) as e:
        return None, "cannot make and mount an ext4 here: %s" % (
            getattr(e, "stderr", None) or e).strip()


disk, part, why = partitioned(24 * MIB)
if part:
    point, why = mounted_ext4(part)
if part and point:
    refused("partition-mounted", disk, "it is in use: %s is mounted on %s" % (part, point))
else:
    skip("partition-mounted: a disk whose partition is mounted is refused", why)

# --- a mounted disk, a read-only one ---
mounted = loops.attach("mounted", 16 * MIB, b"\0")
point, why = mounted_ext4(mounted)
if point:
    refused("mounted", mounted,
            "it is in use: %s is mounted on %s (umount it first)" % (mounted, point))
else:
    skip("mounted: a mounted disk is refused", why)
refused("read-only", loops.attach("read-only", IMG_BYTES + MIB, b"\xaa", "-r"),
        "it is read-only")

# --- things that are not a whole block device ---
refused("plain-file", loops.path("first"), "not a block device")
p = subprocess.run([TOOL, "--force", IMG, "/dev/null"], input="null\n", capture_output=True,
                   text=True, timeout=60)
ok(p.returncode == 1 and "not a block device" in p.stderr, "/dev/null: not a block device",
   p.stderr)

loops.cleanup()
done()
