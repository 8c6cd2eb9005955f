#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The suite keeps going: a probe that crashes, one that hangs and one that
exits non-zero, plus garbage options; the run still ends with an end record
that counts three failures, and QEMU exits by itself. Before the OS, an AP
whose scan procedure never returns (timeprobe.hwlat_stuck=1) cannot hang the
boot: the scan ends at its time-out and names it."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

bad = ["timeprobe.profile=fast", "timeprobe.probes=nosuch,clocks", "timeprobe.repeat=-3",
       "timeprobe.timeout=99999999999", "timeprobe.bogus=1", "timeprobe.hold=abc"]
img = image_copy("faults", " ".join(["timeprobe.profile=quick", "timeprobe.inject=crash,hang,exit",
                                     "timeprobe.timeout=20", "timeprobe.watchdog=900",
                                     "timeprobe.hwlat_stuck=1"] + bad))
status, secs, text = boot(img, "q35", timeout=1200)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text)
end = suite[-1] if suite else {}
ok(end.get("probes_failed") == 3, "end counts three failed probes", end)
errors = [r for r in suite if r["type"] == "error"]
by_probe = {r.get("probe"): r for r in errors if "probe" in r}
ok(by_probe.get("crash", {}).get("reason") == "signal" and by_probe["crash"].get("signal") == 11,
   "crash: error with SIGSEGV", by_probe.get("crash"))
ok(by_probe.get("hang", {}).get("reason") == "timeout", "hang: error with timeout", by_probe.get("hang"))
ok(by_probe.get("exit", {}).get("reason") == "exit" and by_probe["exit"].get("exit_status") == 3,
   "exit: error with status 3", by_probe.get("exit"))
ok(all(r.get("ran_ms", -1) >= 0 for r in by_probe.values()), "each error says how long the probe ran")
opt_errors = {(r["option"], r["value"]) for r in errors if "option" in r}
for word in bad:
    name, value = word[len("timeprobe."):].split("=", 1)
    if name == "probes":
        value = "nosuch"
    ok((name, value) in opt_errors, "bad option %s=%s reported" % (name, value), sorted(opt_errors))
ok(end.get("options_refused") == sum(1 for r in errors if "option" in r),
   "the end record counts the refused options", end.get("options_refused"))
after_verdict = text[text.rfind('"type":"verdict"'):]
for word in bad:
    name, value = word[len("timeprobe."):].split("=", 1)
    if name == "probes":
        value = "nosuch"
    ok("\n  %s=%s: " % (name, value) in after_verdict.replace("\r", ""),
       "refused %s=%s repeated after the verdict" % (name, value))
ok(any(r.get("probe") == "clocks" and r["type"] == "result" for r in suite),
   "the valid probe named beside the bad one still ran")
ok(suite and suite[0].get("profile") == "quick", "profile=fast kept the earlier good value quick")
import probes  # noqa: E402
probes.check_preos_hwlat(text, 2, stuck_apic=1)
ok(suite and suite[0].get("cpus") == 2, "Linux brought up both CPUs, the stuck AP too",
   suite[0].get("cpus") if suite else None)
done()
