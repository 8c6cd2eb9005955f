#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""q35 without an HPET and with a single CPU: the stub says HPET is absent and
chooses the PM timer; every probe still runs, and what needs two CPUs is a
skip with a reason, not a failure (tscsync still gives cpu0's IA32_TSC_ADJUST).
The pre-OS latency scan's window is 0 here: no scan, and the run says so."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

img = image_copy("hpet-off", "timeprobe.profile=quick timeprobe.watchdog=1200 timeprobe.hwlat_ms=0")
status, secs, text = boot(img, "q35,hpet=off", timeout=1500, cpus=1)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
recs, corrupt = records(text)
calib = {r["ref"]: r for r in recs if r["type"] == "calib" and r.get("source") == "stub"}
summary = [r for r in recs if r["type"] == "calib_summary" and r.get("source") == "stub"]
ok(calib.get("hpet", {}).get("absent") is True, "stub reports HPET absent", calib.get("hpet"))
ok(bool(calib.get("hpet", {}).get("reason")), "with a reason", calib.get("hpet"))
ok(calib.get("pmtimer", {}).get("tsc_hz", 0) > 0, "PM timer calibration present", calib.get("pmtimer"))
ok(bool(summary) and summary[-1].get("chosen") == "pmtimer", "the PM timer is chosen",
   summary[-1] if summary else None)
suite = check_suite(text)
run = suite[0] if suite else {}
ok("hpet" not in run.get("available_clocksources", "hpet"), "the kernel has no hpet clocksource",
   run.get("available_clocksources"))
fp = first(suite, "fingerprint")
ok(fp.get("acpi_hpet_table") is False and fp.get("hpet_clocksource") is False,
   "fingerprint: no HPET table from QEMU's hpet=off, no hpet clocksource",
   (fp.get("acpi_hpet_table"), fp.get("hpet_clocksource")))
ok(stub_values(records(text)[0]).get("tsc_ref") == "pmtimer",
   "the stub handed over the PM timer's figure", stub_values(records(text)[0]))
ok(bool(suite) and suite[-1].get("probes_failed") == 0, "no probe failed",
   [r for r in suite if r["type"] == "error"])
ok(run.get("cpus") == 1, "the run record says one CPU", run.get("cpus"))
skips = [r for r in suite if r["type"] == "skip"]
cross = [r for r in skips if r.get("probe") == "switch"]
ok(cross and all(r.get("reason") for r in cross), "switch: cross-CPU variants skipped with a reason",
   [(r.get("name"), r.get("reason")) for r in skips])
ok(any(r.get("probe") == "tsc" for r in skips), "tsc: the cross-CPU sync check skipped with a reason",
   [(r.get("name"), r.get("reason")) for r in skips])
mine = [r for r in suite if r.get("probe") == "tscsync"]
ok([r.get("when") for r in skips if r.get("probe") == "tscsync" and r.get("name") == "offset" and
    "one CPU" in r.get("reason", "")] == ["post-boot"] and
   not [r for r in mine if r["type"] == "result" and not r["name"].startswith("tsc_adjust")],
   "tscsync: the pairs one skip saying why (one CPU), no pair result and no summary", mine)
# ... and IA32_TSC_ADJUST of cpu0 all the same, pre-OS (from the stub's word) and
# post-boot, each a figure or a skip with its reason (as on q35 with two CPUs)
import probes  # noqa: E402
probes.check_tscsync_preos(suite, text, 1)
# window 0: the stub's summary says no scan ran (and why), probe hwlat's skip says so too
ok(probes.check_preos_hwlat(text, 1) == {}, "hwlat_ms=0: no pre-OS scan")
ok(any(r.get("probe") == "hwlat" and r.get("name") == "pre-os" and "hwlat_ms=0" in r.get("reason", "")
       for r in skips), "hwlat: the pre-OS skip names timeprobe.hwlat_ms=0",
   [r for r in skips if r.get("probe") == "hwlat"])
done()
