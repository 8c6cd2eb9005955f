#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The appliance on the i440FX machine (-machine pc): IDE disk, no HPET-less
surprises, same records as on q35."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

img = image_copy("pc", "timeprobe.profile=quick timeprobe.watchdog=1500")
status, secs, text = boot(img, "pc", timeout=1800)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text)
ok(bool(suite) and suite[-1].get("probes_failed") == 0, "no probe failed",
   [r for r in suite if r["type"] == "error"])
ok(bool(suite) and "i440FX" in suite[0].get("machine", ""), "the run record names the pc machine",
   suite[0].get("machine") if suite else None)
import probes  # noqa: E402
probes.check_all(suite, text)
files = esp_list(img)
ok(len(files) == 1, "results saved on the IDE disk", files)
done()
