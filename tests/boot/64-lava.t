#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A boot with timeprobe.lava (docs/lava.md): on the serial line, after each
result record, one TPM line per figure the probe declares, which the
monitor pattern of tools/lava/qemu-measure.yaml (read from the YAML, run
with Python's re as LAVA's pexpect does) matches with the record's value
and the declared unit."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

try:
    import yaml
except ImportError:
    print("1..0 # SKIP python3-yaml missing")
    sys.exit(0)

job = yaml.safe_load(open(os.path.join(ROOT, "tools", "lava", "qemu-measure.yaml")))
mon = [a["test"] for a in job["actions"] if "test" in a][0]["monitors"][0]

img = image_copy("lava", "timeprobe.profile=quick timeprobe.probes=vdso-check,yield timeprobe.lava")
status, secs, text = boot(img, "q35", timeout=900)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text)
ok(suite and suite[-1].get("probes_failed") == 0, "no probe failed",
   [r for r in suite if r["type"] == "error"])
(lines, unmatched), want, missing, wrong = lava_measurements(text, mon["pattern"])
ok(lines and not unmatched, "every TPM line matches the job's monitor pattern (%d)" % len(lines),
   unmatched[:3])
ok(want and not missing, "each declared figure of each result (%d) is a matched line with its value"
   % want, missing[:5])
ok(not wrong, "each carries its declared unit", wrong[:5])
ok(len(lines) == want, "no TPM line for anything but a declared figure",
   "%d lines, %d figures" % (len(lines), want))
start = text.find('TP1 {"type":"run"')
ok(start >= 0 and text.find("TPM ", 0, start) < 0, "no TPM line before the run record (the monitor's start)")
done()
