#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The arm64 single file (make ARCH=arm64 efi: BOOTAA64.EFI with .cmdline,
.initrd and .linux added by boot/mkefi.sh) as the only file on an ESP
(\\EFI\\BOOT\\BOOTAA64.EFI), on QEMU virt with AAVMF under TCG: the stub
starts the arm64 kernel from its .linux section, hands it the initramfs
from .initrd through LINUX_EFI_INITRD_MEDIA_GUID, uses its embedded
.cmdline, and the suite saves its results on that ESP. The file make
built carries BOOTAA64.EFI's code unchanged, the arm64 console in its
.cmdline and no build time in its header. One short boot with one probe."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

A = ARCHS["arm64"]
made = os.path.join(A["build"], "timeprobe.efi")
default = efi_default_cmdline("arm64")
diag("embedded default: %s" % default)
ok("console=ttyAMA0" in default and "initrd=" not in default,
   "make ARCH=arm64 efi: the embedded line has the arm64 console and no initrd=", default)
stub = os.path.join(A["build"], "boot", A["stub"])
ok(all(efi_section(made, s, "arm64") == efi_section(stub, s, "arm64") for s in (".text", ".data")),
   "its .text and .data are BOOTAA64.EFI's")
head = subprocess.run([A["objdump"], "-p", made], capture_output=True, text=True).stdout
ok("Time/Date\t\tThu Jan  1 00:00:00 1970" in head and "CheckSum\t\t00000000" in head,
   "its PE header carries no build time (TimeDateStamp and CheckSum 0)",
   [l for l in head.splitlines() if "Time" in l or "CheckSum" in l])

embedded = default + " timeprobe.profile=quick timeprobe.probes=clocks"
efi = single_efi("arm64-single", embedded, arch="arm64")
img = single_image("arm64-single", efi, arch="arm64")
files = esp_files(img)
ok(files == ["::/EFI/BOOT/BOOTAA64.EFI", "::/timeprobe/id"],
   "the ESP holds only \\EFI\\BOOT\\BOOTAA64.EFI and the image's \\timeprobe\\id", files)
status, secs, text = boot(img, "virt", timeout=1500, env=dict(os.environ, ARCH="arm64"))
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
recs, _ = records(text)
suite = check_suite(text, "arm64 single file: ")
start = first(recs, "stub_start")
ok(start.get("mode") == "single-file" and start.get("kernel") == ".linux section"
   and start.get("initrd") == "initrd_media_guid",
   "stub_start: single-file, .linux section, initrd by GUID", start)
ok("EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path" in text,
   "Linux's EFI stub took the initramfs from LINUX_EFI_INITRD_MEDIA_GUID")
cl = first(recs, "stub_cmdline")
kcl = kernel_cmdline(text) or ""
ok(cl.get("source") == "embedded" and kcl.startswith(embedded + " "),
   "the stub used the .cmdline section, and the kernel got that line", "%s / %s" % (cl, kcl))
end = suite[-1] if suite else {}
ok(end.get("probes_ok") == 1 and end.get("probes_failed") == 0, "clocks ran and did not fail", end)
saved = esp_list(img)
ok(len(saved) == 1 and "results saved to" in text, "the results were saved on the ESP: %s" % saved)
diag("arm64 single-file boot: %.0f s" % secs)
done()
