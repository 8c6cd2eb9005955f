#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe tsc on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `tsc`: the user calibration is plausible and agrees with
# the kernel's figure where the log has one, the flags record is complete,
# the cross-CPU check gives a record per pair (or skips with a reason on one
# CPU, checked for real under `taskset -c 0`), the stub's words are refused
# on a host (the appliance's boot tests check their hand-over, test_tsc and
# test_handoff their parsing), the quick profile stays under 5 s, and every
# record's CRC is valid.
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import done, ok, run_probe, skip, timing  # noqa: E402

FLAGS = ["constant_tsc", "nonstop_tsc", "tsc_known_freq", "tsc_reliable", "rdtscp", "invariant"]


def run(*args, prefix=()):
    p, recs, bad, _, secs = run_probe("tsc", *args, prefix=prefix)
    return p, [r for r in recs if r.get("probe") == "tsc"], bad, secs


def pick(recs, typ, **kw):
    return [r for r in recs if r.get("type") == typ and all(r.get(k) == v for k, v in kw.items())]


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


ncpu = len(os.sched_getaffinity(0))

# 1. as it comes on this host
p, recs, bad, elapsed = run()
ok(p.returncode == 0, "timeprobe run exits 0", p.stdout[-2000:])
ok(not bad, "every record's CRC is valid", "\n".join(bad))
timing(elapsed < 5, "quick profile under 5 s", "%.2f s" % elapsed)
ok(not pick(recs, "error"), "no error record", pick(recs, "error"))
user = pick(recs, "calib", source="user")
ok(len(user) == 1, "one user calibration record", user)
u = user[0] if user else {}
ok(num(u.get("tsc_hz")) and 1e8 <= u["tsc_hz"] <= 1e10, "user tsc_hz plausible (%s)" % u.get("tsc_hz"))
ok(num(u.get("spread_ppm")) and u["spread_ppm"] >= 0, "user spread_ppm a number >= 0 (%s)" % u.get("spread_ppm"))
timing(num(u.get("spread_ppm")) and u["spread_ppm"] < 1e5, "user spread_ppm under 10 %", u.get("spread_ppm"))
ok(u.get("rounds") == 5 and u.get("round_ms") == 50, "quick: 5 rounds of 50 ms", u)
ok(pick(recs, "skip", name="stub calibration"), "no stub hand-over on a host: a skip with reason")
agree = pick(recs, "result", name="tsc agreement")
ok(len(agree) == 1 and agree[0]["stub_vs_kernel_ppm"] is None and agree[0]["stub_vs_user_ppm"] is None,
   "agreement: stub figures null without a stub", agree)
kern = pick(recs, "calib", source="kernel")
if kern:
    a = agree[0] if agree else {}
    # the kernel itself only accepts a refinement within 1 % (tsc_refine_calibration_work)
    ok(num(a.get("kernel_vs_user_ppm")), "kernel vs user: a figure in ppm", a)
    timing(num(a.get("kernel_vs_user_ppm")) and abs(a["kernel_vs_user_ppm"]) < 10000,
           "kernel vs user within 1 %", "%s ppm" % a.get("kernel_vs_user_ppm"))
    ok(all(r["ref"] in ("detected", "detected_tsc", "refined", "pit", "hpet", "pmtimer") for r in kern),
       "kernel calib refs are known names", kern)
else:
    ok(pick(recs, "skip", name="kernel calibration"), "no kernel figure: a skip with reason")
    skip("kernel vs user", "no kernel figure in the log")
ok(len(pick(recs, "result", name="kernel tsc messages")) == 1, "kernel messages record")
fl = pick(recs, "result", name="tsc flags")
ok(len(fl) == 1 and all(isinstance(fl[0].get(f), bool) for f in FLAGS) and "clocksource" in fl[0],
   "flags record: every flag a boolean, and the clocksource", fl)
pairs = [r for r in pick(recs, "result") if r["name"].startswith("sync cpu")]
if ncpu >= 2:
    ok(len(pairs) == min(ncpu - 1, 8), "one sync record per pair (%d CPUs)" % ncpu, [r["name"] for r in pairs])
    ok(all(r["iterations"] > 0 and r["handoffs"] > 0 and r["warps"] >= 0 and r["max_warp_ticks"] >= 0
           and r["duration_ms"] == 200 for r in pairs), "sync pairs: iterations and hand-overs counted", pairs)
    ok(all((r["warps"] == 0) == (r["max_warp_ticks"] == 0) for r in pairs),
       "sync pairs: a warp count goes with a warp size", pairs)
    ok(len(pick(recs, "result", name="tsc sync")) == 1, "sync summary record")
else:
    ok(pick(recs, "skip", name="tsc sync"), "one CPU: sync skipped with a reason")
    skip("sync pairs", "one CPU")
    skip("sync warps", "one CPU")
    skip("sync summary", "one CPU")

# 2. one CPU, really
if shutil.which("taskset"):
    p, recs, bad, _ = run(prefix=("taskset", "-c", "0"))
    sk = pick(recs, "skip", name="tsc sync")
    ok(p.returncode == 0 and not bad, "taskset -c 0: runs, CRCs valid", p.stdout[-1500:])
    ok(len(sk) == 1 and "one CPU" in sk[0]["reason"], "taskset -c 0: sync skipped with a reason", sk)
else:
    skip("taskset run", "no taskset")
    skip("taskset skip", "no taskset")

# 3. a host has no stub: its words are refused, no figure is labelled the stub's
uhz = int(u.get("tsc_hz") or 2000000000)
for word, why in (("--tsc_hz=%d" % uhz, "the stub's alone"), ("--tsc_ref=hpet", "the stub's alone"),
                  ("--tsc_calib=hpet:%d:12" % uhz, "unknown option")):
    p, recs, bad, _ = run(word)
    ok(p.returncode == 2 and why in p.stdout and not pick(recs, "calib"),
       "%s: refused on a host (exit 2, says why), no calib record" % word.split("=")[0],
       p.stdout[-600:])

done()
