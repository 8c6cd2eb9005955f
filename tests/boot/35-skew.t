#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: the guest's vote compares clocks read in real time; a busy neighbour blurs it under TCG; run alone (tools/prove-all.sh)
"""The reference vote proven by fault injection: timeprobe.inject=skew:REF:+500
makes the stub's calibration and probe drift read REF 500 ppm fast, and the
tsc_readiness record names REF as wrong_reference, for the HPET, the PM timer
and the PIT in turn (one short boot each: probes tsc and drift, quick, no
pre-OS scan). The word crosses cmdline.txt -> stub (its calib record says
the skew) -> kernel line -> PID 1 (the record says it). Under TCG there is
no invariant TSC: the answer is `not safe`, naming the bit. The ppm the vote
measured is a diagnostic, never a pass/fail. On the HPET's boot, drift's
records, the readiness record and block, the verdict and tp-report's
datasheet say the same of every reference's independence of the TSC."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

PPM = 500
WORDS = "timeprobe.profile=quick timeprobe.probes=tsc,drift timeprobe.hwlat_ms=0 " \
        "timeprobe.drift-s=5 timeprobe.watchdog=900"


def one(ref):
    name = "skew %s: " % ref
    img = image_copy("skew-" + ref, "%s timeprobe.inject=skew:%s:+%d" % (WORDS, ref, PPM))
    status, secs, text = boot(img, "q35", timeout=900)
    ok(status == 0, name + "QEMU exited by itself with status 0", text[-3000:])
    recs, corrupt = records(text)
    calib = {r["ref"]: r for r in recs if r["type"] == "calib" and r.get("source") == "stub"
             and "probe" not in r}
    ok(calib.get(ref, {}).get("injected_skew_ppm") == PPM,
       name + "the stub's calib record says the skew it injected", calib.get(ref))
    others = [r for k, r in calib.items() if k != ref and "injected_skew_ppm" in r]
    ok(not others, name + "and no other reference's", others)
    suite = check_suite(text, name)
    rd = first(suite, "tsc_readiness")
    ok(rd.get("injected") == {"ref": ref, "ppm": PPM}, name + "PID 1 got the word: the record "
       "says what was injected", rd.get("injected"))
    wr = rd.get("wrong_reference") or {}
    ok(wr.get("name") == ref, name + "the vote names %s as wrong_reference" % ref, rd)
    diag("%s: named %s, %s ppm off by the %s vote (injected +%d), after boot: %s; %.0f s" %
         (ref, wr.get("name"), wr.get("ppm"), wr.get("when"), PPM, rd.get("vote_postboot"), secs))
    return rd, text


def datasheet(text):
    """tp-report --datasheet on the boot's serial log, and the stub's chosen frequency."""
    d = test_dir()
    log, out = os.path.join(d, "skew-datasheet.log"), os.path.join(d, "skew-datasheet.json")
    with open(log, "w") as f:
        f.write(text)
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run([os.path.join(BUILD, "tp-report"), "--datasheet=" + out, log],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    summ = [r for r in records(text)[0] if r["type"] == "calib_summary"]
    return p, (json.load(open(out)) if os.path.exists(out) else {}), \
        (summ[-1].get("tsc_hz", 0) if summ else 0)


def independence(text, rd, ds):
    """Every reference's independence of the TSC, as drift's rate records say
    it (tscref.c decided), is what the readiness record and block, the
    verdict and the datasheet say: they read it, never decide it. Under TCG
    every counter is the host's clock: none is independent."""
    suite = suite_records(records(text)[0])
    rates = {r["ref"]: r.get("independent") for r in suite if r["type"] == "result"
             and r.get("probe") == "drift" and "freq_ppm" in r}
    ok(set(rates) == {"CLOCK_MONOTONIC_RAW", "hpet", "pmtimer"},
       "drift: the TSC's rate against RAW, the HPET and the PM timer", rates)
    ok(rates and all(v is False for v in rates.values()),
       "TCG: drift calls no reference independent (the host's clock, the stub's figure's)", rates)
    per = {r.get("reference"): r.get("independent") for r in rd.get("reasons", [])
           if r.get("item") == "drift_ppm" and "reference" in r}
    ok(per == rates, "readiness says of every reference what drift says", (per, rates))
    judged = [r["reference"] for r in rd.get("reasons", []) if r.get("item") == "drift_ppm"
              and r.get("passed") is not None]
    ok(all(rates.get(ref) is True for ref in judged),
       "readiness judges the TSC only against independent references", judged)
    block = text[text.find("== tsc=reliable? =="):text.find("== verdict ==")]
    passed = re.findall(r"^  (?:pass|FAIL) +TSC rate against an independent reference.*drift vs (\S+)",
                        block, re.M)
    ok(all(rates.get(ref) is True for ref in passed),
       "its block passes or fails no reference drift does not call independent", passed)
    item = (first(suite, "verdict").get("items") or {}).get("tsc_drift_ppm", {})
    ref = next((k for k in rates if "drift vs %s" % k in item.get("from", "")), None)
    ok(ref and item.get("independent") == rates[ref],
       "the verdict says of its reference (%s) what drift says" % ref, item)
    ok((item.get("word") == "unknown") == (True not in rates.values()),
       "the verdict judges the drift only against an independent reference", item)
    ok(ds.get("drift_independent") == rates, "the datasheet says of every reference what "
       "drift says", (ds.get("drift_independent"), rates))
    ok("tsc_freq_ppm" in ds and ds["tsc_freq_ppm"] is None and "not known whether independent"
       in ds.get("from", {}).get("tsc_freq_ppm", ""), "TCG: the datasheet's tsc_freq_ppm is null, "
       "saying why (the stub's reference is the host's clock)", (ds.get("tsc_freq_ppm"),
                                                                 ds.get("from")))


rd, text = one("hpet")
p, ds, stub_hz = datasheet(text)
independence(text, rd, ds)
ok(p.returncode == 0 and stub_hz and abs(ds.get("tsc_freq_khz", 0) * 1000 - stub_hz) <= 1000,
   "tp-report --datasheet: tsc_freq_khz within 1 kHz of the stub's chosen frequency",
   (p.stderr, ds, stub_hz))
ok("calib_summary" in ds.get("from", {}).get("tsc_freq_khz", "") and "tsc_freq_ppm" in ds["from"],
   "tsc_freq_khz and tsc_freq_ppm name their records", ds.get("from"))
reasons = {r["item"]: r for r in rd.get("reasons", [])}
ok(rd.get("tsc_reliable") == "not safe", "TCG: tsc=reliable is not safe", rd.get("tsc_reliable"))
ok(reasons.get("invariant_tsc", {}).get("passed") is False,
   "naming the invariant bit", reasons.get("invariant_tsc"))
ok(rd.get("kernel_args") == ["clocksource=acpi_pm"],
   "the kernel words: a platform clock, not the HPET the vote named", rd.get("kernel_args"))
block = text[text.find("== tsc=reliable? =="):text.find("== verdict ==")]
ok("not safe" in block and "wrong reference: hpet" in block,
   "the answer and the named reference on the console before the verdict", block[:1500])
one("pmtimer")
one("pit")
done()
