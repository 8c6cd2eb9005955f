# SPDX-License-Identifier: MIT
"""The Python tests' one library: TAP output (ok, skip, diag, done), TP1
records (tools/tp1rec.py's reader and writer, re-exported here), and
`timeprobe run` on this machine read into records. Images, ESP, ISO and
QEMU boots are tests/lib/tpimage.py's."""
import fnmatch
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from tp1rec import ANSI, LINE_MAX, frame, parse_line, record_line, records, suite_records  # noqa: E402,F401


def test_data():
    """The folder holding every file of tests/data under its own name, the
    sets of runs extracted from their archives (tests/lib/testdata.sh)."""
    out = subprocess.run(["sh", os.path.join(ROOT, "tests", "lib", "testdata.sh")], cwd=ROOT,
                         check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    return os.path.join(ROOT, out)


_n = 0
_failed = 0


def ok(cond, name, diag=None):
    global _n, _failed
    _n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (_n, name), flush=True)
    if not cond:
        _failed += 1
        if diag:
            for line in str(diag).splitlines()[:20]:
                print("#   " + line)
    return cond


def timing(cond, name, detail=""):
    """A timing property: reported as a TAP diagnostic, never a pass/fail
    condition, because a loaded machine can break it (docs/benchmarks.md has
    the figures measured on a quiet one)."""
    diag("timing: %s: %s%s" % (name, "yes" if cond else "NO", " (%s)" % detail if detail else ""))


def diag(msg):
    for line in str(msg).splitlines():
        print("# " + line, flush=True)


def done():
    print("1..%d" % _n, flush=True)
    sys.exit(1 if _failed else 0)


def bail(msg):
    print("Bail out! " + msg, flush=True)
    sys.exit(255)


def write_log(path, recs):
    """Writes recs (dicts) to path as a log of TP1 lines; returns path."""
    with open(path, "w") as f:
        f.write("".join(record_line(r) + "\n" for r in recs))
    return path


def tp_report():
    """The tp-report to test (TP_REPORT, else B/tp-report); when it is not
    built, the whole test is skipped here."""
    path = os.environ.get("TP_REPORT", os.path.join(ROOT, os.environ.get("B", "build"), "tp-report"))
    if not os.access(path, os.X_OK):
        print("1..0 # SKIP %s not built (make report)" % path)
        sys.exit(0)
    return path


# The running test file's folder and name without .t (boot-10-q35 for
# tests/boot/10-q35.t): tests/host and tests/report share some names.
_script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
TEST_NAME = "%s-%s" % (os.path.basename(os.path.dirname(_script)),
                       os.path.splitext(os.path.basename(_script))[0])


def test_dir(*parts):
    """build/tests/TEST_NAME (and parts below it), made on demand: the folder
    of this test file's own images, logs and scratch files, so that tests
    running side by side (tools/prove-all.sh) never write the same file."""
    d = os.path.join(BUILD, "tests", TEST_NAME, *parts)
    os.makedirs(d, exist_ok=True)
    return d


def check_keys(text):
    """tp-report --check-keys on a serial log: "" when every key is
    classified, else its list of unclassified keys."""
    path = os.path.join(test_dir(), "check-keys.log")
    with open(path, "w") as f:
        f.write(text)
    r = subprocess.run([os.path.join(BUILD, "tp-report"), "--check-keys", path],
                       capture_output=True, text=True)
    return "" if r.returncode == 0 else (r.stdout + r.stderr).strip()


def record_lines(text):
    """The record lines of a log or file, as printed (escapes and CR removed), in order."""
    return [l for l in (ANSI.sub("", x).rstrip("\r") for x in text.splitlines()) if l.startswith("TP1 {")]


def first(recs, rtype):
    """The first record of a type, or {}."""
    return next((r for r in recs if r["type"] == rtype), {})


# --- host tests: running `timeprobe run` on this machine -------------------

BIN = os.environ.get("TIMEPROBE", os.path.join(BUILD, "timeprobe"))


def skip(name, why):
    """A skipped test, counted with ok()'s."""
    global _n
    _n += 1
    print("ok %d - %s # SKIP %s" % (_n, name, why), flush=True)


class Run:
    """One `timeprobe run`: p (the CompletedProcess, stdout and stderr as one
    text), recs (the records, in order), bad (the lines with a corrupt
    record: CRC, length or JSON), human (every other line) and secs (elapsed)."""

    def __init__(self, p, recs, bad, human, secs):
        self.p, self.recs, self.bad, self.human, self.secs = p, recs, bad, human, secs

    def __iter__(self):
        return iter((self.p, self.recs, self.bad, self.human, self.secs))


def run_probe(probe, *args, prefix=(), timeout=120):
    """Runs `[prefix...] BIN run --probes=PROBE --profile=quick ARGS...` and
    reads its output: a Run (p, recs, bad, human, secs)."""
    t0 = time.monotonic()
    p = subprocess.run([*prefix, BIN, "run", "--probes=" + probe, "--profile=quick", *args],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       encoding="utf-8", errors="replace", timeout=timeout)
    secs = time.monotonic() - t0
    recs, bad, human = [], [], []
    for line in p.stdout.splitlines():
        r, corrupt = parse_line(line)
        recs += r
        if corrupt:
            bad.append(line)
        elif not r:
            human.append(line)
    return Run(p, recs, bad, human, secs)




# --- timeprobe.lava: the suite's TPM lines (userland/lavamon.h) -------------

def _declared_unit(figs, key):
    """The declared unit of a figure key (exact names, then patterns, as
    tp-report finds them); False when the key is no declared figure."""
    if key in figs:
        return figs[key]
    return next((u for pat, u in figs.items() if fnmatch.fnmatchcase(key, pat)), False)


def lava_measurements(text, pattern):
    """A run's output (records and TPM lines) against a LAVA monitor pattern
    (Python's re, as the dispatcher's pexpect uses it): ((lines, unmatched),
    figures, missing, wrong). figures counts the numeric keys of result
    records that their probe's keys record declares figures; missing names
    those no matched line carries with its value, wrong those whose line
    has another unit than the declared one ("none" for none)."""
    recs, _ = records(text)
    figs = {r["for_probe"]: {k: v[1] for k, v in r["keys"].items() if v[0] == "figure"}
            for r in recs if r["type"] == "keys"}
    pat = re.compile(pattern)
    lines = [l.rstrip("\r") + "\n" for l in text.split("\n") if l.startswith("TPM ")]
    matches = [(l, pat.search(l)) for l in lines]
    by_probe = {}
    for _, m in matches:
        if m:
            by_probe.setdefault(m.group("test_case_id").split(".")[0], []).append(m)
    want, missing, wrong = 0, [], []
    for r in recs:
        # a round's result has no line: the run's result follows (docs/records.md, "Rounds")
        if r["type"] != "result" or r.get("probe") not in figs or "round" in r:
            continue
        for key, v in r.items():
            unit = _declared_unit(figs[r["probe"]], key)
            if unit is False or not isinstance(v, (int, float)) or isinstance(v, bool):
                continue
            want += 1
            hits = [m for m in by_probe.get(r["probe"], [])
                    if m.group("test_case_id").endswith("." + key)
                    and abs(float(m.group("measurement")) - v) <= 1e-9 * max(1, abs(v))]
            if not hits:
                missing.append("%s %s %s" % (r["probe"], r.get("name"), key))
            elif all(h.group("units") != (unit or "none") for h in hits):
                wrong.append("%s %s: %s" % (r["probe"], key, hits[0].group(0).strip()))
    return (lines, [l for l, m in matches if not m]), want, missing, wrong
