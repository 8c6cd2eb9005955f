#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe tscsync on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe `tscsync`: on a machine with two CPUs or more, a record
# per ordered pair whose interval is coherent (bound >= 0, round trip >= the
# interval's width), a summary that agrees with the pairs, each naming the
# counter, and a human matrix; no pre-OS figures on a host (a skip saying
# so), IA32_TSC_ADJUST of each CPU or a skip saying why; on one CPU the
# pairs a skip that says why, and IA32_TSC_ADJUST of that CPU all the same
# (TAP).
# The offsets themselves are diagnostics: they depend on the machine.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("tscsync")
ok(run.p.returncode == 0, "timeprobe run --probes=tscsync exits 0", run.p.stdout[-2000:])
ok(not run.bad, "every record's CRC is valid", run.bad)
mine = [r for r in run.recs if r.get("probe") == "tscsync"]
res = {r["name"]: r for r in mine if r["type"] == "result" and not r["name"].startswith("tsc_adjust")}
skips = [r for r in mine if r["type"] == "skip"]
if not res:
    ok(skips and all(r.get("reason") for r in skips), "skipped, and says why", skips)
    done()
summ = res.pop("tscsync summary", None)
ok(summ is not None, "a summary record", sorted(res))
# the counter compared is the CPU's own: the TSC on x86, CNTVCT_EL0 on arm64 (timeutil.h)
counter = {"x86_64": "tsc", "aarch64": "cntvct"}.get(os.uname().machine)
ok(counter and all(r.get("counter") == counter for r in res.values()) and summ and summ.get("counter") == counter,
   "every pair and the summary name the counter, %s" % counter,
   [(r["name"], r.get("counter")) for r in list(res.values()) + [summ or {}]])
n = summ.get("cpus_measured", 0) if summ else 0
pairs = [r for r in res.values() if r["name"].startswith("offset cpu")]
skipped_pairs = [r for r in skips if r.get("name", "").startswith("offset cpu")]
ok(len(pairs) + len(skipped_pairs) == n * (n - 1), "a record for every ordered pair of %d CPUs" % n,
   [r["name"] for r in pairs + skipped_pairs])
ok(all(r["cpu_a"] != r["cpu_b"] and r["name"] == "offset cpu%d cpu%d" % (r["cpu_a"], r["cpu_b"])
       for r in pairs), "each pair named by its two CPUs")
ok(all(r["samples"] >= 1 and r["bound_ticks"] >= 0 for r in pairs), "samples and a bound >= 0 per pair")
# the intersection is never wider than the tightest round trip's own interval
ok(all(2 * r["bound_ticks"] <= r["round_trip_ticks"] for r in pairs), "interval width <= tightest round trip",
   [(r["name"], r["bound_ticks"], r["round_trip_ticks"]) for r in pairs])
ok(all(r["excludes_zero"] == (abs(r["offset_ticks"]) > r["bound_ticks"]) for r in pairs),
   "excludes_zero agrees with offset and bound")
if summ and pairs:
    worst = max(abs(r["offset_ns"]) for r in pairs)
    ok(abs(summ["max_abs_offset_ns"] - worst) <= 1e-6 * max(1, worst), "summary: the largest |offset| of the pairs",
       (summ["max_abs_offset_ns"], worst))
    ok(summ["pairs_excluding_zero"] == sum(r["excludes_zero"] for r in pairs), "summary: pairs that prove an offset")
    ok(summ["pairs"] == len(pairs), "summary: pairs counted")
    by = {(r["cpu_a"], r["cpu_b"]): r for r in pairs}
    bad = sum(1 for (a, b), r in by.items() if a < b and (b, a) in by and
              abs(r["offset_ticks"] + by[(b, a)]["offset_ticks"]) > r["bound_ticks"] + by[(b, a)]["bound_ticks"])
    ok(summ["reverse_disagreements"] == bad, "summary: reverse pairs that contradict (%d)" % bad)
ok(any("offset (ns; row A" in l for l in run.human), "a human matrix", run.human[-20:])
pre = [r for r in mine if r.get("when") == "pre-os"]
ok(len(pre) == 1 and pre[0]["type"] == "skip" and
   pre[0].get("reason") == "no pre-OS figures: no stub file (stub.tp1), not booted by the timeprobe stub",
   "a host run: one pre-os skip, not booted by the stub", pre)


def adjust_ok(recs, n, name=None):
    """IA32_TSC_ADJUST after boot: on x86, for each of n CPUs (name among
    them) a figure or a skip saying why; on arm64 one skip, x86 only."""
    got = {r["name"]: r for r in recs if r.get("name", "").startswith("tsc_adjust")}
    if counter == "cntvct":
        r = got.get("tsc_adjust", {})
        return len(got) == 1 and r.get("type") == "skip" and r.get("when") == "post-boot" and \
            r.get("reason") == "x86 only: IA32_TSC_ADJUST"
    return len(got) == n and (name is None or name in got) and all(
        r.get("when") == "post-boot" and (r["type"] == "result" and isinstance(r.get("tsc_adjust"), int) or
                                          r["type"] == "skip" and r.get("reason")) for r in got.values())


adj = [r for r in mine if r.get("name", "").startswith("tsc_adjust")]
ok(adjust_ok(mine, n), "IA32_TSC_ADJUST of each of the %d CPUs, or a skip saying why (arm64: x86 only)" % n,
   [r["name"] for r in adj])
for r in adj:
    diag("%s: %s" % (r["name"], r.get("tsc_adjust", r.get("reason"))))
one = run_probe("tscsync", prefix=("taskset", "-c", "0"))
mine1 = [r for r in one.recs if r.get("probe") == "tscsync"]
sk = [r for r in mine1 if r["type"] == "skip" and r.get("name") == "offset"]
ok(one.p.returncode == 0 and len(sk) == 1 and "one CPU" in sk[0].get("reason", "") and
   sk[0].get("when") == "post-boot" and
   not [r for r in mine1 if r["type"] == "result" and not r["name"].startswith("tsc_adjust")],
   "pinned to one CPU: the pairs are one skip saying so; no pair result, no summary", mine1)
ok(adjust_ok(mine1, 1, "tsc_adjust cpu0"),
   "pinned to one CPU: IA32_TSC_ADJUST of cpu0 all the same, or a skip saying why (arm64: x86 only)",
   [r for r in mine1 if r.get("name", "").startswith("tsc_adjust")])
pre1 = [r for r in mine1 if r.get("when") == "pre-os"]
ok(len(pre1) == 1 and pre1[0]["type"] == "skip" and "not booted by the timeprobe stub" in pre1[0].get("reason", ""),
   "pinned to one CPU: the pre-os skip as on any host run", pre1)
for r in pairs:
    diag("%s: %+.1f ns +- %.1f, round trip %.1f ns, %d samples" % (
        r["name"], r["offset_ns"], r["bound_ns"], r["round_trip_ns"], r["samples"]))
done()
