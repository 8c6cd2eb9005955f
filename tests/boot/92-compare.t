#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/compare.sh (make compare) with one quick probe: the host run and the
appliance in QEMU get the same options, the report labels them host and
appliance, plots are drawn, and the header says how QEMU ran the appliance
(TCG said at the top). The image it starts from already names another
profile and probe, so the options must replace those words, not pile up
after them. One TCG boot: run by `make test-all`."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

OUT = test_dir("compare")
img = image_copy("compare-source", "timeprobe.profile=full timeprobe.probes=wakeup")
cmd = ["sh", os.path.join(ROOT, "tools/compare.sh"), "--out", OUT, "--timeout", "900",
       "--bin", os.path.join(BUILD, "timeprobe"), img, "profile=quick", "probes=clocks"]
diag("running: " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd))
p = subprocess.run(cmd, capture_output=True, text=True)
ok(p.returncode == 0, "compare.sh exited 0", p.stdout[-2000:] + p.stderr[-2000:])


def read(name):
    path = os.path.join(OUT, name)
    return open(path, encoding="utf-8", errors="replace").read() if os.path.exists(path) else ""


host, appl, report = read("host.log"), read("appliance.log"), read("report.txt")
hrecs, hbad = records(host)
hsuite = suite_records(hrecs)
ok(hbad == 0 and hsuite and hsuite[-1]["type"] == "end", "host: the run finished (end record)")
hrun = hsuite[0] if hsuite else {}
ok(hrun.get("env") == "os" and hrun.get("profile") == "quick", "host: env os, profile quick", hrun)
ok({r.get("probe") for r in hsuite if r["type"] == "result"} == {"clocks"},
   "host: only clocks ran")

suite = check_suite(appl, "appliance: ")
run = suite[0] if suite else {}
words = (run.get("cmdline") or "").split()
for w, other in (("timeprobe.profile=quick", "timeprobe.profile="), ("timeprobe.probes=clocks",
                                                                      "timeprobe.probes=")):
    ok(words.count(w) == 1 and sum(x.startswith(other) for x in words) == 1,
       "appliance: %s replaced the image's own word" % w, run.get("cmdline"))
ok({r.get("probe") for r in suite if r["type"] == "result"} == {"clocks"},
   "appliance: only clocks ran")
ok(len(esp_list(os.path.join(OUT, "appliance.img"))) == 1,
   "appliance: its results were saved on its own copy of the image")
ok(esp_list(img) == [], "the image compare.sh started from is untouched")

lines = report.splitlines()
ok(lines[:1] == ["timeprobe compare: this machine's OS (host) and the appliance in QEMU (appliance)"],
   "report.txt starts with what is compared", report[:500])
# What the launcher chooses on this machine (tools/accel.sh, cached verdict).
choice = subprocess.run(["sh", os.path.join(ROOT, "tools/accel.sh"), "--quiet"],
                        capture_output=True, text=True).stdout.split()
tcg = choice[:1] == ["tcg"]
diag("the launcher's choice: %s; the appliance's run record: accel %s, CPU %s"
     % (" ".join(choice), run.get("accel"), run.get("cpu_model")))
ok(run.get("accel") == ":".join(choice), "the appliance ran as the launcher chose",
   run.get("accel"))
ok(len(lines) > 1 and lines[1].startswith("UNDER TCG") == tcg,
   "the second line says UNDER TCG exactly when the appliance ran under TCG (%s)" % tcg,
   report[:500])
ok("options (both sides): profile=quick probes=clocks" in lines[:6],
   "the header names the options given to both sides", report[:600])
ok(any(re.match(r"^\s+result / figure\s+host\s+appliance\s+ratio", l) for l in lines),
   "the report's figure tables have the columns host and appliance", report[:1500])
cost = [re.match(r"^\s+ns_per_call\s+(\S+)\s+(\S+)", l) for l in lines]
cost = [m.groups() for m in cost if m]
ok(any(h != "-" for h, a in cost) and any(a != "-" for h, a in cost),
   "clock read costs from both sides are in it (%d rows)" % len(cost), report[:2000])
plots = os.path.join(OUT, "plots")
ok(os.path.isdir(plots) and any(f.endswith((".svg", ".png")) for f in os.listdir(plots)),
   "plots drawn into %s" % os.path.relpath(plots, ROOT),
   os.listdir(plots) if os.path.isdir(plots) else "no plots dir")
done()
