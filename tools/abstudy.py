# SPDX-License-Identifier: MIT
"""The comparison's two error rates, measured (docs/comparing.md, "Measured
on this kind of machine"). Over identical pairs PREFIX-N-a.log and
PREFIX-N-b.log in DIR (tools/aa-pairs.sh makes them):

    abstudy.py aa DIR PREFIX            each pair as it is: the rows that lead
    abstudy.py ab DIR PREFIX CASES      each case's figure of run B scaled:
                                        whether its row leads, per pair
    abstudy.py power DIR PREFIX CASES   what any test of one run a side could
                                        see: per case, the spread of the
                                        figure's log between the two runs of
                                        each pair, and the power of a z test
                                        that knew it exactly

CASES is a file of lines `PROBE TAB RESULT TAB KEYS TAB FACTOR` (RESULT `*`:
every result of PROBE with the key; KEYS one key or several joined by `,`,
all scaled, the first judged). Each key and its `KEY_ci95` interval are
scaled in every record of that result, the run's and each round's, and the
CRCs redone (tools/tp1rec.py), as a real change would move them. Each
comparison is `tp-report --label=A,B A.log B.log` (TP_REPORT, else
build/tp-report; FLOORS=FILE adds --floors=FILE), run without a shell: the
lead's rows from its text, a case's verdict and detectable ratio from its
--format=json (`leads`, `detectable`).
Prints one markdown table; exits 2 on a usage error."""
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tp1rec import record_line, records  # noqa: E402

def tp_report(*args):
    cmd = [os.environ.get("TP_REPORT", "build/tp-report"), "--label=A,B"]
    if os.environ.get("FLOORS"):
        cmd.append("--floors=" + os.environ["FLOORS"])
    return subprocess.run(cmd + list(args), capture_output=True, text=True).stdout


def judged(a, b, probe, result, keys):
    """Whether any figure of KEYS of PROBE's RESULT leads in `tp-report
    --format=json A B`, and the least detectable ratio printed for them."""
    doc = json.loads(tp_report("--format=json", a, b))
    figs, led, det = doc["figures"], False, None
    for row in doc["comparison"]["rows"]:
        f = figs[row["figure"]]
        if f["probe"] != probe or f["figure"] not in keys or (result != "*" and f["result"] != result):
            continue
        led = led or bool(row.get("leads", [None, False])[1])
        d = row.get("detectable", [None, None])[1]
        if d is not None and (det is None or d < det):
            det = d
    return led, det


def report(a, b):
    """The lead rows of `tp-report A B` (each row one line again; its notes
    in parentheses are not rows) and its promise line (false rows and
    detectable ratios)."""
    out = tp_report(a, b)
    rows, promise, section, cur = [], "", False, None
    for line in out.split("\n"):
        if line.startswith("What changed"):
            section = True
        elif not section:
            continue
        elif not line.strip():
            break
        elif line.startswith("    "):
            if cur == "promise":
                promise += " " + line.strip()
            elif cur == "row":
                rows[-1] += " " + line.strip()
        elif line.startswith("  false rows:"):
            promise, cur = line.strip(), "promise"
        elif line.strip().startswith("("):
            cur = "note"
        else:
            rows.append(line.strip())
            cur = "row"
    return rows, promise


def pairs(d, prefix):
    """The numbers N of DIR/PREFIX-N-a.log that have their -b.log."""
    ns = []
    for a in glob.glob(os.path.join(d, glob.escape(prefix) + "-*-a.log")):
        m = re.fullmatch(re.escape(prefix) + r"-([0-9]+)-a\.log", os.path.basename(a))
        if m and os.path.exists(a[:-6] + "-b.log"):
            ns.append(int(m.group(1)))
    return sorted(ns)


def scaled(path, probe, result, keys, f, out):
    """PATH with each of KEYS (and its KEY_ci95) of PROBE's RESULT times F, into OUT."""
    with open(path, encoding="utf-8", errors="replace") as src:
        recs = records(src.read())[0]
    with open(out, "w", encoding="utf-8") as dst:
        for r in recs:
            if (r.get("type") != "result" or r.get("probe") != probe
                    or (result != "*" and r.get("name") != result)):
                keys_here = []
            else:
                keys_here = [k for k in keys if isinstance(r.get(k), (int, float))]
            for key in keys_here:
                r[key] = r[key] * f
                ci = r.get(key + "_ci95")
                if isinstance(ci, list) and len(ci) == 3:
                    r[key + "_ci95"] = [ci[0] * f, ci[1] * f, ci[2]]
            dst.write(record_line(r) + "\n")


def aa(d, prefix):
    print("| pair | lead rows | rows |")
    print("| --: | --: | --- |")
    leading = 0
    ns = pairs(d, prefix)
    for n in ns:
        base = os.path.join(d, "%s-%d" % (prefix, n))
        rows, _ = report(base + "-a.log", base + "-b.log")
        leading += bool(rows)
        print("| %d | %d | %s |" % (n, len(rows), "; ".join(r[:100] for r in rows)))
    print("\nA/A: %d of %d pairs lead with any row" % (leading, len(ns)))


def ab(d, prefix, cases):
    print("| case | leads in | detectable printed (per pair) |")
    print("| --- | --: | --- |")
    ns = pairs(d, prefix)
    with tempfile.TemporaryDirectory() as tmp, open(cases, encoding="utf-8") as cf:
        for line in cf:
            if not line.strip() or line.startswith("#"):
                continue
            probe, result, keys, f = line.rstrip("\n").split("\t")
            keys = keys.split(",")
            hits, dets = 0, []
            for n in ns:
                base = os.path.join(d, "%s-%d" % (prefix, n))
                b = os.path.join(tmp, "b.log")
                scaled(base + "-b.log", probe, result, keys, float(f), b)
                led, det = judged(base + "-a.log", b, probe, result, keys)
                hits += led
                dets.append("%.3gx" % det if det else "-")
            print("| %s %s %s x%s | %d of %d | %s |" % (probe, result, ",".join(keys), f, hits, len(ns),
                                                   ", ".join(dets)))


def run_values(path, probe, result, key):
    """{ident: value} of KEY in PATH's run-level records (no "round") of
    PROBE's RESULT; ident the record's path and clocksource (clocks has one
    name on several paths)."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as src:
        for r in records(src.read())[0]:
            if (r.get("type") == "result" and r.get("probe") == probe and r.get("name") == result
                    and "round" not in r and isinstance(r.get(key), (int, float)) and r[key] > 0):
                out[(r.get("path"), r.get("clocksource"))] = r[key]
    return out


def power_of(shift, sd, alpha):
    """Two-sided z test at ALPHA of a log shift SHIFT whose difference has
    standard deviation SD: the chance it is found."""
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    phi = statistics.NormalDist().cdf
    return phi(abs(shift) / sd - z) + phi(-abs(shift) / sd - z)


def power(d, prefix, cases):
    """Per case, its steadiest figure: the standard deviation of log(B/A)
    over the identical pairs, and the power at the factor of a test that
    knew it, at 5 % (one test alone) and at 5 % over six probes."""
    print("| case | pairs | sd of log(B/A), steadiest figure | power at 5 % | at 5 %/6 |")
    print("| --- | --: | --: | --: | --: |")
    ns = pairs(d, prefix)
    with open(cases, encoding="utf-8") as cf:
        for line in cf:
            if not line.strip() or line.startswith("#"):
                continue
            probe, result, keys, f = line.rstrip("\n").split("\t")
            best = None
            for key in keys.split(","):
                diffs = {}
                for n in ns:
                    base = os.path.join(d, "%s-%d" % (prefix, n))
                    a = run_values(base + "-a.log", probe, result, key)
                    b = run_values(base + "-b.log", probe, result, key)
                    for ident in set(a) & set(b):
                        diffs.setdefault((key, ident), []).append(math.log(b[ident] / a[ident]))
                for k, v in diffs.items():
                    if len(v) >= 3:
                        sd = statistics.stdev(v)
                        if best is None or sd < best[1]:
                            best = (k, sd, len(v))
            if best is None:
                print("| %s %s %s x%s | 0 | - | - | - |" % (probe, result, keys, f))
                continue
            shift = math.log(float(f))
            print("| %s %s %s x%s | %d | %.3f (%s) | %.0f %% | %.0f %% |" % (
                probe, result, keys, f, best[2], best[1], best[0][0],
                100 * power_of(shift, best[1], 0.05), 100 * power_of(shift, best[1], 0.05 / 6)))


def main(argv):
    if len(argv) == 4 and argv[1] == "aa":
        aa(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "ab":
        ab(argv[2], argv[3], argv[4])
    elif len(argv) == 5 and argv[1] == "power":
        power(argv[2], argv[3], argv[4])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
