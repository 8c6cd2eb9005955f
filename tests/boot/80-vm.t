#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The VM disks of `make vm` (tools/mkvm.sh: vmdk, vdi, vhdx) boot and save
their results on their own partition. Each is made from a copy of the image
with a quick one-probe command line and booted by QEMU in its own format,
on the q35 machine's AHCI controller (SATA, as the .vmx attaches it); the
launcher's own disk is an empty raw one the firmware passes over. Then the
disk is converted back to raw and its \\timeprobe\\results\\ read with
mtools: one new file, holding this boot's records. Three short TCG boots
(20-40 s each with one quick probe), so `make test` runs it.

QEMU reads all three formats, so this proves the disks are bootable and
writable; Hyper-V's own storage (VMBus, storvsc) and VMware's and
VirtualBox's firmware are not emulated here (docs/vm.md)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

FORMATS = ("vmdk", "vdi", "vhdx")
d = test_dir("vm")

img = image_copy("vm-source", QUICK)
r = subprocess.run(["sh", os.path.join(ROOT, "tools/mkvm.sh"), img, os.path.join(d, "timeprobe")],
                   capture_output=True, text=True)
ok(r.returncode == 0, "tools/mkvm.sh made the three disks and the .vmx", r.stdout + r.stderr)
if r.returncode:
    bail("no VM disks to boot")
ok(esp_list(img) == [], "the source image has no results yet")

for fmt in FORMATS:
    disk = os.path.join(d, "timeprobe." + fmt)
    name = "%s: " % fmt
    status, secs, text = boot(disk, "q35", timeout=900, fmt=fmt)
    ok(status == 0, name + "QEMU exited by itself with status 0", text[-3000:])
    ok(any("BdsDxe: starting" in l and "Sata(0x0," in l for l in text.splitlines()),
       name + "the firmware started the converted disk (the launcher's %s disk)" % fmt,
       "\n".join(l for l in text.splitlines() if "BdsDxe" in l))
    suite = check_suite(text, name)
    end = suite[-1] if suite else {}
    ok(end.get("probes_ok") == 1 and end.get("probes_failed") == 0,
       name + "the one probe asked for ran and did not fail", end)
    ok("results saved to" in text, name + "the appliance says it saved its results",
       "\n".join(l for l in text.splitlines() if "results" in l)[-800:])

    back = os.path.join(d, "back-%s.img" % fmt)
    subprocess.run(["qemu-img", "convert", "-f", fmt, "-O", "raw", disk, back], check=True)
    files = esp_list(back)
    ok(len(files) == 1, name + "one results file on the disk's own partition: %s" % files)
    saved = esp_read(back, "/timeprobe/results/" + files[0]) if len(files) == 1 else ""
    srecs, scorrupt = records(saved)
    ssuite = suite_records(srecs)
    ok(scorrupt == 0 and ssuite and ssuite[-1]["type"] == "end",
       name + "the file holds the suite's records through its end record",
       "%d corrupt, %d records" % (scorrupt, len(srecs)))
    ok(ssuite and suite and ssuite[0].get("start") == suite[0].get("start")
       and ssuite[0].get("cmdline") == suite[0].get("cmdline"),
       name + "they are this boot's records (same run record as on serial)")
done()
