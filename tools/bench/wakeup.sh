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

# ours: all mechanisms at this period; the comparison uses clock_nanosleep
# TIMER_ABSTIME. Full profile, so the sample count is the one above.
"$bin" run --probes=wakeup --profile=full --wakeup-us="$period" --priority="$prio" \
	--wakeup-cpu="$cpu" >"$out/timeprobe.log" 2>&1

# cyclictest: -m mlockall, -h histogram of 1 us buckets up to 10 ms (as ours),
# --default-system: leave /dev/cpu_dma_latency alone, as the probe does.
# shellcheck disable=SC2086
cyclictest -q -m $ct_sched $ct_cpu -i "$period" -l "$samples" -h 10000 --default-system \
	--json="$out/cyclictest.json" >"$out/cyclictest.out" 2>&1

python3 - "$out" "$period" <<'EOF'
import json, sys, zlib

out, period = sys.argv[1], int(sys.argv[2])

# ours: the record of clock_nanosleep TIMER_ABSTIME at this period
ours = None
for line in open(out + "/timeprobe.log", errors="replace"):
    line = line.rstrip("\n")
    if not line.startswith("TP1 "):
        continue
    body, _, crc = line[4:].rpartition(" *")
    if "%08x" % zlib.crc32(body.encode()) != crc:
        sys.exit("bad CRC in timeprobe output: " + line[:80])
    r = json.loads(body)
    if r.get("probe") == "wakeup" and r.get("name") == "clock_nanosleep TIMER_ABSTIME %dus" % period:
        ours = r
if not ours:
    sys.exit("no clock_nanosleep TIMER_ABSTIME record in " + out + "/timeprobe.log")

# cyclictest: JSON histogram (us -> count) and the overflow line of its text
ct = json.load(open(out + "/cyclictest.json"))
th = ct["thread"]["0"]
ct_over = 0
for line in open(out + "/cyclictest.out", errors="replace"):
    if line.startswith("# Histogram Overflows:"):
        ct_over = int(line.split(":")[1].split()[0])

def from_hist(buckets, overflow, outliers=None):
    """us bucket -> count, plus overflow, as a sorted list of (us, count)."""
    b = sorted((int(k), int(v)) for k, v in buckets.items())
    n = sum(c for _, c in b) + overflow
    return b, n

def pct(b, n, overflow, p, largest):
    """nearest rank, bucket lower edge in us (cyclictest's own convention)"""
    rank = max(1, -(-p * n // 100))
    seen = 0
    for us, c in b:
        seen += c
        if seen >= rank:
            return us
    return largest

ob, on = from_hist(ours["hist"]["buckets"], ours["hist"]["overflow"])
cb, cn = from_hist(th["histogram"], ct_over)
o_max = ours["max_ns"] / 1000.0
c_max = th["max"]

rows = [
    ("samples", on, cn),
    ("min us", ours["min_ns"] / 1000.0, th["min"]),
    ("avg us", ours["avg_ns"] / 1000.0, th["avg"]),
    ("p50 us", pct(ob, on, 0, 50, o_max), pct(cb, cn, 0, 50, c_max)),
    ("p90 us", pct(ob, on, 0, 90, o_max), pct(cb, cn, 0, 90, c_max)),
    ("p99 us", pct(ob, on, 0, 99, o_max), pct(cb, cn, 0, 99, c_max)),
    ("p99.9 us", pct(ob, on, 0, 99.9, o_max), pct(cb, cn, 0, 99.9, c_max)),
    ("max us", o_max, c_max),
    ("over 10 ms", ours["hist"]["overflow"], ct_over),
]
print()
print("%-12s %12s %12s" % ("", "timeprobe", "cyclictest"))
for name, a, b in rows:
    fa = "%12.1f" % a if isinstance(a, float) else "%12d" % a
    fb = "%12.1f" % b if isinstance(b, float) else "%12d" % b
    print("%-12s %s %s" % (name, fa, fb))
print("%-12s %12s %12s" % ("set-up", "FIFO %d%s" % (ours["priority"], " mlock" if ours["mlockall"] else ""),
                          "cpu %d" % ours["cpu"]))
if ours.get("priority_error"):
    print("  timeprobe: " + ours["priority_error"])

# shape: both cumulative distributions on the 1 us grid; KS distance
grid = sorted({us for us, _ in ob} | {us for us, _ in cb})
def cdf(b, n):
    d, acc, j = {}, 0, 0
    for us in grid:
        while j < len(b) and b[j][0] <= us:
            acc += b[j][1]
            j += 1
        d[us] = acc / n
    return d
oc, cc = cdf(ob, on), cdf(cb, cn)
ks, at = 0.0, 0
for us in grid:
    if abs(oc[us] - cc[us]) > ks:
        ks, at = abs(oc[us] - cc[us]), us
print()
print("share of wake-ups within: (cumulative, both on 1 us buckets)")
marks = [m for m in (5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000) if m <= max(grid[-1], 5) * 2]
print("  %-10s" % "us" + "".join("%8d" % m for m in marks))
def at_most(c, m):
    v = 0.0
    for us in grid:
        if us <= m:
            v = c[us]
    return v
print("  %-10s" % "timeprobe" + "".join("%8.3f" % at_most(oc, m) for m in marks))
print("  %-10s" % "cyclictest" + "".join("%8.3f" % at_most(cc, m) for m in marks))
# two-sample KS: above c(0.05) = 1.358 x sqrt((n + m) / (n m)) the samples
# are unlikely to come from one distribution
crit = 1.358 * ((on + cn) / (on * cn)) ** 0.5
print("largest CDF difference (Kolmogorov-Smirnov D): %.3f at %d us; 5%% critical value %.3f"
      % (ks, at, crit))
EOF
