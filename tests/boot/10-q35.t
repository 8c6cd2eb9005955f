#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The whole appliance on q35 under OVMF, quick profile: stub, kernel, every
probe, records, progress lines, power-off; then the saved file on the ESP,
and a second boot that adds a second file."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

img = image_copy("q35", "timeprobe.profile=quick timeprobe.watchdog=1500")
status, secs, text = boot(img, "q35", timeout=1800)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text)
check_progress(text, suite)
# the stub announces its calibration to the launcher's watcher (common/announce.h)
import qemu_watch  # noqa: E402
calib = [m.group(1) for m in qemu_watch.ANNOUNCE.finditer(text.encode())]
ok(b"calibrating the TSC" in calib, "the stub announces the calibration's limit", calib)
by_probe = {}
for r in suite:
    if "probe" in r:
        by_probe.setdefault(r["probe"], []).append(r)
end = suite[-1] if suite else {}
ok(end.get("probes_failed") == 0, "no probe failed",
   [r for r in suite if r["type"] == "error"])

# the probes' own appliance checks live in tests/boot/probes.py, shared with pc
import probes  # noqa: E402
probes.check_all(suite, text)

# saved on the stick: exactly the records that came over serial
files = esp_list(img)
ok(len(files) == 1 and files[0].endswith(".tp1") and files[0].startswith("0001-"),
   "one results file saved as 0001-<id>.tp1", files)
if files:
    saved, corrupt = records(esp_read(img, "/timeprobe/results/" + files[0]))
    ok(corrupt == 0 and suite_records(saved) == suite,
       "the saved file holds exactly the suite's serial records",
       "saved %d records, serial %d" % (len(saved), len(suite)))
    ok([r for r in saved if r["type"] == "boot"] == [r for r in records(text)[0] if r["type"] == "boot"],
       "the saved file holds the boot record too")
    serial = records(text)[0]
    stub = serial[:next((k + 1 for k, r in enumerate(serial) if r["type"] == "stub_start"), 0)]
    ok(stub and saved[:len(stub)] == stub, "the saved file begins with the stub's %d records, whole "
       "(from its file)" % len(stub), [r["type"] for r in saved[:len(stub) + 1]])

# a second boot adds a second file, never overwriting
set_cmdline(img, QUICK)
status, _, text = boot(img, "q35", timeout=900)
ok(status == 0, "second boot: QEMU exited by itself")
files2 = esp_list(img)
ok(len(files2) == 2 and files2[0] == (files[0] if files else None) and files2[1].startswith("0002-"),
   "second boot added 0002-<id>.tp1 beside the first", files2)
done()
