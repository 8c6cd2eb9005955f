#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ISO (tools/mkiso.sh, docs/iso.md) as a CD-ROM under OVMF: the firmware
boots its El Torito EFI image, the stub and the suite run, QEMU exits by
itself, and the appliance says plainly that it could not save its results
(a CD is read-only) instead of failing. Built from the same stub, kernel and
initramfs as `make image`, with a quick one-probe command line. On q35 a
second disk, as a machine's own, holds an ESP with \\EFI\\BOOT\\BOOTX64.EFI:
its bytes must be the same after the run (the appliance writes only where
it booted from, or where it was told)."""
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa


def internal_disk():
    """A stand-in for the machine's own disk: a GPT disk whose ESP holds
    \\EFI\\BOOT\\BOOTX64.EFI (junk, so the firmware cannot boot it instead of
    the CD) and even a \\timeprobe\\id of its own, as a disk once written
    from our image might; returns its path."""
    img = image_copy("iso-internal")
    junk = img + ".efi"
    with open(junk, "wb") as f:
        f.write(b"not a PE image " * 64)
    subprocess.run(["mcopy", "-o", "-i", img + ESP_OFFSET, junk, "::/EFI/BOOT/BOOTX64.EFI"],
                   env=mtools_env(), check=True)
    os.unlink(junk)
    return img


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


iso = iso_build("iso", QUICK)
ok(iso_has_efi_boot(iso), "the ISO has an El Torito boot image for UEFI", iso_el_torito(iso))
inner = internal_disk()
before = sha256(inner)
for machine in ("q35", "pc"):
	# q35: the "internal" disk on the CD's AHCI controller, port 1
	extra = ["-drive", "if=none,id=internal,format=raw,file=" + inner,
	         "-device", "ide-hd,drive=internal,bus=ahci0.1"] if machine == "q35" else []
	status, secs, text = boot(iso, machine, timeout=900, cdrom=True, extra=extra)
	name = "%s: " % machine
	ok(status == 0, name + "QEMU exited by itself with status 0", text[-3000:])
	started = [l for l in text.splitlines() if "BdsDxe: starting" in l]
	ok(started and "DVD-ROM" in started[-1], name + "the firmware booted the CD-ROM drive",
	   "\n".join(l for l in text.splitlines() if "BdsDxe" in l))
	if extra:
		ok("sda" in text, name + "the kernel saw the internal disk",
		   "\n".join(l for l in text.splitlines() if "sd " in l or "ata" in l)[-800:])
		ok(sha256(inner) == before, name + "the internal disk's bytes are unchanged after the run")
		ok("without a disk signature (a CD or an ISO image)" in text,
		   name + "the log says why nothing was saved")
	suite = check_suite(text, name)
	end = suite[-1] if suite else {}
	ok(end.get("probes_ok") == 1 and end.get("probes_failed") == 0,
	   name + "the one probe asked for ran and did not fail", end)
	ok(any(r.get("probe") == "vdso-check" and r["type"] == "result" for r in suite),
	   name + "vdso-check results came over serial")
	ok("timeprobe: results not saved:" in text, name + "it says plainly that the results were not saved",
	   "\n".join(l for l in text.splitlines() if "results" in l)[-800:])
	ok("results saved to" not in text, name + "and does not claim to have saved them")
	after = text[text.find("results not saved"):]
	ok("reboot: Power down" in after, name + "then carries on to power-off")
done()
