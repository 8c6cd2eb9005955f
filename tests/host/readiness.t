#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: runs probes tsc, tscsync and drift on this host; run alone (tools/prove-all.sh)
# Host test of the tsc_readiness record (userland/readiness.c, docs/readiness.md)
# on this machine: a complete record (an answer of the three, kernel_args, a
# wrong_reference key, every reason with its item, bound, record and passed;
# missing items and a next step exactly when unknown; emulated as its block
# says it), just before the verdict, its block on the output; a skew named on the
# command line is said and refused when malformed; and tp-report --datasheet
# (tools/report/datasheet.c) on this run and on a recorded appliance log:
# tsc_freq_khz within 1 kHz of the stub's chosen frequency, every value with
# the record it came from (TAP). Timing figures are diagnostics.
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, BUILD, ROOT, diag, done, ok, parse_line, run_probe, write_log  # noqa: E402

REPORT = os.path.join(BUILD, "tp-report")
if not os.access(BIN, os.X_OK) or not os.access(REPORT, os.X_OK):
    print("1..0 # SKIP %s or %s not built" % (BIN, REPORT))
    sys.exit(0)

ANSWERS = ("safe", "not safe", "unknown")
run = run_probe("tsc,tscsync,drift", "--inject=skew:pmtimer:-250", timeout=180)
ok(run.p.returncode == 0, "the run ends with status 0", run.p.stdout[-2000:])
types = [r["type"] for r in run.recs]
rd = next((r for r in run.recs if r["type"] == "tsc_readiness"), {})
ok(bool(rd) and types.index("tsc_readiness") + 1 == types.index("verdict"),
   "a tsc_readiness record just before the verdict", types[-4:])
ok(rd.get("tsc_reliable") in ANSWERS, "its answer is one of %s" % (ANSWERS,),
   rd.get("tsc_reliable"))
ok(isinstance(rd.get("kernel_args"), list) and all(isinstance(w, str) for w in rd["kernel_args"]),
   "kernel_args is a list of words", rd.get("kernel_args"))
ok("wrong_reference" in rd and (rd["wrong_reference"] is None or rd["wrong_reference"].get("name")),
   "wrong_reference is null or names a clock", rd.get("wrong_reference"))
reasons = rd.get("reasons", [])
bad = [r for r in reasons if not r.get("item") or not r.get("from") or "passed" not in r
       or (r["passed"] is None and not r.get("why"))
       or (r.get("unit") is not None and "bound" not in r)]
ok(len(reasons) >= 10 and not bad, "every reason has its item, record, passed, a bound with a "
   "unit and a why when not measured", bad or reasons)
ok(any(r["item"] == "invariant_tsc" and r["passed"] is not None for r in reasons),
   "the invariant bit is judged on a host", [r for r in reasons if r["item"] == "invariant_tsc"])
ok((rd["tsc_reliable"] == "safe") == (rd["kernel_args"] in (["tsc=reliable"], ["tsc=nowatchdog"])),
   "tsc=reliable or tsc=nowatchdog exactly when safe", (rd["tsc_reliable"], rd["kernel_args"]))
ok(rd.get("injected") == {"ref": "pmtimer", "ppm": -250}, "the skew on the command line is said",
   rd.get("injected"))
text = "\n".join(run.human)
ok("== tsc=reliable? ==" in text and text.find("== tsc=reliable? ==") < text.find("== verdict =="),
   "its block comes before the verdict's", text[-3000:])
unknown = rd.get("tsc_reliable") == "unknown"
ok(isinstance(rd.get("missing"), list) and bool(rd["missing"]) == unknown
   and bool(rd.get("next_step")) == unknown
   and all(m in [r["item"] for r in reasons if r["passed"] is None] for m in rd["missing"]),
   "missing items and a next step exactly when unknown, each an unmeasured reason",
   (rd.get("missing"), rd.get("next_step")))
ok("(nothing)" not in text and ("kernel line: none can be advised" in text) ==
   (rd.get("kernel_args") == [] and rd.get("tsc_reliable") != "safe"),
   "no words: said as none can be advised, never (nothing)", text[-3000:])
ok((rd.get("emulated") is None) == ("Under a" not in text.split("== tsc=reliable? ==")[-1]
                                   .split("== verdict ==")[0]),
   "the readiness block says the hypervisor or emulator exactly when the record does",
   rd.get("emulated"))
diag("this host: tsc=reliable %s, kernel_args %s, wrong_reference %s; %.0f s" %
     (rd.get("tsc_reliable"), rd.get("kernel_args"), rd.get("wrong_reference"), run.secs))

bad_run = run_probe("tsc", "--inject=skew:rtc:500", timeout=120)
ok(bad_run.p.returncode != 0 and "skew:REF:PPM" in bad_run.p.stdout,
   "a malformed skew is refused, saying the form", bad_run.p.stdout[-1500:])


def read_log(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [r for line in f for r in parse_line(line)[0]]


def datasheet(log):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "ds.json")
        p = subprocess.run([REPORT, "--datasheet=" + out, log], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        return p, (json.load(open(out)) if os.path.exists(out) else {})


with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, "host.log")
    write_log(log, run.recs)
    p, ds = datasheet(log)
    rep = subprocess.run([REPORT, log], capture_output=True, text=True).stdout
verdict = rep[rep.find("Verdict"):]
ok(rep.find("Verdict") >= 0 and verdict.find("tsc=reliable %s; kernel line: " % rd["tsc_reliable"])
   in range(0, 200), "tp-report: the answer first under Verdict", verdict[:600])
ok(p.returncode == 0 and isinstance(ds.get("tsc_freq_khz"), int), "host run: a datasheet with "
   "an integer tsc_freq_khz", (p.stderr, ds))
missing = [k for k in ds if k not in ("format", "version", "from", "drift_ppm", "read_cost_ns")
           and k not in ds.get("from", {})]
missing += ["%s.%s" % (g, k) for g in ("drift_ppm", "read_cost_ns") for k in ds.get(g, {})
            if "%s.%s" % (g, k) not in ds.get("from", {})]
ok(not missing, "every value names the record it came from", missing or ds)
ok("ordering_bound_ns" in ds and "tscsync summary" in ds["from"].get("ordering_bound_ns", ""),
   "ordering_bound_ns from tscsync's summary", ds)

p, ds = datasheet(os.path.join(ROOT, "tests/data/serial-pc-quick.log"))
stub_hz = 2599999900  # that log's calib_summary: chosen hpet
ok(p.returncode == 0 and abs(ds.get("tsc_freq_khz", 0) * 1000 - stub_hz) <= 1000,
   "appliance log: tsc_freq_khz within 1 kHz of the stub's chosen frequency", ds)
ok("calib_summary" in ds.get("from", {}).get("tsc_freq_khz", "") and
   isinstance(ds.get("tsc_freq_ppm"), (int, float)) and ds["from"].get("tsc_freq_ppm"),
   "with its record, and tsc_freq_ppm with its own", ds.get("from"))
with tempfile.TemporaryDirectory() as d:
    # a results file holds the suite's records only: the stub's figure from probe tsc's calib
    log = os.path.join(d, "saved.log")
    write_log(log, [r for r in read_log(os.path.join(ROOT, "tests/data/serial-pc-quick.log"))
                    if r["type"] not in ("calib", "calib_summary") or "probe" in r])
    p, ds = datasheet(log)
ok(p.returncode == 0 and abs(ds.get("tsc_freq_khz", 0) * 1000 - stub_hz) <= 1000 and
   "chosen hpet" in ds.get("from", {}).get("tsc_freq_khz", ""),
   "suite records only: tsc_freq_khz the stub's chosen figure as probe tsc received it", ds)

with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, "nofreq.log")
    write_log(log, [r for r in run.recs if r["type"] in ("run", "fingerprint", "end")])
    p, ds = datasheet(log)
ok(p.returncode == 1 and "no TSC frequency" in p.stderr and not ds,
   "a log with no frequency: a message, exit 1, no file", p.stderr)
done()
