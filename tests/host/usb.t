#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tp-usbwrite's checks of what a device is, and its prompt: the test build
(-DUSBWRITE_TEST) writes to a real loop device, opened exclusively as always,
but reads sysfs from a crafted tree ($TP_USB_SYSFS) that gives that device's
number a USB stick, a SATA disk, an SD card or an eMMC, a size, a partition.
Each refusal leaves the device's bytes as they were and says why in one line;
a stick that passes every check is written, read back and compared; a byte
changed after writing is caught; the build `make usb` runs ignores the
crafted tree. Skipped where this machine has no loop devices."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import BUILD, done, ok  # noqa: E402
from usbwrite import digest, run_answering, start  # noqa: E402

TOOL = os.path.join(BUILD, "tests", "tp-usbwrite-test")
USER_TOOL = os.path.join(BUILD, "tp-usbwrite")
loops, IMG, IMG_BYTES = start(TOOL, USER_TOOL)
GB = 1000 ** 3
DEV = loops.attach("device", IMG_BYTES + 4096)
NUMBER = "%d:%d" % (os.major(os.stat(DEV).st_rdev), os.minor(os.stat(DEV).st_rdev))

USB_DEV = "devices/pci0000:00/0000:00:14.0/usb2/2-1"
SYS_PATHS = {
    "usb": USB_DEV + "/2-1:1.0/host6/target6:0:0/6:0:0:0/block",
    "sata": "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block",
    "mmc": "devices/pci0000:00/0000:00:1a.0/mmc_host/mmc0/mmc0:aaaa/block",
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def craft(case, size=16 * GB, bus="usb", removable=1, card=None, part=False):
    """A crafted /sys in which DEV's number is one disk (sdz, or mmcblk0 on
    mmc) with one partition, or that partition. Returns the sysfs root."""
    sysfs = loops.path(case)
    name = "mmcblk0" if bus == "mmc" else "sdz"
    node = os.path.join(SYS_PATHS[bus], name)
    attrs = {"size": str(size // 512), "removable": str(removable),
             "device/vendor": "SanDisk ", "device/model": "Cruzer\x1b[2J Blade    ",
             name + "1/partition": "1", name + "1/size": str(size // 512 - 2048)}
    if card:
        attrs.update({"device/type": card, "device/serial": "0x1234abcd"})
    for k, v in attrs.items():
        write(os.path.join(sysfs, node, k), v + "\n")
    write(os.path.join(sysfs, USB_DEV, "idVendor"), "0781\n")
    write(os.path.join(sysfs, USB_DEV, "serial"), "4C530001234567\n")
    os.makedirs(os.path.join(sysfs, "dev", "block"))
    target = os.path.join(node, name + "1") if part else node
    os.symlink(os.path.join("..", "..", target), os.path.join(sysfs, "dev", "block", NUMBER))
    return sysfs


def reset():
    """DEV full of 0xAA again, written through the device."""
    with open(DEV, "r+b") as f:
        f.write(b"\xaa" * (IMG_BYTES + 4096))
        f.flush()
        os.fsync(f.fileno())


def run(sysfs, answer="sdz\n", flags=(), at_prompt=None, tool=TOOL, extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TP_USB")}
    env.update(TP_USB_SYSFS=sysfs, **(extra or {}))
    return run_answering([tool, *flags, IMG, DEV], answer, at_prompt, env=env)


def refused(case, why, answer="sdz\n", flags=(), at_prompt=None, tool=TOOL, **kw):
    """One refusal: exit 1, one line on stderr naming the reason, DEV untouched."""
    reset()
    before = digest(DEV)
    rc, out, err = run(craft(case, **kw), answer, flags, at_prompt, tool)
    lines = err.strip().splitlines()
    ok(rc == 1 and len(lines) == 1 and why in lines[0] and "nothing was written" in lines[0],
       "%s: refused (%s)" % (case, why), "exit %d\nstdout: %s\nstderr: %s" % (rc, out[-500:], err))
    ok(digest(DEV) == before, "%s: the device's bytes are unchanged (sha256)" % case)


def written(case, answer="sdz\n", flags=(), **kw):
    """A write that passes: exit 0, the image at the start of DEV, verified."""
    reset()
    rc, out, err = run(craft(case, **kw), answer, flags)
    with open(DEV, "rb") as f:
        head, tail = f.read(IMG_BYTES), f.read()
    ok(rc == 0 and "written and verified" in out, "%s: written (exit 0)" % case,
       out[-1500:] + err[-1500:])
    ok(head == open(IMG, "rb").read() and tail == b"\xaa" * 4096,
       "%s: the device starts with the image, the rest is as it was" % case)
    return out


# --- a stick that passes every check ---
out = written("stick")
ok("(sdz, %s): SanDisk Cruzer[2J Blade, serial 4C530001234567, 16.0 GB" % NUMBER in out,
   "name, number, vendor, model (no control characters), USB serial and size are shown",
   out[:600])
ok("    sdz1  16.0 GB" in out and "transport usb" in out, "its partitions and transport are shown",
   out[:600])
ok("type the device name (sdz)" in out, "the user is asked to type the name back")
ok("Next:" in out and "UEFI" in out and "115200" in out,
   "it says what to do next (boot in UEFI mode, serial console)", out[-900:])
written("answer-with-path", answer=DEV + "\n")
written("answer-with-dev", answer="/dev/sdz\n")

# --- the user's confirmation ---
refused("wrong-name", "the answer was 'sdy', not 'sdz'", answer="sdy\n", flags=("--force",))
refused("no-answer", "the answer was '', not 'sdz'", answer="")
refused("yes-is-not-a-name", "the answer was 'yes'", answer="yes\n")
refused("answer-with-escapes", "the answer was 'sd\\tz', not 'sdz'", answer="sd\\tz\n")
refused("answer-with-control", "the answer was 'sd?z', not 'sdz'", answer="sd\x1bz\n")

# --- what the device is (--force lifts none of these) ---
refused("partition", "it is a partition, not a whole disk (write to the disk, /dev/sdz)",
        part=True, flags=("--force",))
refused("no-medium", "it has no medium (size 0)", size=0, flags=("--force",))
refused("too-small", "it holds 1048576 bytes, the image needs %d" % IMG_BYTES, size=1024 * 1024,
        flags=("--force",))

# --- fixed and large disks: refused, unless --force ---
refused("fixed-disk", "neither removable nor on USB nor an SD card (transport 'sata')",
        bus="sata", removable=0)
written("fixed-disk-forced", flags=("--force",), bus="sata", removable=0)
written("card-reader", bus="sata", removable=1)
written("sd-card", answer="mmcblk0\n", bus="mmc", removable=0, card="SD")
refused("emmc", "(transport 'mmc, card type MMC')", answer="mmcblk0\n", bus="mmc", removable=0,
        card="MMC")
written("emmc-forced", answer="mmcblk0\n", flags=("--force",), bus="mmc", removable=0, card="MMC")
refused("large", "it is 600.0 GB, larger than any stick we expect (256 GB)", size=600 * GB)
written("large-forced", flags=("--force",), size=600 * GB)
written("at-the-limit", size=256 * GB)

# --- the device's identity changes while the prompt waits ---


def new_model():
    write(os.path.join(loops.path("replugged"), SYS_PATHS["usb"], "sdz", "device/model"),
          "Other stick\n")


refused("replugged", "%s is not the device it was before the prompt" % NUMBER,
        at_prompt=new_model, flags=("--force",))

# --- the read-back catches a stick that lost a byte ---
reset()
rc, out, err = run(craft("flipped"), extra={"TP_USB_TEST_FLIP": "4096"})
ok(rc == 1 and "read-back differs from the image at byte 4096" in err,
   "a byte changed after writing: the read-back compare fails (exit 1)", out[-500:] + err)

# --- the build make usb runs reads the real /sys ---
refused("user-build", "neither removable nor on USB nor an SD card (transport 'virtual')",
        tool=USER_TOOL)

# --- usage ---
p = subprocess.run([TOOL, IMG], capture_output=True, text=True)
ok(p.returncode == 2 and p.stderr.startswith("usage:"), "one argument: usage, exit 2")
p = subprocess.run([TOOL, "--yes", IMG, DEV], capture_output=True, text=True)
ok(p.returncode == 2 and "unknown option --yes" in p.stderr,
   "no --yes: confirmation cannot be skipped")
p = subprocess.run([TOOL, loops.path("missing.img"), DEV], capture_output=True, text=True)
ok(p.returncode == 1 and "no image" in p.stderr, "a missing image is named", p.stderr)

loops.cleanup()
done()
