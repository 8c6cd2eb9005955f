#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The single file build/timeprobe.efi as the only file on an ESP
(\\EFI\\BOOT\\BOOTX64.EFI): the stub starts the kernel from its .linux
section, hands it the initramfs from .initrd through
LINUX_EFI_INITRD_MEDIA_GUID, and uses its embedded .cmdline; then the same
file with a \\EFI\\timeprobe\\cmdline.txt beside it, which overrides the
embedded line (its initrd= word dropped); that second ESP has no
\\timeprobe\\id, as another system's ESP would not, so nothing is saved on it."""
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

default = efi_default_cmdline()
diag("embedded default: %s" % default)
ok("initrd=" not in default, "the embedded default line has no initrd= (the initramfs is embedded)")
embedded = default + " " + QUICK
efi = single_efi("single", embedded)


def common(text, name):
    recs, _ = records(text)
    suite = check_suite(text, name)
    kcl = kernel_cmdline(text) or ""
    ok(kcl and "initrd=" not in kcl, "%sno initrd= on the kernel's command line" % name, kcl)
    ok("EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path" in text,
       "%sLinux's EFI stub took the initramfs from LINUX_EFI_INITRD_MEDIA_GUID" % name)
    ok("Unpacking initramfs" in text and bool(suite), "%sthe initramfs ran (the suite ran)" % name)
    start = first(recs, "stub_start")
    ok(start.get("mode") == "single-file" and start.get("kernel") == ".linux section"
       and start.get("initrd") == "initrd_media_guid",
       "%sstub_start: single-file, .linux section, initrd by GUID" % name, start)
    end = suite[-1] if suite else {}
    ok(end.get("probes_failed") == 0 and end.get("probes_ok", 0) >= 1, "%svdso-check ran, none failed" % name,
       end)
    return recs, kcl


# 1. only BOOTX64.EFI on the ESP: the embedded command line
img = single_image("single", efi)
files = esp_files(img)
ok(files == ["::/EFI/BOOT/BOOTX64.EFI", "::/timeprobe/id"],
   "the ESP holds only \\EFI\\BOOT\\BOOTX64.EFI and the image's \\timeprobe\\id", files)
status, secs, text = boot(img, "q35", timeout=900)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
recs, kcl = common(text, "embedded: ")
cl = first(recs, "stub_cmdline")
ok(cl.get("source") == "embedded", "embedded: the stub used the .cmdline section", cl)
ok(kcl.startswith(embedded + " "), "embedded: the kernel's line starts with the embedded line", kcl)
sc = first(recs, "stub_console")
ok(sc.get("spcr") is False and sc.get("added") is False and sc.get("reason") == "no SPCR table",
   "no SPCR under QEMU: stub_console says so and adds nothing", sc)
ok(stub_values(recs).get("bootpart", "").startswith("gpt:"),
   "the boot partition is named by its GPT GUID", stub_values(recs))
files = esp_list(img)
ok(len(files) == 1 and files[0].endswith(".tp1"), "results saved on the ESP beside the single file", files)

# 2. cmdline.txt beside it overrides the embedded line; its initrd= goes.
# Without \\timeprobe\\id, as when a person copies the file onto the ESP of
# an installed system: nothing is written there, and the log says why.
override = "console=tty0 console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img " + QUICK
img = single_image("single-override", efi, override)
subprocess.run(["mdel", "-i", img + ESP_OFFSET, "::/timeprobe/id"], env=mtools_env(), check=True)
before = hashlib.sha256(open(img, "rb").read()).hexdigest()
status, secs, text = boot(img, "q35", timeout=900)
ok(status == 0, "override: QEMU exited by itself with status 0", text[-3000:])
recs, kcl = common(text, "override: ")
cl = first(recs, "stub_cmdline")
ok(cl.get("source") == "file" and cl.get("initrd_dropped") == 1,
   "override: cmdline.txt used, its initrd= word dropped", cl)
want = override.replace("initrd=\\EFI\\timeprobe\\initramfs.img ", "")
ok(kcl.startswith(want + " "), "override: the kernel's line starts with cmdline.txt's words", kcl)
ok("timeprobe.variant=" not in kcl, "override: nothing of the embedded line is left (it is replaced)", kcl)
ok("overrides the embedded command line" in text, "override: the stub says so")
ok("it has no \\timeprobe\\id, so no timeprobe image made it" in text,
   "another system's ESP (no \\timeprobe\\id): the log says the results were not saved there")
ok(hashlib.sha256(open(img, "rb").read()).hexdigest() == before,
   "and the disk's bytes are the same as before the run")
done()
