#!/bin/sh
# SPDX-License-Identifier: MIT
# Side by side: probe `wakeup`'s clock_nanosleep(TIMER_ABSTIME) latencies
# next to cyclictest's (rt-tests), with the same period, SCHED_FIFO
# priority, CPU, mlockall and number of samples, one after the other in one
# run. cyclictest's default mode is the same measurement: one thread that
# sleeps to absolute deadlines on CLOCK_MONOTONIC and records wake-up minus
# deadline (rt-tests src/cyclictest/cyclictest.c, timerthread()).
#
#   tools/bench/wakeup.sh [PERIOD_US [PRIORITY [CPU]]]
#
# Defaults: 1000 us, SCHED_FIFO 90, CPU 0 (-1: not pinned). Samples: what
# the probe's full profile takes at that period (3 s worth, 1000..30000), so
# both run equally long. Set TIMEPROBE to use another binary, KEEP=DIR to
# keep the raw outputs. Exits 77 (skip) when cyclictest is missing and
# cannot be installed.
set -eu

period=${1:-1000}
prio=${2:-90}
cpu=${3:-0}
bin=${TIMEPROBE:-build/timeprobe}

[ -x "$bin" ] || { echo "wakeup.sh: $bin not built (make build/timeprobe)" >&2; exit 1; }
if ! command -v cyclictest >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get install -y rt-tests >/dev/null 2>&1 || true
	fi
	command -v cyclictest >/dev/null 2>&1 || { echo "wakeup.sh: SKIP: no cyclictest (apt-get install rt-tests)"; exit 77; }
fi

# the probe's full-profile sample count (userland/probes/wakeup.c, wakeup_samples)
samples=$(( 3000000 / period ))
[ "$samples" -lt 1000 ] && samples=1000
[ "$samples" -gt 30000 ] && samples=30000

out=${KEEP:-$(mktemp -d /tmp/wakeup-bench.XXXXXX)}
mkdir -p "$out"

ct_sched="-p $prio"
[ "$prio" -gt 0 ] || ct_sched="-p 0 --policy=other"
ct_cpu=
[ "$cpu" -lt 0 ] || ct_cpu="-a $cpu"

echo "wakeup bench: period $period us, priority $prio, cpu $cpu, $samples samples each; outputs in $out"
echo "kernel $(uname -r), $(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?'), $(cyclictest --help 2>&1 | head -n 1)"

# cyclictest: -m mlockall, -h histogram of 1 us buckets up to 10 ms (as ours),
# --default-system: leave /dev/cpu_dma_latency alone, as the probe does.
ct() {
	# shellcheck disable=SC2086
	cyclictest -q -m $ct_sched $ct_cpu -i "$period" -l "$samples" -h 10000 --default-system \
		--json="$out/$1.json" >"$out/$1.out" 2>&1
}

# cyclictest, ours, cyclictest again: the two cyclictest runs show how much
# the same tool differs from itself on this machine, the yardstick for
# "the distributions match". Ours runs every mechanism at this period (full
# profile, so the sample count above); clock_nanosleep TIMER_ABSTIME is the
# first, the one compared.
ct cyclictest
"$bin" run --probes=wakeup --profile=full --wakeup-us="$period" --wakeup-priority="$prio" \
	--wakeup-cpu="$cpu" >"$out/timeprobe.log" 2>&1
ct cyclictest2

PYTHONPATH="$(dirname "$0")/.." python3 - "$out" "$period" <<'EOF'
import json, sys
from tp1rec import records  # tools/tp1rec.py, the one TP1 reader

out, period = sys.argv[1], int(sys.argv[2])

# ours: the record of clock_nanosleep TIMER_ABSTIME at this period
ours = None
recs, corrupt = records(open(out + "/timeprobe.log", errors="replace").read())
if corrupt:
    sys.exit("%d corrupt records in %s/timeprobe.log" % (corrupt, out))
for r in recs:
    if r.get("probe") == "wakeup" and r.get("name") == "clock_nanosleep TIMER_ABSTIME %dus" % period:
        ours = r
if not ours:
    sys.exit("no clock_nanosleep TIMER_ABSTIME record in " + out + "/timeprobe.log")

# cyclictest: JSON histogram (us -> count) and the overflow line of its text
def cyclic(name):
    th = json.load(open("%s/%s.json" % (out, name)))["thread"]["0"]
    over = 0
    for line in open("%s/%s.out" % (out, name), errors="replace"):
        if line.startswith("# Histogram Overflows:"):
            over = int(line.split(":")[1].split()[0])
    b = sorted((int(k), int(v)) for k, v in th["histogram"].items())
    return {"b": b, "n": sum(c for _, c in b) + over, "over": over, "min": th["min"],
            "avg": th["avg"], "max": th["max"]}

def pct(d, p):
    """nearest rank; the bucket's lower edge in us (cyclictest's convention)"""
    rank = max(1, -(-p * d["n"] // 100))
    seen = 0
    for us, c in d["b"]:
        seen += c
        if seen >= rank:
            return us
    return d["max"]

ob = sorted((int(k), int(v)) for k, v in ours["hist"]["buckets"].items())
o = {"b": ob, "n": sum(c for _, c in ob) + ours["hist"]["overflow"], "over": ours["hist"]["overflow"],
     "min": ours["min_ns"] / 1000.0, "avg": ours["avg_ns"] / 1000.0, "max": ours["max_ns"] / 1000.0}
runs = [("timeprobe", o), ("cyclictest", cyclic("cyclictest")), ("cyclictest2", cyclic("cyclictest2"))]

print()
print("%-12s" % "" + "".join("%13s" % name for name, _ in runs))
def row(label, f):
    cells = []
    for _, d in runs:
        v = f(d)
        cells.append("%13.1f" % v if isinstance(v, float) else "%13d" % v)
    print("%-12s" % label + "".join(cells))
row("samples", lambda d: d["n"])
row("min us", lambda d: float(d["min"]))
row("avg us", lambda d: float(d["avg"]))
for p in (50, 90, 99, 99.9):
    row("p%g us" % p, lambda d, p=p: pct(d, p))
row("max us", lambda d: float(d["max"]))
row("over 10 ms", lambda d: d["over"])
print("timeprobe set-up: %s, mlockall %s, cpu %d, timer slack %d ns%s" % (
    "SCHED_FIFO %d" % ours["priority"] if ours["priority"] else "SCHED_OTHER", "on" if ours["mlockall"] else "off", ours["cpu"], ours["timerslack_ns"],
    "; " + ours["priority_error"] if ours.get("priority_error") else ""))

grid = sorted({us for _, d in runs for us, _ in d["b"]})
def cdf(d):
    c, acc, j = {}, 0, 0
    for us in grid:
        while j < len(d["b"]) and d["b"][j][0] <= us:
            acc += d["b"][j][1]
            j += 1
        c[us] = acc / d["n"]
    return c
cdfs = {name: cdf(d) for name, d in runs}
def at_most(c, m):
    v = 0.0
    for us in grid:
        if us <= m:
            v = c[us]
    return v
print()
print("share of wake-ups below N us (cumulative, 1 us buckets):")
marks = [m for m in (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000) if m <= 2 * grid[-1] + 10]
print("  %-12s" % "N" + "".join("%8d" % m for m in marks))
for name, _ in runs:
    print("  %-12s" % name + "".join("%8.3f" % at_most(cdfs[name], m - 1) for m in marks))

def ks(a, b):
    d, at = 0.0, 0
    for us in grid:
        if abs(cdfs[a][us] - cdfs[b][us]) > d:
            d, at = abs(cdfs[a][us] - cdfs[b][us]), us
    n, m = dict(runs)[a]["n"], dict(runs)[b]["n"]
    # two-sample KS critical value at 5 %: 1.358 x sqrt((n + m) / (n m))
    return d, at, 1.358 * ((n + m) / (n * m)) ** 0.5
print()
print("Kolmogorov-Smirnov D (largest CDF difference):")
for a, b in (("timeprobe", "cyclictest"), ("timeprobe", "cyclictest2"), ("cyclictest", "cyclictest2")):
    d, at, crit = ks(a, b)
    print("  %-11s vs %-11s  D = %.3f at %d us  (5%% critical value %.3f)" % (a, b, d, at, crit))
EOF
