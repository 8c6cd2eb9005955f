# SPDX-License-Identifier: MIT
"""What each probe must show in an appliance run (quick profile), shared by
the q35 and pc boot tests. The probes come from the registry (`timeprobe
list --figures`): each must have run and shown the figures it promises; a
probe with a function here gets that check too, one without is named."""
import re
import subprocess

from tp1 import BIN, diag, ok, records, timing
from tpimage import stub_values


def results(suite, probe):
    """probe's run-level results: a split probe's rounds (`round`) come before them."""
    return [r for r in ran(suite, probe) if r["type"] == "result"]


def ran(suite, probe):
    """probe's run-level records, its rounds' left out (tests/host/rounds-split.t checks those)."""
    return [r for r in suite if r.get("probe") == probe and "round" not in r]


def check_clocks(suite, text):
    rs = results(suite, "clocks")
    run = suite[0]
    avail = run.get("available_clocksources", "").split()
    seen = {r.get("clocksource") for r in rs if r.get("ns_per_call") is not None}
    ok(avail and set(avail) <= seen, "clocks: a block of figures for every available clocksource",
       "available %s, measured %s" % (avail, sorted(x for x in seen if x)))
    ok(all("clocksource" in r for r in ran(suite, "clocks")), "clocks: every record names its clocksource")
    restored = [r for r in rs if r.get("name") == "clocksource restored"]
    ok(restored and restored[-1].get("clocksource") == run.get("clocksource") and restored[-1].get("restored") is True,
       "clocks: the original clocksource %s was restored" % run.get("clocksource"),
       restored[-1] if restored else "no 'clocksource restored' record")
    mono = [r for r in rs if r.get("name") == "clock_gettime(CLOCK_MONOTONIC)"]
    ok({r.get("path") for r in mono} >= {"syscall"} and len({r.get("path") for r in mono}) >= 2,
       "clocks: CLOCK_MONOTONIC through libc and as a raw syscall", sorted({r.get("path") for r in mono}))
    ok(all(r.get("ns_per_call", 0) > 0 for r in rs if "ns_per_call" in r), "clocks: every cost is positive")
    check_clocks_devices(suite, text, avail)


# the platform counters' paths in clocks and the clocksource each backs (clocks_dev.c)
CLOCKS_DEVICES = {"hpet-mmio": "hpet", "pmtimer-port": "acpi_pm", "pit-latch": "pit"}


def check_clocks_devices(suite, text, avail):
    """Each counter once per run: its read cost in ns and TSC ticks, or a
    skip with the reason; the table of each clocksource it backs shows it."""
    devs = [r for r in ran(suite, "clocks") if r.get("path") in CLOCKS_DEVICES]
    ok(sorted(r["path"] for r in devs) == sorted(CLOCKS_DEVICES),
       "clocks: HPET, PM timer and PIT read costs once per run (result or skip)",
       [(r["path"], r["type"], r.get("clocksource")) for r in devs])
    good = [r for r in devs if r["type"] == "result" and r.get("ns_per_call", 0) > 0
            and r.get("ticks_per_call", 0) > 0 and r.get("backs_clocksource") == CLOCKS_DEVICES[r["path"]]]
    said = [r for r in devs if r["type"] == "skip" and r.get("reason")]
    ok(len(good) + len(said) == len(CLOCKS_DEVICES),
       "clocks: each counter has ns and ticks per read, or a skip that says why", devs)
    for r in good:
        diag("clocks: %s %.0f ns, %.0f ticks per read (min %.0f, p99 %.0f ns, n %d)"
             % (r["path"], r["ns_per_call"], r["ticks_per_call"], r["ns_per_call_min"],
                r["ns_per_call_p99"], r["n"]))
    for r in said:
        diag("clocks: %s skipped: %s" % (r["path"], r["reason"]))
    for r in good:
        cs = r["backs_clocksource"]
        if cs not in avail:
            continue
        block = text.split("-- clocksource %s:" % cs, 1)[1].split("\n-- ", 1)[0] if \
            "-- clocksource %s:" % cs in text else ""
        ok(re.search(r"\s%s\s+%s" % (re.escape(r["path"]), re.escape(r["name"])), block),
           "clocks: the %s table shows %s beside the reads it backs" % (cs, r["path"]))


def check_itimer(suite, text):
    rs = results(suite, "itimer")
    loads = {r.get("load") for r in rs}
    ok(0 in loads and any(l and l > 0 for l in loads), "itimer: ran with load 0 and with load", sorted(
        x for x in loads if x is not None))
    timers = {r.get("timer") for r in rs}
    ok(timers >= {"ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF", "timer_create CLOCK_THREAD_CPUTIME_ID"},
       "itimer: all four timers", timers)
    ok(all(r.get("claimed_us", 0) >= r.get("requested_us", 1) for r in rs if "claimed_us" in r),
       "itimer: claimed >= requested")
    ok(all(r.get("accuracy_pct", 0) > 0 for r in rs if "accuracy_pct" in r), "itimer: accuracy positive")


def check_wakeup(suite, text):
    rs = results(suite, "wakeup")
    names = " ".join(r.get("name", "") for r in rs)
    ok(rs and "clock_nanosleep" in names and "timerfd" in names, "wakeup: mechanisms measured",
       sorted({r.get("name") for r in rs}))
    ok(all(r.get("samples", 0) > 0 for r in rs), "wakeup: every mechanism has samples")


def check_yield(suite, text):
    rs = results(suite, "yield")
    ok(rs and all(r.get("total_per_s", 0) > 0 for r in rs), "yield: positive throughput per thread count",
       [(r.get("threads"), r.get("total_per_s")) for r in rs])


def check_switch(suite, text):
    rs = results(suite, "switch")
    ok(rs and all(r.get("ns_per_half_round_trip" if r.get("placement") == "same-cpu" else "ns_per_handoff", 0) > 0
                  for r in rs), "switch: half round trip (one CPU) and hand-over cost (two) measured",
       [(r.get("name"), r.get("ns_per_half_round_trip"), r.get("ns_per_handoff")) for r in rs])
    pipe1 = [r for r in rs if r.get("mechanism") == "pipe" and r.get("placement") == "same-cpu"]
    ok(pipe1 and all(r.get("pipe_overhead_ns", 0) > 0 and "lat_ctx_ns" in r for r in pipe1),
       "switch: lat_ctx_ns and its pipe overhead in the pipe variants on one CPU",
       [(r.get("name"), r.get("lat_ctx_ns"), r.get("pipe_overhead_ns")) for r in pipe1])


def check_tsc(suite, text):
    calib = [r for r in suite if r["type"] == "calib"]
    sources = {r.get("source") for r in calib}
    ok({"stub", "user"} <= sources, "tsc: stub and user calibrations in the suite's records", sources)
    run = suite[0]
    ok(re.search(r"(^| )tsc_early_khz=\d+", run.get("cmdline", "")) is not None,
       "tsc: the kernel's command line carries the stub's tsc_early_khz", run.get("cmdline"))
    # The stub's hardware references agree with each other, and the user-space
    # calibration under Linux agrees with the stub's choice. Under TCG they agree
    # within a few ppm (docs/stub.md); 500 ppm is the stub's own warning line.
    hw = {r["ref"]: r["tsc_hz"] for r in calib if r.get("source") == "stub"
          and r.get("ref") in ("hpet", "pmtimer", "pit") and r.get("tsc_hz")}
    spread = (max(hw.values()) - min(hw.values())) / min(hw.values()) * 1e6 if hw else None
    ok(len(hw) >= 1, "tsc: the stub calibrated against a hardware reference", calib)
    timing(len(hw) >= 2 and spread < 500, "tsc: the stub's hardware references agree within 500 ppm",
           "%s, spread %s ppm" % (hw, spread))
    chosen = [r for r in calib if r.get("source") == "stub" and r.get("chosen")]
    user = [r for r in calib if r.get("source") == "user" and r.get("tsc_hz")]
    if chosen and user:
        d = abs(user[-1]["tsc_hz"] - chosen[-1]["tsc_hz"]) / chosen[-1]["tsc_hz"] * 1e6
        timing(d < 1000, "tsc: Linux-side calibration agrees with the stub's within 1000 ppm",
               "stub %s, user %s: %.1f ppm" % (chosen[-1]["tsc_hz"], user[-1]["tsc_hz"], d))
    else:
        ok(False, "tsc: stub's chosen and user calibrations both present", calib)


def check_noise(suite, text):
    rs = results(suite, "noise")
    cpus = [r for r in rs if r.get("name", "").startswith("cpu ")]
    ok(len(cpus) == suite[0].get("cpus") and any(r.get("name") == "total" for r in rs),
       "noise: one record per CPU and a total", [r.get("name") for r in rs])
    ok(all(0 <= r.get("stolen_pct", -1) <= 100 for r in cpus), "noise: stolen time a share, 0..100 %")


def check_counter(suite, text):
    rs = results(suite, "counter")
    cpus = [r for r in rs if r.get("name", "").startswith("cpu ")]
    ok(len(cpus) == suite[0].get("cpus") and all(r.get("pairs", 0) > 0 for r in cpus),
       "counter: the counter read back to back on each CPU", [(r.get("name"), r.get("pairs")) for r in cpus])
    ok(any(r.get("name") == "kernel" and "workaround" in r for r in rs),
       "counter: whether the kernel enabled a counter workaround", [r.get("name") for r in rs])
    for r in cpus:
        diag("counter %s (%s): %d signature(s), %d backwards, max step %d ticks" % (
            r["name"], r.get("counter"), r.get("signatures", -1), r.get("backwards", -1),
            r.get("max_step_ticks", -1)))


# the counter each architecture's tscsync compares, and what the stub names CPUs by
TSCSYNC_ARCH = {"x86": ("tsc", "apic"), "arm64": ("cntvct", "mpidr")}


def check_preos_hwlat(text, n, stuck_apic=None, arch="x86"):
    """The stub's pre-OS scan on a boot of n CPUs: a stub_hwlat record per
    CPU with coverage, histogram and max gap, and a summary; or, with the
    window 0, a summary that says no scan ran. Returns {id: record} of
    the CPUs that reported, by the ID the stub names them by (APIC ID, or
    packed MPIDR on arm64)."""
    import tp1
    key = TSCSYNC_ARCH[arch][1]
    stub = [r for r in tp1.records(text)[0] if r["type"] == "stub_hwlat"]
    summ = [r for r in stub if r.get("what") == "summary"]
    ok(len(summ) == 1, "stub: one stub_hwlat summary", summ)
    if not summ or not summ[0].get("scanned"):
        ok(summ and summ[0].get("reason") and not [r for r in stub if r.get("what") == "cpu"],
           "stub: no pre-OS scan, and its summary says why", summ)
        return {}
    cpus = [r for r in stub if r.get("what") == "cpu"]
    got = {r[key]: r for r in cpus if r.get("reported") and key in r}
    ok(len(cpus) == n and summ[0].get("cpus_expected") == n and all(key in r for r in cpus),
       "stub: a stub_hwlat record for each of the %d CPUs, named by %s" % (n, key),
       [r.get(key) for r in cpus])
    ok(all(0 < r["coverage_pct"] <= 100 and len(r["hist_lo_us"]) == len(r["hist_n"]) and
           sum(r["hist_n"]) == r["gaps_n"] and r["max_ns"] <= r["total_ns"] + (r["gaps_n"] == 0) * 1
           and r["samples"] > 1 for r in got.values()),
       "stub: each CPU's coverage, histogram (counts add up to its gaps) and max gap",
       list(got.values())[:1])
    missing = [r for r in cpus if not r.get("reported")]
    if stuck_apic is None:
        ok(not missing and summ[0].get("cpus_reported") == n, "stub: every CPU reported", missing)
    else:
        ok(len(missing) == 1 and "did not report" in missing[0].get("reason", "") and
           summ[0].get("cpus_reported") == n - 1,
           "stub: the stuck AP is named, the scan ended at its time-out", missing)
    check_preos_hidden(summ[0], arch)
    for r in got.values():
        diag("pre-OS %s %d: %d gaps, max %d ns, total %d ns, coverage %.2f %%" % (
            key.upper(), r[key], r["gaps_n"], r["max_ns"], r["total_ns"], r["coverage_pct"]))
    diag("pre-OS: %s system-wide gap(s), longest %s ns; %s per-CPU; scan %s ms" % (
        summ[0].get("system_wide_n"), summ[0].get("system_wide_max_ns"), summ[0].get("per_cpu_n"),
        summ[0].get("duration_ms")))
    return got


# the summary's keys of time hidden from the TSC (common/stubcpu.h), when a reference was read
HIDDEN_KEYS = ("hidden_chunk_ms", "hidden_ppm", "hidden_chunks_n", "hidden_gaps_n",
               "hidden_max_deficit_ns", "hidden_max_deficit_unc_ns")


def check_preos_hidden(summ, arch="x86"):
    """The scan's summary says which reference the BSP compared the TSC
    with, chunk by chunk, and what it found (x86: the HPET or the PM
    timer); on arm64 `none` and why. Structure only: the counts are
    diagnostics."""
    ref = summ.get("hidden_ref")
    if arch != "x86":
        ok(ref == "none" and summ.get("hidden_reason"), "stub: arm64 scan, no reference for "
           "hidden time, and why", {k: v for k, v in summ.items() if k.startswith("hidden")})
        return
    ok(ref in ("hpet", "pmtimer") and all(isinstance(summ.get(k), int) for k in HIDDEN_KEYS)
       and 0 < summ["hidden_chunks_n"] and 0 <= summ["hidden_gaps_n"] <= summ["hidden_chunks_n"],
       "stub: the scan's summary compares the TSC with %s chunk by chunk" % ref,
       {k: v for k, v in summ.items() if k.startswith("hidden")})
    diag("pre-OS hidden time against %s: %s of %s chunks of %s ms, largest deficit %s ns "
         "(uncertainty %s ns, %s ppm)" % (ref, summ.get("hidden_gaps_n"),
                                         summ.get("hidden_chunks_n"), summ.get("hidden_chunk_ms"),
                                         summ.get("hidden_max_deficit_ns"),
                                         summ.get("hidden_max_deficit_unc_ns"),
                                         summ.get("hidden_ppm")))


def check_hidden_readiness(suite, summ):
    """tsc_readiness judges hidden_gaps from the stub's scan summary summ:
    measured (passed true or false, never null), the count the summary
    gave, and `from` names the reference."""
    ref = summ.get("hidden_ref")
    rd = [r for r in suite if r["type"] == "tsc_readiness"]
    it = [x for r in rd for x in r.get("reasons", []) if x.get("item") == "hidden_gaps"]
    ok(ref in ("hpet", "pmtimer") and len(it) == 1 and it[0].get("passed") is not None
       and it[0].get("value") == summ.get("hidden_gaps_n")
       and ("against %s" % ref) in it[0].get("from", ""),
       "tsc_readiness: hidden_gaps measured against %s, not `not measured`" % ref, it)


def check_hwlat(suite, text, arch="x86"):
    """Probe hwlat: the stub's figures arrive per Linux CPU unchanged, and
    the tracer's beside them or a skip naming why not."""
    key = TSCSYNC_ARCH[arch][1]
    rs = results(suite, "hwlat")
    skips = [r for r in ran(suite, "hwlat") if r["type"] == "skip"]
    got = check_preos_hwlat(text, suite[0].get("cpus", 0), arch=arch)
    per_cpu = [r for r in rs if r.get("name", "").startswith("cpu")]
    if got:
        arrived = [r for r in per_cpu if r.get(key) in got and
                   r.get("preos_max_ns") == got[r[key]]["max_ns"] and
                   r.get("preos_gaps_n") == got[r[key]]["gaps_n"]]
        ok(len(arrived) == len(got), "hwlat: each CPU's pre-OS figures arrive equal, on Linux CPUs",
           [(r.get("name"), r.get("preos_max_ns")) for r in per_cpu])
        noise = [r for r in results(suite, "noise") if r.get("name", "").startswith("cpu ")]
        if noise:
            ok(all("preos_max_gap_ns" in r for r in noise),
               "noise: each CPU's row carries the stub's pre-OS figure beside its own", noise[:1])
    else:
        ok(any(r.get("name") == "pre-os" and r.get("reason") for r in skips),
           "hwlat: no pre-OS figures, and a skip that says why", skips)
    traced = [r for r in per_cpu if "tracer_max_ns" in r]
    ok(traced or any(r.get("name") == "tracer" and r.get("reason") for r in skips),
       "hwlat: the tracer's figures, or a skip that says why not", skips)
    for r in traced:
        diag("hwlat tracer %s: %d events, %d gaps, max %d ns (pre-OS max %s ns)" % (
            r["name"], r["tracer_samples_n"], r["tracer_gaps_n"], r["tracer_max_ns"],
            r.get("preos_max_ns")))
    return traced


def check_tscsync(suite, text, arch="x86"):
    """Every ordered pair of CPUs after boot, a bounded offset of the
    architecture's counter (or a skip saying why), a summary over them whose
    frequency arrived from the stub's timeprobe.tsc_hz, then the pre-OS part."""
    counter, _ = TSCSYNC_ARCH[arch]
    rs = results(suite, "tscsync")
    n = suite[0].get("cpus", 0)
    pairs = [r for r in rs if r.get("name", "").startswith("offset cpu") and r.get("when") == "post-boot"]
    skipped = [r for r in ran(suite, "tscsync") if r["type"] == "skip" and r.get("when") == "post-boot" and
               r.get("name", "").startswith("offset cpu")]
    summ = [r for r in rs if r.get("name") == "tscsync summary"]
    ok(len(pairs) + len(skipped) == n * (n - 1) and pairs and all(r.get("reason") for r in skipped),
       "tscsync: a bounded offset for each of the %d ordered pairs (or a skip saying why)" % (n * (n - 1)),
       [r.get("name") for r in pairs] + [(r.get("name"), r.get("reason")) for r in skipped])
    ok(all(r.get("bound_ns", -1) >= 0 and r.get("samples", 0) >= 1 and
           2 * r.get("bound_ticks", 0) <= r.get("round_trip_ticks", -1) for r in pairs),
       "tscsync: every pair has samples and a bound within its tightest round trip")
    ok(pairs and all(r.get("counter") == counter for r in pairs + summ),
       "tscsync: the pairs and the summary name the counter, %s" % counter,
       [r.get("counter") for r in pairs + summ])
    ok(summ and summ[-1].get("pairs") == len(pairs), "tscsync: a summary over the pairs", summ)
    stub_hz = stub_values(records(text)[0]).get("tsc_hz")
    ok(summ and stub_hz and summ[-1].get("tsc_hz_source") == "stub" and
       summ[-1].get("tsc_hz") == stub_hz,
       "tscsync: ns from the stub's tsc_hz, as its file carried it", (summ[-1:], stub_hz))
    for r in pairs:
        diag("tscsync %s: %+.1f ns +- %.1f, round trip %.1f ns, %d samples" % (
            r["name"], r["offset_ns"], r["bound_ns"], r["round_trip_ns"], r["samples"]))
    check_tscsync_preos(suite, text, n, arch)


def check_tscsync_adjust(mine, n, arch, pre_pairs):
    """IA32_TSC_ADJUST on x86: each CPU's, pre-OS and post-boot, a figure or a
    skip saying why; on arm64 one skip each, x86 only (pre-OS: where the stub
    handed pairs over)."""
    if arch != "x86":
        for when in ("pre-os", "post-boot") if pre_pairs else ("post-boot",):
            got = [r for r in mine if r.get("when") == when and r.get("name", "").startswith("tsc_adjust")]
            ok(len(got) == 1 and got[0]["type"] == "skip" and got[0].get("name") == "tsc_adjust" and
               got[0].get("reason") == "x86 only: IA32_TSC_ADJUST",
               "tscsync: IA32_TSC_ADJUST %s one skip, x86 only" % when, got)
        return
    for when in ("pre-os", "post-boot"):
        got = {r["name"]: r for r in mine if r.get("when") == when and r.get("name", "").startswith("tsc_adjust cpu")}
        ok(len(got) == n and all(("tsc_adjust" in r) != bool(r.get("reason")) for r in got.values()),
           "tscsync: IA32_TSC_ADJUST %s for each of the %d CPUs, or a skip saying why" % (when, n),
           sorted(got))
        for r in got.values():
            diag("tscsync %s %s: %s" % (when, r["name"], r.get("tsc_adjust", r.get("reason"))))


def check_tscsync_preos(suite, text, n, arch="x86"):
    """The stub's pre-OS pairs (BSP against each AP: MP services on x86,
    PSCI CPU_ON on arm64) and IA32_TSC_ADJUST: figures, or skips that say
    why, on the stub's side and in the probe's records, and the stub's
    figures arrive unchanged, on Linux CPU numbers through the stub's names
    (APIC IDs, packed MPIDRs)."""
    import tp1
    _, hw = TSCSYNC_ARCH[arch]
    stub = [r for r in tp1.records(text)[0] if r["type"] == "stub_tscsync"]
    summ = [r for r in stub if r.get("what") == "summary"]
    ok(len(summ) >= 1 and (summ[-1].get("absent") is None) != bool(summ[-1].get("reason")),
       "stub: a stub_tscsync summary, measured or absent with a reason", summ)
    mine = [r for r in suite if r.get("probe") == "tscsync"]
    pre = {r["name"]: r for r in mine if r.get("when") == "pre-os" and r["type"] == "result"}
    pre_skips = [r for r in mine if r.get("when") == "pre-os" and r["type"] == "skip"]
    if not summ or summ[-1].get("absent"):
        ok(not pre and any(r["name"] == "pre-os" and r.get("reason") for r in pre_skips),
           "tscsync: no pre-OS figures, and a skip that says why", pre_skips)
        check_tscsync_adjust(mine, n, arch, False)
        return
    measured = [r for r in stub if r.get("what") == "pair" and not r.get("absent")]
    ok(summ[-1].get("aps_measured") == n - 1 and len(measured) == n - 1,
       "stub: the BSP against each of the %d APs" % (n - 1), summ[-1])
    ok(all(r["lo_ticks"] <= r["hi_ticks"] and r["samples"] >= 1 and
           r["hi_ticks"] - r["lo_ticks"] <= r["round_trip_ticks"] for r in measured),
       "stub: each pair's interval within its tightest round trip", measured)
    ka, kb = hw + "_a", hw + "_b"
    pairs = {(r.get(ka), r.get(kb)): r for r in pre.values() if "offset_ticks" in r}
    arrived = [r for r in measured if (r.get(ka), r.get(kb)) in pairs and
               pairs[(r[ka], r[kb])]["offset_ticks"] * 2 == r["lo_ticks"] + r["hi_ticks"] and
               pairs[(r[ka], r[kb])]["samples"] == r["samples"] and
               pairs[(r[ka], r[kb])]["round_trip_ticks"] == r["round_trip_ticks"]]
    ok(len(arrived) == len(measured) and all(r["name"].startswith("offset cpu") for r in pre.values()
                                            if "offset_ticks" in r),
       "tscsync: each stub pair arrives equal as a pre-os record, on Linux CPU numbers, named by %s" % hw,
       sorted(pre))
    check_tscsync_adjust(mine, n, arch, True)
    for r in measured:
        diag("stub pre-OS %s %d - %s %d: %d .. %d ticks, round trip %d, %d samples" % (
            hw, r[kb], hw, r[ka], r["lo_ticks"], r["hi_ticks"], r["round_trip_ticks"], r["samples"]))


def check_drift(suite, text):
    rs = results(suite, "drift")
    names = {r.get("name") for r in rs}
    for ref in ("CLOCK_MONOTONIC_RAW", "hpet", "pmtimer"):
        taus = sorted(r["tau_s"] for r in rs if r.get("ref") == ref and "adev" in r)
        ok("drift vs " + ref in names and len(taus) >= 3,
           "drift: the TSC against %s, ADEV at 3 or more taus" % ref, taus)
        fit = [r for r in rs if r.get("name") == "drift vs " + ref]
        if fit:
            diag("drift vs %s: %+.3f ppm, %+.3f ppm/min; ADEV %s" % (
                ref, fit[0]["freq_ppm"], fit[0]["trend_ppm_per_min"],
                ", ".join("%gs %.2e" % (r["tau_s"], r["adev"]) for r in rs if r.get("ref") == ref and "adev" in r)))
    costs = {r.get("counter"): r.get("ns_per_read") for r in rs if r.get("name", "").startswith("read cost")}
    ok(set(costs) >= {"hpet", "pmtimer", "pit"} and all(v and v > 0 for v in costs.values()),
       "drift: read costs of HPET, PM timer and PIT", costs)


CHECKS = {"clocks": check_clocks, "itimer": check_itimer, "wakeup": check_wakeup,
          "yield": check_yield, "switch": check_switch, "tsc": check_tsc, "noise": check_noise,
          "tscsync": check_tscsync, "drift": check_drift, "counter": check_counter,
          "hwlat": check_hwlat}


def listed():
    """[(probe, [figures])] in registry order, from `timeprobe list --figures`."""
    out = subprocess.run([BIN, "list", "--figures"], stdout=subprocess.PIPE, text=True,
                         timeout=30).stdout
    rows = []
    for line in out.splitlines():
        name, _, figures = line.partition(" ")
        rows.append((name, [f for f in figures.split(",") if f]))
    return rows


def check_figures(suite, name, figures):
    """Every promised figure is in one of the probe's records, or the probe
    said in a skip record why it measured less here (one CPU: no sync)."""
    recs = ran(suite, name)
    missing = [f for f in figures if not any(f in r for r in recs)]
    skips = [r for r in recs if r["type"] == "skip"]
    ok(figures and (not missing or skips), "%s: the figures it promises (%s)" % (name, ", ".join(figures)),
       "missing %s, no skip record says why" % missing)
    if missing and skips:
        diag("%s: %s missing; skipped: %s" % (name, missing, [r.get("reason") for r in skips]))


def check_all(suite, text):
    if not suite:
        ok(False, "no suite records to check the probes in")
        return
    probes = listed()
    ok(probes, "timeprobe list --figures names the probes")
    for name, figures in probes:
        if not ran(suite, name):
            ok(False, "%s: the probe ran" % name)
            continue
        check_figures(suite, name, figures)
        if name in CHECKS:
            CHECKS[name](suite, text)
        else:
            diag("%s: no check of its own beyond its promised figures (tests/boot/probes.py)" % name)
