#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The arm64 pre-OS scan with an AP whose scan procedure never returns
(timeprobe.hwlat_stuck=1, the injection x86 has in 40-faults.t): the boot
goes on past the time-out, the stub names the stuck CPU as not reported
and says that PSCI still has it on, and Linux, which cannot start a CPU
that is on, runs the suite on the other one to its end record."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from tp1 import *  # noqa
from tpimage import *  # noqa
import probes  # noqa: E402

img = image_copy("arm64-stuck", "timeprobe.profile=quick timeprobe.probes=vdso-check "
                 "timeprobe.hwlat_stuck=1", source=IMAGE_ARM64)
status, secs, text = boot(img, "virt", timeout=1500, env=dict(os.environ, ARCH="arm64"))
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text, "arm64 stuck: ")
probes.check_preos_hwlat(text, 2, stuck_apic=1, arch="arm64")
recs, _ = records(text)
scan = next((r for r in recs if r["type"] == "stub_hwlat" and r.get("what") == "summary"), {})
ok(scan.get("finish_signalled") is False and "still on" in scan.get("reason", ""),
   "stub: PSCI still has the stuck CPU on, and the summary says Linux cannot start it", scan)
ok(suite and suite[0].get("cpus") == 1 and suite[-1].get("type") == "end",
   "Linux ran the suite on the one CPU it could start, to the end record",
   suite[:1] + suite[-1:])
diag("arm64 stuck-AP boot: %.0f s" % secs)
done()
