#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probe clocks on this host, whose figures a test beside it would disturb; run alone (tools/prove-all.sh)
# Host test of probe clocks: runs `build/timeprobe run --probes=clocks
# --profile=quick` and checks the records and the human table (TAP).
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, done, ok, run_probe, skip, timing  # noqa: E402

CLOCKS = ["CLOCK_REALTIME", "CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC",
          "CLOCK_MONOTONIC_COARSE", "CLOCK_MONOTONIC_RAW", "CLOCK_BOOTTIME",
          "CLOCK_TAI", "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
          "CLOCK_REALTIME_ALARM", "CLOCK_BOOTTIME_ALARM"]
FIELDS = ["ns_per_call", "ns_per_call_min", "ns_per_call_p99", "ticks_per_call",
          "overhead_ns_per_call", "resolution_ns", "granularity_ns", "backward_steps",
          "user_us", "sys_us", "vol_ctxsw", "invol_ctxsw", "last_value", "path",
          "clocksource"]

# the platform counters: path -> the clocksource each backs (clocks_dev.c)
DEVICES = {"hpet-mmio": "hpet", "pmtimer-port": "acpi_pm", "pit-latch": "pit"}
DEV_FIELDS = ["ns_per_call", "ns_per_call_min", "ns_per_call_p99", "n", "ticks_per_call",
              "overhead_ns_per_call", "resolution_ns", "counter", "via", "backs_clocksource",
              "counter_hz", "counter_bits", "clocksource"]

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

p, recs, bad, human, secs = run_probe("clocks")
ok(p.returncode == 0, "timeprobe run --probes=clocks --profile=quick exits 0", p.stdout[-2000:])
timing(secs < 30, "quick profile finishes in seconds", "%.1f s" % secs)
ok(not bad, "every record's CRC is valid", "\n".join(bad))
# the run's records: clocks splits into rounds (tests/host/rounds-split.t checks those)
mine = [r for r in recs if r.get("probe") == "clocks" and "round" not in r]
results = [r for r in mine if r["type"] == "result"]
skips = [r for r in mine if r["type"] == "skip"]
errors = [r for r in recs if r["type"] == "error"]
ok(not errors, "no error records", errors)
ok(all("clocksource" in r for r in mine), "every clocks record carries the clocksource",
   [r for r in mine if "clocksource" not in r])

run_rec = next((r for r in recs if r["type"] == "run"), {})
block = [r for r in results if r["name"] == "clocksource"]
ok(len(block) == 1 and block[0]["clocksource"] == run_rec.get("clocksource"),
   "one block, for the clocksource in use (%s)" % run_rec.get("clocksource"), block)

# every expected source appears, as a result or a skip, on each path
expected = [("time()", "libc"), ("time()", "syscall"),
            ("gettimeofday()", "libc"), ("gettimeofday()", "syscall")]
for c in CLOCKS:
    expected += [("clock_gettime(%s)" % c, "libc"), ("clock_gettime(%s)" % c, "syscall")]
expected += [("rdtsc", "insn"), ("lfence;rdtsc", "insn"), ("rdtscp", "insn"),
             ("cheap.gettime (TSC * mult >> shift)", "tsc-user")]


def family(path):
    return "libc" if path in ("vdso", "libc") else path


missing = [e for e in expected
           if not any(r["name"] == e[0] and family(r.get("path")) == e[1] for r in results + skips)]
ok(not missing, "every source appears as a result or a skip (%d sources)" % len(expected), missing)

measured = [r for r in results if "ns_per_call" in r and r["path"] not in DEVICES]
ok(measured and all(r["ns_per_call"] > 0 for r in measured), "ns_per_call is positive",
   [(r["name"], r["ns_per_call"]) for r in measured if not r["ns_per_call"] > 0])
lacking = [(r["name"], f) for r in measured for f in FIELDS if f not in r]
ok(not lacking, "every result has the figures with their units", lacking)
ok(all(r["n"] == r["batches"] and abs(r["elapsed_ms"] * 1e6 - r["ns_per_call_mean"] * r["calls_per_batch"]
       * r["batches"]) <= 1e-6 * r["elapsed_ms"] * 1e6 + 1 for r in measured),
   "n is the batch count behind the percentiles; elapsed_ms = mean x calls per batch x batches",
   [(r["name"], r["n"], r["batches"], r["elapsed_ms"]) for r in measured][:5])
ok(all(r["ns_per_call_min"] <= r["ns_per_call"] <= r["ns_per_call_p99"] for r in measured),
   "min <= median <= p99 of the batch means",
   [(r["name"], r["ns_per_call_min"], r["ns_per_call"], r["ns_per_call_p99"]) for r in measured])
ok(all(0 <= r.get("timer_share_pct", -1) <= 100 for r in measured),
   "every result says what share of it the timer around each batch took",
   [(r["name"], r.get("timer_share_pct")) for r in measured if not 0 <= r.get("timer_share_pct", -1) <= 100])
timing(all(r.get("timer_share_pct", 100) < 1 for r in measured),
   "the timer around each batch costs under 1 % of it",
   [(r["name"], r.get("timer_share_pct")) for r in measured if not r.get("timer_share_pct", 100) < 1])
ok(all(r.get("reason") for r in skips), "every skip says why", skips)
ok(all(isinstance(r["errno"], int) and r["errno"] > 0 for r in skips if "errno" in r),
   "skips of refused clocks carry the errno")
ok(all(r["path"] in ("vdso", "libc") and isinstance(r.get("vdso"), bool) for r in measured
       if family(r["path"]) == "libc"), "libc results say whether the vDSO served them")

mono = {r["path"]: r for r in measured if r["name"] == "clock_gettime(CLOCK_MONOTONIC)"}
ok("syscall" in mono and ("vdso" in mono or "libc" in mono),
   "CLOCK_MONOTONIC measured through libc and as a raw syscall", list(mono))
if "vdso" in mono and "syscall" in mono:
    timing(mono["syscall"]["ns_per_call"] > mono["vdso"]["ns_per_call"],
           "the syscall costs more than the vDSO", "%.1f > %.1f ns"
           % (mono["syscall"]["ns_per_call"], mono["vdso"]["ns_per_call"]))

rt = next((r for r in measured if r["name"] == "clock_gettime(CLOCK_REALTIME)"), None)
ok(rt is not None and re.fullmatch(r"\d+\.\d{9}", rt["last_value"]) is not None,
   "last_value is seconds with nanoseconds", rt and rt["last_value"])
tsc = next((r for r in measured if r["path"] == "tsc-user"), None)
if tsc:
    ok(tsc.get("calibration") in ("stub", "user") and tsc.get("mult", 0) > 0,
       "the TSC clock says its calibration and mult/shift", tsc)
else:
    skip("the TSC clock says its calibration", "no TSC clock here")

# the platform counters: once per run, measured or skipped with the reason
devs = [r for r in results + skips if r.get("path") in DEVICES]
ok(sorted(r["path"] for r in devs) == sorted(DEVICES),
   "each platform counter path appears once, as a result or a skip", [(r["path"], r["type"]) for r in devs])
ok(all(r.get("backs_clocksource") == DEVICES[r["path"]] for r in devs),
   "each names the clocksource it backs", [(r["path"], r.get("backs_clocksource")) for r in devs])
ok(all(r.get("reason") for r in devs if r["type"] == "skip"), "each skipped counter says why",
   [r for r in devs if r["type"] == "skip"])
byp = {r["path"]: r for r in devs}
if not os.path.exists("/dev/hpet"):
    ok(byp.get("hpet-mmio", {}).get("type") == "skip" and "/dev/hpet" in byp["hpet-mmio"].get("reason", ""),
       "no /dev/hpet here: hpet-mmio is a skip naming it", byp.get("hpet-mmio"))
else:
    skip("no /dev/hpet: a skip naming it", "/dev/hpet exists")
if os.geteuid() != 0:
    ok(byp.get("pit-latch", {}).get("type") == "skip" and "ioperm" in byp["pit-latch"].get("reason", ""),
       "not root: pit-latch is a skip naming ioperm", byp.get("pit-latch"))
    ok(byp.get("pmtimer-port", {}).get("type") == "skip", "not root: pmtimer-port is a skip",
       byp.get("pmtimer-port"))
else:
    skip("not root: pit-latch is a skip naming ioperm", "root")
    skip("not root: pmtimer-port is a skip", "root")
dev_res = [r for r in devs if r["type"] == "result"]
lacking = [(r["path"], f) for r in dev_res for f in DEV_FIELDS if f not in r]
ok(not lacking, "every measured counter has its figures and its device keys", lacking)
ok(all(r["ns_per_call_min"] <= r["ns_per_call"] <= r["ns_per_call_p99"] and r["ns_per_call"] > 0
       for r in dev_res), "counters: 0 < min <= median <= p99 of the batch means",
   [(r["path"], r["ns_per_call_min"], r["ns_per_call"], r["ns_per_call_p99"]) for r in dev_res])
for r in dev_res:
    diag_line = "%s: %.1f ns, %.1f ticks per read (%s)" % (r["path"], r["ns_per_call"],
                                                           r.get("ticks_per_call") or 0, r["via"])
    print("# " + diag_line)


def tables(lines):
    """{title: [row lines]} for every table under a '-- ... --' line."""
    out, title, hdr_seen = {}, None, False
    for l in lines:
        if l.startswith("-- "):
            title, hdr_seen = l, False
        elif title and re.match(r"\s*ns/call\s+elapsed ms\s+ticks/call\s+resolution\s+granularity.*last value$", l):
            out[title], hdr_seen = [], True
        elif title and hdr_seen and l.strip():
            out[title].append(l)
        else:
            hdr_seen = False
    return out


# the human tables: the counters' own, then the block: one line per measured source, dearest first
tabs = tables(human)
devtab = [rows for t, rows in tabs.items() if t.startswith("-- platform counters")]
ok(len(devtab) == 1 and all(any(p in l for l in devtab[0]) for p in DEVICES),
   "the platform counters' table names each path", tabs.keys())
hdr = [t for t in tabs if t.startswith("-- clocksource ")]
ok(len(hdr) == 1, "the human table is printed", "\n".join(human[:20]))
rows = []
for l in tabs[hdr[0]] if hdr else []:
    m = re.match(r"\s*(\d+\.\d+)\s", l)
    if not m:
        break
    rows.append(float(m.group(1)))
behind = [r for r in dev_res if r["backs_clocksource"] == run_rec.get("clocksource")]
ok(len(rows) == len(measured) + len(behind),
   "a table line per measured source, and the counter behind the clocksource (%d)" % len(rows))
ok(rows == sorted(rows, reverse=True), "the table is sorted dearest first", rows)

# the sweep, as root: a block per available clocksource, original restored
if os.geteuid() == 0 and os.access("/sys/devices/system/clocksource/clocksource0/current_clocksource", os.W_OK):
    avail = open("/sys/devices/system/clocksource/clocksource0/available_clocksource").read().split()
    before = open("/sys/devices/system/clocksource/clocksource0/current_clocksource").read().strip()
    p, recs, bad, human, secs = run_probe("clocks", "--clocks-sweep=1")
    mine = [r for r in recs if r.get("probe") == "clocks" and "round" not in r]
    ok(p.returncode == 0 and not bad, "sweep: runs, records valid", p.stdout[-2000:])
    seen = {r["clocksource"] for r in mine if r["name"] == "clocksource"}
    ok(seen == set(avail), "sweep: a block (or skip) per available clocksource %s" % avail, seen)
    devs = [r for r in mine if r.get("path") in DEVICES]
    ok(sorted(r["path"] for r in devs) == sorted(DEVICES), "sweep: the counters once per run, not per block",
       [(r["path"], r["clocksource"]) for r in devs])
    tabs = tables(human)
    for cs in avail:
        path = next((p for p, b in DEVICES.items() if b == cs), None)
        t = next((rows for t, rows in tabs.items() if t.startswith("-- clocksource %s:" % cs)), None)
        if path and t is not None:
            ok(any(path in l for l in t), "sweep: the %s table shows %s beside its reads" % (cs, path), t)
    rest = [r for r in mine if r["name"] == "clocksource restored"]
    after = open("/sys/devices/system/clocksource/clocksource0/current_clocksource").read().strip()
    ok(len(rest) == 1 and rest[0]["restored"] is True and rest[0]["original"] == before
       and after == before, "sweep: the original clocksource (%s) is restored" % before, rest)
else:
    skip("sweep: runs", "not root")
    skip("sweep: a block per available clocksource", "not root")
    skip("sweep: the original clocksource is restored", "not root")

done()
