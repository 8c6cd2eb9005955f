#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Peer agreement: each probe figure next to the same figure from a tool
people already trust, run interleaved (ours, peer, peer, ours, ...) for
ROUNDS rounds each, so both share the machine's load. Prints per pair the
median of the per-round ratios ours / peer, their min and max, and each
side's median, and writes the table with the commands into
docs/benchmarks.md between its "peers" markers (tools/bench/peers.sh;
`make bench`). A pair whose peer is not installed gives a skip line.
Benchmarks, not tests: nothing here passes or fails.

Environment: TIMEPROBE=build/timeprobe ROUNDS=5 PAIRS="switch clocks ..."
(a subset only prints: the doc's table is written by a run of every pair)
DOC=docs/benchmarks.md (DOC=none: print only)."""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from tp1rec import records  # noqa: E402  tools/tp1rec.py, the one TP1 reader

BIN = os.environ.get("TIMEPROBE", "build/timeprobe")
ROUNDS = max(1, int(os.environ.get("ROUNDS", "5")))
DOC = os.environ.get("DOC", "docs/benchmarks.md")
WORK = tempfile.mkdtemp(prefix="tp-peers.")
BEGIN, END = "<!-- peers: written by tools/bench/peers.sh -->", "<!-- peers end -->"
NSLEEP_SRC = os.path.join(HERE, "nsleep_lat_ref.c")
YIELD_SRC = os.path.join(HERE, "yield_ref.c")
# The yield pairs run every side on one CPU. A sched_yield() by a thread
# alone on its CPU returns without switching, at about 40 % of the cost
# of one that switches, so a CPU-time-per-call figure is a mix set by where
# the scheduler placed the yielders: unpinned, 4 yielders on 2 CPUs sat 3
# and 1 for stretches (seen for ours and stress-ng's; yield_ref's share says
# the same), and the share of calls that switched went from 0.3 to 1.0 from
# run to run. On one CPU every call switches, on every side. stress-ng's
# yield stressor runs 2 yielders per CPU it may use (2 on the one), ours and
# yield_ref as many.
YIELD_PIN = ["taskset", "-c", "0"]
YIELDERS = 2
# The wake-up pair: cyclictest's settings, taken by ours too.
WAKE_US, WAKE_PRIO, WAKE_SAMPLES = 1000, 80, 200


def run(cmd, timeout=300):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace", timeout=timeout)
    return p.stdout


def ours(probe, *opts, profile="quick"):
    return [BIN, "run", "--probes=" + probe, "--profile=" + profile, "--save=off", *opts]


def result(out, probe, name):
    for r in records(out)[0]:
        if r.get("type") == "result" and r.get("probe") == probe and r.get("name") == name:
            return r
    return {}


def number(pattern):
    def get(out):
        m = re.search(pattern, out)
        return float(m.group(1)) if m else None
    return get


def key(probe, name, k, scale=1.0):
    def get(out):
        v = result(out, probe, name).get(k)
        return v * scale if isinstance(v, (int, float)) else None
    return get


def noise_ours(out):
    """Interruptions per second, mean over the CPUs (gaps >= 2 us, as oslat's buckets below)."""
    v = [r["per_s"] for r in records(out)[0]
         if r.get("probe") == "noise" and r.get("type") == "result" and "cpu" in r
         and isinstance(r.get("per_s"), (int, float))]
    return statistics.mean(v) if v else None


def noise_oslat(out):
    """oslat's loops of 2 us or more per second, mean over its cores: its
    bucket labelled k counts loops of k - 1 to k us (001 holds those under
    1 us), so gaps of 2 us or more are the labels from 3 up, as ours count."""
    cores, buckets, dur = [], {}, []
    for line in out.splitlines():
        m = re.match(r"\s*Core:\s*(.*)", line)
        if m:
            cores = m.group(1).split()
        m = re.match(r"\s*(\d+) \(us\):\s*([\d ]+)", line)
        if m:
            buckets[int(m.group(1))] = [int(x) for x in m.group(2).split()]
        m = re.match(r"\s*Duration:\s*([\d. ]+)", line)
        if m:
            dur = [float(x) for x in m.group(1).split()]
    rates = [sum(v[i] for k, v in buckets.items() if k >= 3) / dur[i]
             for i in range(len(cores)) if i < len(dur) and dur[i]]
    return statistics.mean(rates) if rates else None


def cyclictest_p50(path):
    """The median of cyclictest's 1 us histogram (its --json), in us, read at
    its bucket's middle: bucket k holds latencies of k to k + 1 us, and its
    lower edge would read 0.5 us (about 3.5 % at 10 us) short of ours, an
    exact sample median."""
    def get(out):
        try:
            threads = json.load(open(path))["thread"]
        except (OSError, ValueError, KeyError):
            return None
        hist = {}
        for t in threads.values():
            for us, n in t["histogram"].items():
                hist[int(us)] = hist.get(int(us), 0) + n
        total, seen = sum(hist.values()), 0
        for us in sorted(hist):
            seen += hist[us]
            if 2 * seen >= total:
                return us + 0.5
        return None
    return get


def yield_peer(out):
    """stress-ng's yield bogo ops per CPU second, as CPU ns per call."""
    m = re.search(r"yield\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", out)
    return 1e9 / float(m.group(1)) if m and float(m.group(1)) > 0 else None


def switch_share(probe, name):
    """The share of ours' calls that switched: invol_ctxsw / total_yields of its record."""
    def get(out):
        r = result(out, probe, name)
        n, sw = r.get("total_yields"), r.get("invol_ctxsw")
        return sw / n if isinstance(n, (int, float)) and n and isinstance(sw, (int, float)) else None
    return get


def ref(src, like_probe=False):
    """A reference loop of tools/bench, built in the work folder, and how it
    was built; None without a compiler. like_probe: static with musl-gcc as
    the probe is, when there is one (glibc registers rseq for each thread,
    which the kernel updates on every switch)."""
    builds = [(["musl-gcc", "-static"], "musl-gcc -static -O2", "-musl")] if like_probe else []
    builds.append(([os.environ.get("CC", "cc")], "cc -O2", ""))
    for cc, how, suffix in builds:
        exe = os.path.join(WORK, os.path.basename(src)[:-2] + suffix)
        if shutil.which(cc[0]) and not subprocess.run([*cc, "-O2", "-pthread", "-o", exe,
                                                       src]).returncode:
            return exe, how
    return None, None


def yield_pair(name, figure, why, **peer):
    """A yield pair: ours YIELDERS threads on CPU 0 (YIELD_PIN) for profile
    full's 3 s, as long as every peer runs, read as CPU time per call and the
    share of calls that switched; PEER names the other side (need, peer,
    peer_get, and peer_share where it says one)."""
    who = "%d threads" % YIELDERS
    return {"name": name, "figure": figure + ", all on CPU 0, each call a switch (ns)",
            "ours": [*YIELD_PIN, *ours("yield", "--yield-threads=%d" % YIELDERS, profile="full")],
            "get": key("yield", who, "ns_per_yield"), "share": switch_share("yield", who),
            "why": why, **peer}


# yield_ref's side of a yield pair; its command is set in main(), once it is built.
YIELD_REF_PEER = {"need": "cc", "peer": None, "peer_get": number(r"cpu_ns_per_yield ([\d.]+)"),
                  "peer_share": number(r"switches_per_yield ([\d.]+)")}


CT_JSON = os.path.join(WORK, "cyclictest.json")
PAIRS = [
    {"name": "switch", "figure": "pipe round trip, processes on one CPU (us)",
     "ours": ["taskset", "-c", "0", *ours("switch")],
     "get": key("switch", "pipe-process-same-cpu", "us_per_round_trip"),
     "need": "perf", "peer": ["taskset", "-c", "0", "perf", "bench", "sched", "pipe", "-l", "100000"],
     "peer_get": number(r"([\d.]+) usecs/op"),
     "why": "both one round trip of two processes on one CPU; ours is the median of its "
            "repetitions, perf's the mean of one long loop, which a shared CPU moves more"},
    {"name": "clocks", "figure": "clock_gettime(CLOCK_MONOTONIC) through the vDSO (ns per call)",
     "ours": ["taskset", "-c", "0", *ours("clocks")],
     "get": key("clocks", "clock_gettime(CLOCK_MONOTONIC)", "ns_per_call"),
     "need": "stress-ng", "peer": ["taskset", "-c", "0", "stress-ng", "--vdso", "1", "--vdso-func",
                                   "clock_gettime", "--metrics", "-t", "3"],
     "peer_get": number(r"vdso:? *([\d.]+) nanosec\S* per call"),
     "why": "both the vDSO call in a loop; ours subtracts its loop's own cost (overhead_ns), "
            "stress-ng does not, so ours is expected a few ns below"},
    {"name": "wakeup", "figure": "clock_nanosleep TIMER_ABSTIME %d us, SCHED_FIFO %d, "
                                 "cpu_dma_latency 0: p50 (us)" % (WAKE_US, WAKE_PRIO),
     "ours": ours("wakeup", "--wakeup-us=%d" % WAKE_US, "--wakeup-priority=%d" % WAKE_PRIO,
                  "--cpu-dma-latency=0"),
     "get": key("wakeup", "clock_nanosleep TIMER_ABSTIME %dus" % WAKE_US, "p50_ns", 1e-3),
     "need": "cyclictest", "peer": ["cyclictest", "-q", "-m", "-p", str(WAKE_PRIO), "-i", str(WAKE_US),
                                    "-l", str(WAKE_SAMPLES), "-h", "10000", "--json=" + CT_JSON],
     "peer_get": cyclictest_p50(CT_JSON),
     "why": "the same period, policy, priority and latency request; cyclictest's p50 is read "
            "at its 1 us bucket's middle, ours is the samples' median"},
    {"name": "noise", "figure": "interruptions of 2 us or more per second, mean over CPUs",
     "ours": ours("noise", "--noise-ms=3000", "--noise-threshold-ns=2000"), "get": noise_ours,
     "need": "oslat", "peer": ["oslat", "-D", "3"], "peer_get": noise_oslat,
     "why": "gaps of 2 us or more on every CPU, counted alike (oslat's labels from 3 up); "
            "oslat times its loop with the TSC, ours with its own calibrated counter"},
    yield_pair("yield", "CPU time per sched_yield() call, %d threads / stress-ng's %d yielder "
                        "processes" % (YIELDERS, YIELDERS),
               "threads of one process against processes, every call a switch on both sides: a "
               "switch between threads keeps the address space, one between processes changes "
               "it, stress-ng is built with glibc (rseq, updated on every switch) and its loop "
               "counts and checks more per call, so ours is expected below 1; yield-proc pairs "
               "the first two alike, what this row has beyond it is stress-ng's loop",
               need="stress-ng", peer=[*YIELD_PIN, "stress-ng", "--yield", "1", "--metrics", "-t", "3"],
               peer_get=yield_peer),
    yield_pair("yield-proc", "CPU time per sched_yield() call, %d threads / %d processes of the "
                             "minimal loop built as stress-ng is" % (YIELDERS, YIELDERS),
               "stress-ng's shape without stress-ng: tools/bench/yield_ref.c's loop in forked "
               "processes, built with the system's compiler and libc as the distribution's "
               "stress-ng is; what is left is the switch of address space and the libc's "
               "per-switch work, so ours is expected below 1", **YIELD_REF_PEER),
    yield_pair("yield-ref", "CPU time per sched_yield() call, %d threads each side" % YIELDERS,
               "the same loop with nothing around it (tools/bench/yield_ref.c), built as the "
               "probe is, the same threads on the same CPU, both SCHED_OTHER while they yield; "
               "what is left is the probe's own bookkeeping: a count on its own cache line and "
               "the phase word read per call, and its main thread's ten sub-window wake-ups",
               **YIELD_REF_PEER),
    {"name": "sleep", "figure": "clock_nanosleep relative 1000 us: mean latency (us)",
     "ours": ours("wakeup", "--wakeup-us=1000"),
     "get": key("wakeup", "clock_nanosleep relative 1000us", "avg_ns", 1e-3),
     "need": "cc", "peer": None, "peer_get": number(r"mean_latency_us ([\d.]+)"),
     "why": "relative sleeps of 1000 us back to back; the selftests' loop times the span of all, "
            "ours each sleep"},
]


def measure(pair):
    """ROUNDS interleaved rounds: (ours outputs, peer outputs)."""
    a, b = [], []
    for r in range(ROUNDS):
        order = ("ours", "peer") if r % 2 == 0 else ("peer", "ours")
        for side in order:
            if side == "ours":
                a.append(run(pair["ours"]))
            else:
                b.append(run(pair["peer"]))
    return a, b


def shares(pair, outs_a, outs_b):
    """What a pair also says of each side's rounds (the yield pairs: the
    median share of calls that switched), or ''."""
    if "share" not in pair:
        return ""
    said = []
    for side, get, outs in (("timeprobe", pair["share"], outs_a),
                            ("peer", pair.get("peer_share"), outs_b)):
        got = [v for v in map(get, outs) if v is not None] if get else []
        said.append("%s %s" % (side, "%.2f" % statistics.median(got) if got else "not reported"))
    return "; share of calls that switched (median): " + ", ".join(said)


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def fmt(v):
    return "%.3g" % v if v is not None else "-"


def main():
    wanted = os.environ.get("PAIRS", " ".join(p["name"] for p in PAIRS)).split()
    if not os.access(BIN, os.X_OK):
        sys.exit("peers: %s not built (make build/timeprobe)" % BIN)
    load0 = loadavg()
    rows, lines = [], []
    for pair in PAIRS:
        if pair["name"] not in wanted:
            continue
        if pair["name"] == "sleep":
            pair["peer"] = [ref(NSLEEP_SRC)[0], "1000", str(WAKE_SAMPLES)]
        if pair["name"] == "yield-ref":
            exe, how = ref(YIELD_SRC, like_probe=True)
            pair["peer"] = [*YIELD_PIN, exe, str(YIELDERS), "3"]
            pair["why"] += " (built with %s)" % how
        if pair["name"] == "yield-proc":
            exe, how = ref(YIELD_SRC)
            pair["peer"] = [*YIELD_PIN, exe, str(YIELDERS), "3", "processes"]
            pair["why"] += " (built with %s)" % how
        if not shutil.which(pair["need"]) or None in pair["peer"]:
            line = "peers: SKIP %s: %s not installed" % (pair["name"], pair["need"])
            print(line, flush=True)
            lines.append(line)
            continue
        print("peers: %s, %d rounds ..." % (pair["name"], ROUNDS), flush=True)
        outs_a, outs_b = measure(pair)
        a, b = [pair["get"](o) for o in outs_a], [pair["peer_get"](o) for o in outs_b]
        ratios = [x / y for x, y in zip(a, b) if x is not None and y and y > 0]
        got_a = [x for x in a if x is not None]
        got_b = [y for y in b if y is not None]
        row = (pair["name"], pair["figure"], fmt(statistics.median(got_a)) if got_a else "-",
               fmt(statistics.median(got_b)) if got_b else "-",
               "%.2f" % statistics.median(ratios) if ratios else "-",
               "%.2f" % min(ratios) if ratios else "-", "%.2f" % max(ratios) if ratios else "-",
               len(ratios), " ".join(pair["ours"]).replace(BIN, "timeprobe"),
               " ".join(pair["peer"]).replace(WORK + "/", ""),
               pair["why"] + shares(pair, outs_a, outs_b))
        rows.append(row)
        print("  %-7s ours %s, peer %s, ratio %s (min %s, max %s, %d rounds)" % (row[:1] + row[2:8]),
              flush=True)
    load1 = loadavg()
    head = ("| pair | figure | timeprobe | peer | ratio | min | max | rounds |\n"
            "|---|---|---|---|---|---|---|---|\n")
    table = head + "".join("| %s | %s | %s | %s | **%s** | %s | %s | %d |\n" % r[:8] for r in rows)
    cmds = "".join("- %s: `%s` against `%s`; %s\n" % (r[0], r[8], r[9], r[10]) for r in rows)
    skips = "".join("- %s\n" % s for s in lines)
    text = ("%s\n`sh tools/bench/peers.sh` (`ROUNDS=%d`), %s, %d CPUs, kernel %s, "
            "load average %s at the start and %s at the end. Ratio: the median of the "
            "per-round ratios timeprobe / peer, rounds interleaved; min and max of those ratios; "
            "timeprobe and peer: each side's median.\n\n%s\nCommands, and what each pair pairs:\n\n%s%s%s\n"
            % (BEGIN, ROUNDS, os.uname().machine, os.cpu_count(), os.uname().release, load0,
               load1, table, cmds, ("\nSkipped:\n\n" + skips) if skips else "", END))
    print(table + "\n" + cmds)
    if DOC != "none" and set(wanted) >= {p["name"] for p in PAIRS}:
        write_doc(text)
    elif DOC != "none":
        print("peers: only some pairs ran; %s left as it was (the rows are above)" % DOC)
    shutil.rmtree(WORK, ignore_errors=True)


def write_doc(text):
    try:
        doc = open(DOC).read()
    except OSError:
        print("peers: %s not found; the table is above" % DOC)
        return
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN)] + text.rstrip("\n") + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip("\n") + "\n\n## Peer agreement\n\n" + text
    with open(DOC + ".tmp", "w") as f:
        f.write(doc)
    os.replace(DOC + ".tmp", DOC)
    print("peers: table written to %s" % DOC)


if __name__ == "__main__":
    main()
