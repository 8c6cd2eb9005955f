#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The stub with its kernel file removed: a clear message naming the file and
the EFI status, then back to the firmware (which shows its boot manager or
shell; the test stops QEMU there)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

img = image_copy("no-kernel", remove=["/EFI/timeprobe/vmlinuz"])
# OVMF falls back to its shell after the stub returns: stop QEMU there.
status, secs, text = boot(img, "q35", timeout=300, until="Shell>")
plain = ANSI.sub("", text)
ok(re.search(r"vmlinuz", plain) and re.search(r"Not Found", plain),
   "the stub names the missing file and the EFI status", plain[-2000:])
ok("Run /init" not in plain and "Linux version" not in plain, "no kernel was started")
ok("Shell>" in plain or "Boot Manager" in plain or "BdsDxe" in plain,
   "the firmware took over again after the stub returned", plain[-1500:])
recs, corrupt = records(text)
ok(any(r["type"] == "stub" for r in recs), "the stub's banner record is there")
done()
