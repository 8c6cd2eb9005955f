#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every CPU before the OS (issue 37): q35 with 20 CPUs under TCG, then the
arm64 image on virt with 8 CPUs (PSCI CPU_ON) when it is built. The stub
measures every AP's counter offset and scans every CPU; the suite's records
carry each AP's pre-OS pair (tscsync) and each CPU's pre-OS scan (hwlat),
all from the stub's file; the kernel's line is no more than 64 bytes
longer than a 2-CPU boot's; the step announces a limit that grows with the
CPUs. The stub's time per CPU is a diagnostic (docs/stub.md). Slow under
TCG (about 4 min for q35, more for arm64): make test-all only."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

# tscsync samples every pair after boot too: 20 vCPUs on a loaded TCG host need
# more than its own limit
PROBES = "timeprobe.profile=quick timeprobe.probes=tscsync,hwlat timeprobe.timeout=1200"


def every_cpu(name, machine, cpus, source, env=None):
    img = image_copy(name, PROBES, source=source)
    status, secs, text = boot(img, machine, timeout=3000, cpus=cpus, env=env)
    ok(status == 0, "%s: QEMU exited by itself" % name, text[-2000:])
    suite = check_suite(text, name + ": ")
    recs, _ = records(text)
    summ = first([r for r in recs if r.get("what") == "summary"], "stub_tscsync")
    # the pre-OS pairs are named by hardware ID: apic_b on x86, mpidr_b on arm64 (hwid.h)
    key = "apic_b" if machine != "virt" else "mpidr_b"
    pairs = [r for r in suite if r.get("probe") == "tscsync" and key in r]
    ok(summ.get("aps_measured") == cpus - 1 and len(pairs) == cpus - 1 and
       len({r[key] for r in pairs}) == cpus - 1,
       "%s: the stub measured all %d APs and the suite has each one's pre-OS pair (%d)"
       % (name, cpus - 1, len(pairs)), summ)
    scans = [r for r in suite if r.get("probe") == "hwlat" and r.get("preos_reported") is True]
    ok(len({r.get("cpu") for r in scans}) == cpus,
       "%s: the suite has the pre-OS scan of all %d CPUs (%d)" % (name, cpus, len(scans)))
    m = re.search(r"timeprobe: measuring the counter offsets of (\d+) other CPUs, limit (\d+) s", text)
    ok(m and int(m.group(1)) == cpus - 1 and int(m.group(2)) >= 2 * (cpus - 1),
       "%s: the per-CPU step announced a limit for %s CPUs" % (name, m.group(1) if m else None))
    boot_rec = first(recs, "boot")	# after the end record: not one of suite_records()
    if boot_rec.get("stub_tscsync_us"):
        diag("%s: the stub's time per CPU: offsets %.0f ms an AP, scan %.0f ms for %d CPUs "
             "(window %s ms)" % (name, boot_rec["stub_tscsync_us"] / 1000.0 / (cpus - 1),
                                 boot_rec["stub_hwlat_us"] / 1000.0, cpus,
                                 first([r for r in recs if r["type"] == "stub_hwlat"
                                        and r.get("what") == "summary"], "stub_hwlat").get("window_ms")))
    return kernel_cmdline(text) or ""


def two_cpu_line(name, machine, source, env=None):
    """A 2-CPU boot's kernel line, stopped once Linux printed it."""
    img = image_copy(name, PROBES, source=source)
    status, secs, text = boot(img, machine, timeout=900, cpus=2, env=env, until="Kernel command line:")
    return kernel_cmdline(text) or ""


line20 = every_cpu("cpus-20", "q35", 20, IMAGE)
line2 = two_cpu_line("cpus-2", "q35", IMAGE)
ok(line2 and len(line20) <= len(line2) + 64, "q35: the kernel's line with 20 CPUs (%d bytes) is no "
   "more than 64 bytes longer than with 2 (%d)" % (len(line20), len(line2)))
if os.path.exists(IMAGE_ARM64):
    env = dict(os.environ, ARCH="arm64")
    line8 = every_cpu("cpus-arm64-8", "virt", 8, IMAGE_ARM64, env)
    line2 = two_cpu_line("cpus-arm64-2", "virt", IMAGE_ARM64, env)
    ok(line2 and len(line8) <= len(line2) + 64, "arm64: the kernel's line with 8 CPUs (%d bytes) is "
       "no more than 64 bytes longer than with 2 (%d)" % (len(line8), len(line2)))
else:
    skip("arm64 with 8 CPUs", "no %s (make ARCH=arm64 image)" % IMAGE_ARM64)
done()
