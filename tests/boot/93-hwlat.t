#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel variant `hwlat` (kernel/variants/hwlat.config: the hwlat and
osnoise tracers, tracefs): one image of its own, one q35 boot with 2 CPUs,
probes hwlat and noise. The kernel's hwlat tracer runs on each CPU in turn
and its figures stand beside the stub's pre-OS scan of the same CPU, in ns
(docs/probes/hwlat.md). Slow (a kernel build the first time): run by
`make test-all`, not `make test`."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa
import probes  # noqa: E402

OUT = os.path.join(BUILD, "variant-hwlat")
APPEND = "timeprobe.profile=quick timeprobe.probes=hwlat,noise"
cmd = ["make", "-C", ROOT, "--no-print-directory", "image", "B=" + os.path.relpath(OUT, ROOT),
       "KVARIANT=hwlat", "APPEND=" + APPEND, "QEMU_CPUS=2"]
diag("running: " + " ".join(cmd))
p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
ok(p.returncode == 0, "make image KVARIANT=hwlat", p.stdout[-3000:])
if p.returncode != 0:
    done()
    sys.exit(0)
status, secs, text = boot(os.path.join(OUT, "timeprobe.img"), "q35", timeout=1500, cpus=2)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text)
run = suite[0] if suite else {}
ok(run.get("variant") == "hwlat", "the run record names the variant", run.get("variant"))
ok(bool(probes.ran(suite, "hwlat")), "probe hwlat ran")
traced = probes.check_hwlat(suite, text)
ok(len(traced) == run.get("cpus", 0) and all(r.get("tracer_ran_ms", 0) > 0 for r in traced),
   "the kernel's hwlat tracer ran on each CPU, its figures beside the stub's",
   [r.get("name") for r in traced])
ok(all("preos_max_ns" in r for r in traced), "each CPU's row has the stub's pre-OS max beside it")
done()
