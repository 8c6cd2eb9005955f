#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# --cpu-dma-latency (userland/dmalat.c) from the command line to the run
# record: held, the record says what (and the fingerprint reads it back as
# the machine's limit); not asked for, null; refused (an unprivileged user), the
# record says why and the run goes on to its end record. tp-report's
# comparison of a run with the request and one without lists the limit
# among what differs between them.
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, done, first, ok, run_probe, skip, tp_report  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)
PROBE = "vdso-check"    # a probe of a few milliseconds
DEV = "/dev/cpu_dma_latency"

REPORT = tp_report()
run = run_probe(PROBE)
plain = run
r = first(run.recs, "run") or {}
ok(run.p.returncode == 0 and "cpu_dma_latency_us" in r and r["cpu_dma_latency_us"] is None
   and "cpu_dma_latency_asked_us" not in r, "not asked for: the run record says null", r)

run = run_probe(PROBE, "--cpu-dma-latency=0")
r = first(run.recs, "run") or {}
if os.geteuid() == 0 and os.path.exists(DEV):
    fp = first(run.recs, "fingerprint") or {}
    ok(r.get("cpu_dma_latency_us") == 0 and fp.get("cpu_dma_latency_limit_us") == 0,
       "--cpu-dma-latency=0 as root: held, and the fingerprint reads the machine's limit 0",
       (r.get("cpu_dma_latency_us"), fp.get("cpu_dma_latency_limit_us")))
else:
    ok(r.get("cpu_dma_latency_us", 1) is None and r.get("cpu_dma_latency_asked_us") == 0
       and r.get("cpu_dma_latency_error"), "--cpu-dma-latency=0 not held here: the record says why", r)
ok(run.p.returncode == 0 and first(run.recs, "end"), "the run goes on to its end record")
if os.geteuid() == 0 and os.path.exists(DEV):
    with tempfile.TemporaryDirectory() as d:
        logs = []
        for name, rn in (("plain", plain), ("held", run)):
            logs.append(os.path.join(d, name + ".log"))
            with open(logs[-1], "w") as f:
                f.write(rn.p.stdout)
        rep = subprocess.run([REPORT, *logs], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True).stdout
        diff = rep[rep.find("What differs"):][:3000]
        ok("cpu_dma_latency_limit_us" in diff and "2000000000" in diff,
           "the comparison lists the limit among what differs (2000000000 against 0)", diff)
else:
    skip("the comparison lists the limit among what differs", "not root or no %s" % DEV)

nobody = shutil.which("setpriv")
if os.geteuid() == 0 and os.path.exists(DEV) and nobody:
    run = run_probe(PROBE, "--cpu-dma-latency=10",
                    prefix=(nobody, "--reuid=65534", "--regid=65534", "--clear-groups"))
    r = first(run.recs, "run") or {}
    ok(r.get("cpu_dma_latency_us", 1) is None and r.get("cpu_dma_latency_asked_us") == 10
       and "refused" in (r.get("cpu_dma_latency_error") or "")
       and any("not held" in h for h in run.human), "refused to an unprivileged user: said, in the "
       "record and on a line", (r, run.human[:5]))
    ok(run.p.returncode == 0 and first(run.recs, "end"), "and the run goes on to its end record",
       run.p.stdout[-800:])
else:
    skip("refused to an unprivileged user", "not root, no %s or no setpriv" % DEV)
done()
