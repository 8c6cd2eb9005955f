#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: the stub's calibration under CPU hogs it starts itself; run alone (tools/prove-all.sh)
"""The stub's calibration on a loaded host: QEMU TCG beside 2, then 4 CPU
hogs (busy loops of ordinary priority), ten boots each, every boot stopped
once the stub has handed over ("Kernel command line"). In at least 9 of 10
boots at least two hardware references (HPET, PM timer, PIT) must be present
and agree within 50 ppm, and the choice never falls to Stall while a
hardware reference is present (docs/stub.md, "Choice"). Slow (20 boots):
make test-all. HOGS="2 4" and BOOTS=10 override the plan; every boot's
figures are printed as diagnostics."""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

HW = ("hpet", "pmtimer", "pit")
AGREE_PPM = 50
HOGS = [int(x) for x in os.environ.get("HOGS", "2 4").split()]
BOOTS = int(os.environ.get("BOOTS", "10"))


def ppm_apart(hz):
    """Largest pairwise difference of the figures, in ppm of their median."""
    hz = sorted(hz)
    return (hz[-1] - hz[0]) * 1e6 / hz[len(hz) // 2]


def stub_calib(text):
    """(present hardware refs {ref: Hz}, chosen ref, every stub calib record)."""
    recs, _ = records(text)
    calib = [r for r in recs if r["type"] == "calib" and r.get("source") == "stub"]
    hw = {r["ref"]: r["tsc_hz"] for r in calib if r["ref"] in HW and not r.get("absent")}
    return hw, first(recs, "calib_summary").get("chosen"), calib


def start_hogs(n):
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
            for _ in range(n)]


def stop_hogs(hogs):
    for p in hogs:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait()


img = image_copy("load", "timeprobe.profile=quick timeprobe.probes=clocks")
for nhogs in HOGS:
    good, stall_wrong, lines = 0, 0, []
    hogs = start_hogs(nhogs)
    try:
        for i in range(BOOTS):
            status, secs, text = boot(img, "q35", timeout=900, until="Kernel command line")
            hw, chosen, calib = stub_calib(text)
            apart = ppm_apart(list(hw.values())) if len(hw) >= 2 else None
            if len(hw) >= 2 and apart <= AGREE_PPM:
                good += 1
            if hw and chosen not in HW:
                stall_wrong += 1
            absent = ["%s (%s)" % (r["ref"], r.get("reason")) for r in calib
                      if r["ref"] in HW and r.get("absent")]
            lines.append("hogs %d boot %d: chosen %s; %s; apart %s ppm; retried %s; absent %s; %.0f s"
                         % (nhogs, i + 1, chosen,
                            ", ".join("%s %d" % kv for kv in sorted(hw.items())) or "no hardware",
                            "%.1f" % apart if apart is not None else "-",
                            ", ".join("%s %s" % (r["ref"], r.get("retried", "-"))
                                      for r in calib if r["ref"] in HW),
                            "; ".join(absent) or "none", secs))
            diag(lines[-1])
    finally:
        stop_hogs(hogs)
    ok(good >= BOOTS - BOOTS // 10,
       "%d hogs: >= 2 hardware references agreeing within %d ppm in %d of %d boots"
       % (nhogs, AGREE_PPM, good, BOOTS), "\n".join(lines))
    ok(stall_wrong == 0, "%d hogs: the choice never fell to Stall while a hardware reference was present"
       % nhogs, "\n".join(lines))
done()
