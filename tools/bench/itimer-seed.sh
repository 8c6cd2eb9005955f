#!/bin/sh
# SPDX-License-Identifier: MIT
# Side by side: probe `itimer`'s headline (actual_us, CPU time per signal)
# next to a timer-perf-style reference (tools/bench/timer-perf-ref.c, written
# from seed 000's method: getrusage CPU time from arming to the last signal
# / signals), under the same background load: the probe's --itimer-load=N and N
# busy loops in the reference. Alternates the two ROUNDS times (reference
# just before the probe, both measuring ITIMER_REAL first) and compares
# ITIMER_REAL, the timer whose "actual" changed meaning under load;
# ITIMER_VIRTUAL beside it. Prints both medians, the ratio of the medians
# and the median of the ratios of each round's pair (probe / reference),
# and the probe's wall time per signal. A shared machine's load moves
# single runs by 2x: read the spread before the ratio.
#
#   tools/bench/itimer-seed.sh
#
# Environment: TIMEPROBE=build/timeprobe  LOAD=2 x CPUs (the appliance's
# default)  ROUNDS=15  CC=gcc. The probe runs its quick profile (10000,
# 1000, 100 us, 0.2 s each); the reference the same intervals for 0.2 s of
# wall time each. The reference is built in a temporary directory.
set -eu

BIN=${TIMEPROBE:-build/timeprobe}
LOAD=${LOAD:-$(( 2 * $(nproc) ))}
ROUNDS=${ROUNDS:-15}
CC=${CC:-gcc}
here=$(dirname "$0")

case $LOAD in ''|*[!0-9]*) echo "itimer-seed.sh: LOAD '$LOAD' is not a count" >&2; exit 2 ;; esac
case $ROUNDS in ''|*[!0-9]*|0) echo "itimer-seed.sh: ROUNDS '$ROUNDS' is not a positive count" >&2; exit 2 ;; esac
[ -x "$BIN" ] || { echo "itimer-seed.sh: $BIN not built (make build/timeprobe)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "itimer-seed.sh: needs python3" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-itimer.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$CC" -O2 -o "$work/ref" "$here/timer-perf-ref.c"

echo "itimer bench: load $LOAD, $ROUNDS rounds, quick profile (10000 1000 100 us, 0.2 s each)"
echo "kernel $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commands: $BIN run --probes=itimer --profile=quick --itimer-load=$LOAD"
echo "          timer-perf-ref $LOAD 0.2 10000 1000 100"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	"$work/ref" "$LOAD" 0.2 10000 1000 100 >"$work/ref.$r"
	"$BIN" run --probes=itimer --profile=quick --itimer-load="$LOAD" >"$work/probe.$r" 2>&1
	r=$((r + 1))
done

PYTHONPATH="$(dirname "$0")/.." python3 - "$work" "$ROUNDS" <<'EOF'
import statistics, sys
from tp1rec import records  # tools/tp1rec.py, the one TP1 reader

work, rounds = sys.argv[1], int(sys.argv[2])
probe, ref, wall = {}, {}, {}
for i in range(1, rounds + 1):
    for line in open("%s/ref.%d" % (work, i)):
        f = line.split()
        ref.setdefault((f[0], int(f[1])), []).append(float(f[3]))
    recs, corrupt = records(open("%s/probe.%d" % (work, i), errors="replace").read())
    if corrupt:
        sys.exit("itimer-seed.sh: round %d: %d corrupt records in the probe's output" % (i, corrupt))
    for rec in recs:
        if rec.get("type") == "result" and rec.get("probe") == "itimer":
            k = (rec["timer"], rec["requested_us"])
            probe.setdefault(k, []).append(rec["actual_us"])
            wall.setdefault(k, []).append(rec["wall_us_per_signal"])
    for k in ref:
        if len(probe.get(k, [])) < len(ref[k]):
            sys.exit("itimer-seed.sh: round %d: no probe record for %s %d us" % (i, *k))

med = statistics.median
print()
print("CPU time per signal, us: median of %d rounds [min..max]; ratios probe / reference" % rounds)
print("%-15s %7s %24s %24s %9s %9s %11s" % ("timer", "us", "probe actual_us", "timer-perf-ref",
                                            "of medians", "paired", "probe wall"))
for k in sorted(ref, key=lambda k: (k[0], -k[1])):
    p, q = probe[k], ref[k]
    paired = [a / b for a, b in zip(p, q) if b > 0]
    print("%-15s %7d %10.0f [%5.0f..%5.0f] %10.0f [%5.0f..%5.0f] %9.3f %9.3f %11.0f" % (
        k[0], k[1], med(p), min(p), max(p), med(q), min(q), max(q), med(p) / med(q),
        med(paired) if paired else float("nan"), med(wall[k])))
EOF
