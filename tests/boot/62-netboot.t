#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The single file booted from the network: OVMF's UEFI PXE (IPv4) fetches
build/timeprobe.efi over TFTP from QEMU's user-mode network (DHCP boot
file), with an empty disk. The stub finds no file system on its boot
device (the NIC), uses its embedded command line, names no boot partition
(timeprobe.bootpart=unknown); the suite runs and says it did not save."""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

efi = single_efi("netboot", efi_default_cmdline() + " " + QUICK)
tftp = test_dir("tftp")
shutil.copyfile(efi, os.path.join(tftp, "timeprobe.efi"))
blank = os.path.join(test_dir(), "netboot.img")
with open(blank, "wb") as f:
    f.truncate(1 << 20)      # no partition table: nothing to boot from disk

status, secs, text = boot(blank, "q35", timeout=900, extra=[
    "-netdev", "user,id=n0,tftp=%s,bootfile=timeprobe.efi" % tftp,
    "-device", "virtio-net-pci,netdev=n0,romfile="])
plain = ANSI.sub("", text)
ok(status == 0, "QEMU exited by itself with status 0", plain[-3000:])
ok("Start PXE over IPv4" in plain and "NBP filename is timeprobe.efi" in plain,
   "OVMF fetched timeprobe.efi by PXE/TFTP", plain[:2000])
ok("no file system on the boot device" in plain, "the stub says its boot device has no file system")
recs, _ = records(text)
cl = first(recs, "stub_cmdline")
ok(cl.get("source") == "embedded", "the embedded command line was used", cl)
suite = check_suite(text, "netboot: ")
kcl = kernel_cmdline(text) or ""
ok(stub_values(recs).get("bootpart") == "unknown" and "initrd=" not in kcl,
   "no boot partition named, no initrd=", (stub_values(recs), kcl))
m = re.search(r"timeprobe: results not saved[^\r\n]*", plain)
ok(m is not None, "the appliance says the results were not saved", plain[-1500:])
ok(m is not None and "without a partition (network?)" in m.group(0), "and why: no boot partition", m.group(0) if m else None)
if m:
    diag("appliance: " + m.group(0))
done()
