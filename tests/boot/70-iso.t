#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ISO (tools/mkiso.sh, docs/iso.md) as a CD-ROM under OVMF: the firmware
boots its El Torito EFI image, the stub and the suite run, QEMU exits by
itself, and the appliance says plainly that it could not save its results
(a CD is read-only) instead of failing. Built from the same stub, kernel and
initramfs as `make image`, with a quick one-probe command line."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa

iso = iso_build("iso", "timeprobe.profile=quick timeprobe.probes=clocks")
ok(iso_has_efi_boot(iso), "the ISO has an El Torito boot image for UEFI", iso_el_torito(iso))
for machine in ("q35", "pc"):
	status, secs, text = boot(iso, machine, timeout=900, cdrom=True)
	name = "%s: " % machine
	ok(status == 0, name + "QEMU exited by itself with status 0", text[-3000:])
	ok("DVD-ROM" in text and "HARDDISK" not in text, name + "the firmware booted the CD-ROM drive",
	   "\n".join(l for l in text.splitlines() if "BdsDxe" in l))
	suite = check_suite(text, name)
	end = suite[-1] if suite else {}
	ok(end.get("probes_ok") == 1 and end.get("probes_failed") == 0,
	   name + "the one probe asked for ran and did not fail", end)
	ok(any(r.get("probe") == "clocks" and r["type"] == "result" for r in suite),
	   name + "clocks results came over serial")
	ok("timeprobe: results not saved:" in text, name + "it says plainly that the results were not saved",
	   "\n".join(l for l in text.splitlines() if "results" in l)[-800:])
	ok("results saved to" not in text, name + "and does not claim to have saved them")
	after = text[text.find("results not saved"):]
	ok("reboot: Power down" in after, name + "then carries on to power-off")
done()
