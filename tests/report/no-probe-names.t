#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tools/report names no probe: what it shows of one (its table's layout,
# its plots, the default clock's figure) it reads from the probe's own
# declaration (userland/probe.h, common/show.h) through the built-in copy.
# Every probe's name and every key its table declares, as `tp-report
# --keys` prints the built-in declaration the probes' tables made, is
# looked for as a C string literal in the code (comments left out) of
# tools/report/*.c and *.h. A hit is allowed only where ALLOWED lists the
# string, the files and why.
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, diag, done, ok  # noqa: E402

REPORT = os.environ.get("TP_REPORT") or os.path.join(ROOT, os.environ.get("B", "build"), "tp-report")

# string: (files, why). The files are tools/report's, by name.
RUN_HEADER = "a field of the run record too (the frame every probe's results sit in)"
READINESS = "a field of the tsc_readiness record (docs/readiness.md), not of a probe"
VERDICT_ITEM = "a field of every item of the verdict record (docs/verdict.md)"
HIST = ("a histogram's quantiles by the records' naming rule (docs/records.md, "
        "\"hist\"): any probe's histogram is drawn with them")
DATASHEET = ("datasheet contributions not yet declared by their probes (issue 52, item 1: "
             "left for after item 3, which changed datasheet.c for which reference is "
             "independent)")
ALLOWED = {
    "clocksource": (["export_pts.c", "format_compare.c", "format_run.c", "history.c", "labels.c",
                     "lead.c", "lead_words.c", "model.c"], RUN_HEADER),
    "cpus": (["export_pts.c", "format_run.c", "lead.c", "lead_words.c"], RUN_HEADER),
    "profile": (["export_pts.c", "lead.c", "lead_words.c"], RUN_HEADER),
    "iterations": (["format_compare.c", "format_data.c"],
                   "the run's repetitions (--repeat), a column of the model for programs"),
    "hypervisor": (["export_facts.c", "export_kcidb.c"],
                   "the run record's and the verdict's hypervisor, a fact of every export"),
    "tsc_reliable": (["export_facts.c", "export_openmetrics.c", "gate.c", "readiness.c",
                      "datasheet.c"], READINESS),
    "when": (["readiness.c"], READINESS),
    "ref": (["readiness.c", "datasheet.c"],
            "the reference a tsc_readiness vote or a calib record names"),
    "n": (["fleet_html.c", "fleet_print.c", "format_data.c", "format_run.c", "verdict.c",
           "ratio.c"],
          "a column heading and output field: how many values a figure has; a record's "
          "sample count, which a key's same_below_n is about (keys.h)"),
    "why": (["export_verdict.c", "verdict.c", "lead.c", "datasheet.c"],
            VERDICT_ITEM + "; a circular figure's reason (lead.c), and the reason a drift "
            "record gives for its reference's independence (datasheet.c: userland/tscref.c "
            "writes it into every drift record)"),
    "p999_ns": (["verdict.c", "plot_hist.c"], VERDICT_ITEM + "; " + HIST),
    "independent": (["lead.c", "ratio.c", "datasheet.c"],
                    "a result's own word that its figure is circular (docs/records.md), any "
                    "probe's"),
    "path": (["export_kcidb.c", "format_data.c"],
             "a KCIDB test's path and a source file's path in the JSON model"),
    "status": (["export_kcidb.c"], "a KCIDB test's status"),
    "hist": (["plot_hist.c", "result.c"], "any result's histogram object (docs/records.md)"),
    "per_s": (["openmetrics.c"], "a unit's token in a key's name, any probe's (openmetrics.c)"),
    "counter": (["openmetrics.c", "datasheet.c"],
                "OpenMetrics' own word for a metric type, replaced in any metric name "
                "(openmetrics.c's type_words), not the probe; " + DATASHEET),
    "tsc_hz": (["datasheet.c"], DATASHEET),
}
for k in ("p50_ns", "p99_ns", "max_ns", "p50_gap_ns", "p99_gap_ns", "p999_gap_ns", "max_gap_ns"):
    ALLOWED[k] = (["plot_hist.c"], HIST)
for k in ("tscsync", "drift", "tsc", "freq_ppm", "max_abs_offset_ns", "max_bound_ns",
          "ns_per_read"):
    ALLOWED[k] = (["datasheet.c"], DATASHEET)


def declared():
    """The probes' names and their keys' names (patterns left out), from tp-report --keys."""
    out = subprocess.run([REPORT, "--keys"], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        rec = json.loads(line)
        names.add(rec["for_probe"])
        names.update(k for k in rec["keys"] if not re.search(r"[*?\[]", k))
    return names


def literals(src):
    """The string literals of C source src, comments and character constants skipped."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("/*", i):
            i = src.find("*/", i + 2)
            i = n if i < 0 else i + 2
        elif src.startswith("//", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
        elif src[i] in "\"'":
            q, j, s = src[i], i + 1, []
            while j < n and src[j] != q:
                s.append(src[j:j + 2] if src[j] == "\\" else src[j])
                j += 2 if src[j] == "\\" else 1
            if q == '"':
                out.append("".join(s))
            i = j + 1
        else:
            i += 1
    return out


def main():
    if not os.access(REPORT, os.X_OK):
        print("1..0 # SKIP %s not built (make report)" % REPORT)
        return
    names = declared()
    ok(len(names) > 100 and "ns_per_call" in names and "clocks" in names,
       "the declarations name the probes and their keys (%d strings)" % len(names))
    ok(literals('a("x") /* "y" */ b(\'"\', "z\\"w") // "v"\n') == ["x", 'z\\"w'],
       "string literals are found, comments and character constants skipped")
    bad, used = [], set()
    for path in sorted(glob.glob(os.path.join(ROOT, "tools/report/*.[ch]"))):
        base = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            for s in set(literals(f.read())) & names:
                if s in ALLOWED and base in ALLOWED[s][0]:
                    used.add((s, base))
                else:
                    bad.append("%s: \"%s\"" % (base, s))
    ok(not bad, "tools/report names no probe and no probe's key but the allowed ones",
       "; ".join(bad) or None)
    for s, (files, why) in sorted(ALLOWED.items()):
        for f in files:
            if (s, f) not in used:
                diag("allowed but no longer named: \"%s\" in %s" % (s, f))
    done()


main()
