#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The arm64 ISO (make ARCH=arm64 iso: tools/mkiso.sh with BOOTAA64.EFI) as a
CD-ROM on QEMU virt under AAVMF and TCG (tools/qemu-run.sh --cdrom: a
scsi-cd on virtio-scsi): the firmware boots its El Torito EFI image, the
stub and the suite run, QEMU exits by itself, and the appliance says
plainly that it saved nothing (a CD is read-only). Built from the stub,
kernel and initramfs of `make ARCH=arm64 image`, with a quick one-probe
command line: one short TCG boot (14 s on an idle 2-core host), so `make
test` runs it. tests/host/arm64-media.t checks the ISO's layout without a boot."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

iso = iso_build("arm64-iso", "timeprobe.profile=quick timeprobe.probes=clocks", arch="arm64")
ok(iso_has_efi_boot(iso), "the arm64 ISO has an El Torito boot image for UEFI", iso_el_torito(iso))
env = dict(os.environ, ARCH="arm64")
status, secs, text = boot(iso, "virt", timeout=1500, cdrom=True, env=env)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
ok("qemu-run: tcg, -cpu max, virt" in text, "the launcher booted it on virt (qemu-system-aarch64, TCG)",
   "\n".join(l for l in text.splitlines() if l.startswith("qemu-run: ")))
started = [l for l in text.splitlines() if "BdsDxe: starting" in l]
ok(started and "CD-ROM" in started[-1], "AAVMF booted the CD-ROM drive",
   "\n".join(l for l in text.splitlines() if "BdsDxe" in l))
suite = check_suite(text, "arm64 iso: ")
end = suite[-1] if suite else {}
ok(end.get("probes_ok") == 1 and end.get("probes_failed") == 0,
   "the one probe asked for ran and did not fail", end)
ok(any(r.get("probe") == "clocks" and r["type"] == "result" for r in suite),
   "clocks results came over serial")
ok("timeprobe: results not saved:" in text, "it says plainly that the results were not saved",
   "\n".join(l for l in text.splitlines() if "results" in l)[-800:])
ok("results saved to" not in text, "and does not claim to have saved them")
after = text[text.find("results not saved"):]
ok("reboot: Power down" in after, "then carries on to power-off")
diag("arm64 ISO boot: %.0f s" % secs)
done()
