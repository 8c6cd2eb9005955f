#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/mkvm.sh (make vm) on a small GPT disk made here: the three formats
are what their hypervisors open, hold every sector of the source (so the
partition GUID the appliance saves by survives), and the .vmx names the
vmdk beside it with UEFI, no Secure Boot, the CPUs asked for and a serial
port to a file. Booting the converted disks is tests/boot/80-vm.t."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa

MKVM = os.path.join(ROOT, "tools", "mkvm.sh")
FORMATS = {"vmdk": "vmdk", "vdi": "vdi", "vhdx": "vhdx"}
if not shutil.which("qemu-img") or not shutil.which("sgdisk"):
    print("1..0 # SKIP qemu-img or sgdisk missing (make deps)")
    sys.exit(0)

top = tempfile.mkdtemp(prefix="tp-vm.")
src = os.path.join(top, "src.img")
subprocess.run(["truncate", "-s", "8M", src], check=True)
subprocess.run(["sgdisk", "-o", "-n", "1:2048:+8192", "-t", "1:ef00", "-c", "1:timeprobe", src],
               check=True, stdout=subprocess.DEVNULL)
with open(src, "r+b") as f:             # something to find inside the partition
    f.seek(2048 * 512 + 1000)
    f.write(b"timeprobe results partition")


def part_guid(img):
    out = subprocess.run(["sgdisk", "-i", "1", img], capture_output=True, text=True).stdout
    m = re.search(r"Partition unique GUID: ([0-9A-F-]{36})", out)
    return m.group(1) if m else None


guid = part_guid(src)
out = os.path.join(top, "vm", "tp")
p = subprocess.run(["sh", MKVM, "--cpus", "3", "--memory", "768", src, out],
                   capture_output=True, text=True)
ok(p.returncode == 0, "mkvm.sh converts the disk (exit 0)", p.stdout + p.stderr)
for ext, fmt in FORMATS.items():
    path = "%s.%s" % (out, ext)
    info = subprocess.run(["qemu-img", "info", "--output=json", path], capture_output=True,
                          text=True).stdout
    ok('"format": "%s"' % fmt in info, "%s: qemu-img reads it as %s" % (ext, fmt), info[:400])
    ok('"virtual-size": %d' % os.path.getsize(src) in info,
       "%s: same size as the source disk" % ext, info[:400])
    back = os.path.join(top, "back-%s.img" % ext)
    subprocess.run(["qemu-img", "convert", "-O", "raw", path, back], check=True)
    ok(open(back, "rb").read() == open(src, "rb").read(),
       "%s: converted back, every byte is the source's" % ext)
    ok(guid is not None and part_guid(back) == guid,
       "%s: the partition GUID survives (%s)" % (ext, guid))
ok(not [f for f in os.listdir(os.path.dirname(out)) if f.endswith(".tmp")],
   "no temporary files left beside the disks")

vmx, bad = {}, []
text = open(out + ".vmx").read() if os.path.exists(out + ".vmx") else ""
for line in text.splitlines():
    m = re.match(r'^([A-Za-z0-9_.:]+) = "([^"]*)"$', line)
    if m:
        vmx[m.group(1)] = m.group(2)
    else:
        bad.append(line)
ok(not bad, 'every .vmx line is key = "value" (VMware keeps no comments)', bad)
ok(len(vmx) > 10, "the .vmx has its settings (%d)" % len(vmx), text)
for key, want in (("firmware", "efi"), ("uefi.secureBoot.enabled", "FALSE"),
                  ("numvcpus", "3"), ("memsize", "768"), ("sata0.present", "TRUE"),
                  ("sata0:0.present", "TRUE"), ("sata0:0.fileName", "tp.vmdk"),
                  ("serial0.present", "TRUE"), ("serial0.fileType", "file"),
                  ("serial0.fileName", "tp-serial.log"), ("tools.syncTime", "FALSE")):
    ok(vmx.get(key) == want, "vmx: %s = %s" % (key, want), vmx.get(key))
ok(os.path.exists(os.path.join(os.path.dirname(out), vmx.get("sata0:0.fileName", "-"))),
   "the disk the .vmx names lies beside it")

for args, why in ((["--cpus", "x", src, out], "--cpus wants a number"),
                  ([os.path.join(top, "none.img"), out], "no disk image"),
                  ([src], "usage:")):
    p = subprocess.run(["sh", MKVM] + args, capture_output=True, text=True)
    ok(p.returncode != 0 and why in p.stderr, "mkvm.sh refuses: %s" % why, p.stderr)

# Names are checked before anything is converted, and nothing is left behind.
def mkvm_into(outbase, env=None):
    return subprocess.run(["sh", MKVM, src, outbase], capture_output=True, text=True, env=env)


for i, (name, says) in enumerate((("my vm", "bad machine name 'my vm'"), ('a"b', "bad machine name"),
                                  ("tp/", "names a folder"), ("tp/.", "names a folder"))):
    parent = os.path.join(top, "refused%d" % i)
    p = mkvm_into(os.path.join(parent, name))
    ok(p.returncode == 2 and says in p.stderr and len(p.stderr.splitlines()) == 1,
       "OUTBASE %r: refused in one line" % name, p.stderr)
    ok(not os.path.exists(parent) and "vm: " not in p.stdout,
       "OUTBASE %r: nothing converted, nothing left" % name, p.stdout)
# A conversion that fails half-way (the third format): no file of this run
# stays, an older set beside it is untouched, and a folder made for it goes.
bindir = os.path.join(top, "bin")
os.makedirs(bindir)
with open(os.path.join(bindir, "qemu-img"), "w") as f:
    f.write('#!/bin/sh\ncase " $* " in *" -O vhdx "*) echo "qemu-img: vhdx: disk full" >&2; exit 1 ;; esac\n'
            'exec %s "$@"\n' % shutil.which("qemu-img"))
os.chmod(os.path.join(bindir, "qemu-img"), 0o755)
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
before = {f: open(os.path.join(top, "vm", f), "rb").read() for f in os.listdir(os.path.join(top, "vm"))}
p = mkvm_into(out, env)
after = {f: open(os.path.join(top, "vm", f), "rb").read() for f in os.listdir(os.path.join(top, "vm"))}
ok(p.returncode != 0 and "disk full" in p.stderr, "a failed conversion fails the run", p.stderr)
ok(after == before, "the older set beside it is untouched, no partial file left",
   sorted(set(after) ^ set(before)))
p = mkvm_into(os.path.join(top, "new", "tp"), env)
ok(p.returncode != 0 and not os.path.exists(os.path.join(top, "new")),
   "a folder made for the run is removed with what was in it", p.stderr)

p = subprocess.run(["sh", os.path.join(ROOT, "tools", "vmx.sh"), 'a"b', "2", "512"],
                   capture_output=True, text=True)
ok(p.returncode == 2 and p.stdout == "", "vmx.sh refuses a name that would break its quoting")

shutil.rmtree(top)
done()
