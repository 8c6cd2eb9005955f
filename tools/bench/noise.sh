#!/bin/sh
# SPDX-License-Identifier: MIT
# Side-by-side benchmark for probe `noise` (`make bench`):
#  1. on this host, our `noise` against rt-tests' oslat (the closest packaged
#     relative of sysjitter: one busy thread per CPU reading the TSC, a
#     histogram of loop times), run in turn ROUNDS times with the same
#     duration on the same CPUs. Compared per CPU: interruptions longer than
#     1 us per second (ours: gaps >= noise-threshold-ns=1000; oslat: the
#     buckets from "002 (us)" up, its loop times rounded up to whole us) and
#     the longest one. Prints every round, then medians and ratios.
#  2. with QEMU=1, the same binary as the appliance: a temporary disk image
#     whose command line runs only `noise` for the same duration, booted
#     with tools/qemu-run.sh (TCG here, KVM where /dev/kvm works); both logs
#     are kept in OUT and put side by side with `timeprobe report` when
#     tp-report is built (make report).
# docs/benchmarks/noise.md records what was measured. Environment:
#   TIMEPROBE=build/timeprobe  NOISE_MS=5000  ROUNDS=3  OSLAT=oslat (none: skip)
#   QEMU=0|1  QEMU_CPUS=2  OUT=<dir for the logs> (default: a temporary one)
set -eu

BIN=${TIMEPROBE:-build/timeprobe}
NOISE_MS=${NOISE_MS:-5000}
ROUNDS=${ROUNDS:-3}
OSLAT=${OSLAT:-oslat}
QEMU=${QEMU:-0}
QEMU_CPUS=${QEMU_CPUS:-2}

[ -x "$BIN" ] || { echo "noise.sh: $BIN not built (make build/timeprobe)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "noise.sh: needs python3" >&2; exit 1; }
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	work=$OUT
else
	work=$(mktemp -d /tmp/tp-noise.XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi
if [ "$OSLAT" != none ] && ! command -v "$OSLAT" >/dev/null; then
	echo "noise.sh: $OSLAT missing: apt-get install rt-tests (or OSLAT=none)" >&2
	apt-get install -y rt-tests >/dev/null 2>&1 || OSLAT=none
fi
secs=$(( (NOISE_MS + 999) / 1000 ))
cpus=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c)))')

echo "== host: $(uname -r), $(nproc) CPUs ($cpus), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $ROUNDS rounds of ${NOISE_MS} ms: timeprobe noise, then $OSLAT -D ${secs} -c $cpus"

r=1
while [ "$r" -le "$ROUNDS" ]; do
	"$BIN" run --probes=noise --noise-ms="$NOISE_MS" --noise-threshold-ns=1000 --save=off \
		> "$work/ours.$r.log" 2>&1
	if [ "$OSLAT" != none ]; then
		"$OSLAT" -D "$secs" -c "$cpus" > "$work/oslat.$r.log" 2>&1 || true
	fi
	r=$((r + 1))
done

PYTHONPATH="$(dirname "$0")/.." python3 - "$work" "$ROUNDS" "$NOISE_MS" "$OSLAT" <<'EOF'
import re, statistics, sys
from tp1rec import records  # tools/tp1rec.py, the one TP1 reader

work, rounds, noise_ms, oslat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def ours(path):
    """cpu -> (interruptions per s, max gap us, stolen %), from the CRC-checked records."""
    out = {}
    for r in records(open(path, errors="replace").read())[0]:
        if r.get("probe") == "noise" and r.get("type") == "result" and "cpu" in r:
            out[r["cpu"]] = (r["per_s"], (r["max_gap_ns"] or 0) / 1e3, r["stolen_pct"])
    return out


def theirs(path):
    """cpu -> (loops > 1 us per s, max us), from oslat's table."""
    cores, buckets, maxes, dur = [], {}, [], []
    for line in open(path, errors="replace"):
        m = re.match(r"\s*Core:\s*(.*)", line)
        if m:
            cores = [int(x) for x in m.group(1).split()]
        m = re.match(r"\s*(\d+) \(us\):\s*([\d ]+)", line)
        if m:
            buckets[int(m.group(1))] = [int(x) for x in m.group(2).split()]
        m = re.match(r"\s*Maximum:\s*([\d ]+)", line)
        if m:
            maxes = [int(x) for x in m.group(1).split()]
        m = re.match(r"\s*Duration:\s*([\d. ]+)", line)
        if m:
            dur = [float(x) for x in m.group(1).split()]
    out = {}
    for i, c in enumerate(cores):
        over = sum(v[i] for k, v in buckets.items() if k >= 2)
        out[c] = (over / dur[i] if dur and dur[i] else float("nan"), maxes[i] if maxes else float("nan"))
    return out


rows = {}
print("%-5s %-4s %14s %14s %12s %12s %10s" % ("round", "cpu", "ours >1us/s", "oslat >1us/s",
                                            "ours max us", "oslat max us", "ours stolen%"))
for r in range(1, rounds + 1):
    a = ours("%s/ours.%d.log" % (work, r))
    b = theirs("%s/oslat.%d.log" % (work, r)) if oslat != "none" else {}
    if not a:
        print("round %d: no noise records in %s/ours.%d.log" % (r, work, r))
    for c in sorted(a):
        x = a[c]
        y = b.get(c, (float("nan"), float("nan")))
        rows.setdefault(c, []).append((x, y))
        print("%-5d %-4d %14.1f %14.1f %12.1f %12.1f %10.3f" % (r, c, x[0], y[0], x[1], y[1], x[2]))
print()
print("medians over %d rounds of %d ms (ratio = ours / oslat)" % (rounds, noise_ms))
print("%-4s %14s %14s %7s %12s %12s %7s" % ("cpu", "ours >1us/s", "oslat >1us/s", "ratio",
                                          "ours max us", "oslat max us", "ratio"))
for c, v in sorted(rows.items()):
    m = [statistics.median(t[k][i] for t in v) for k in (0, 1) for i in (0, 1)]
    ratio = lambda p, q: "%.2f" % (p / q) if q and q == q else "n/a"
    print("%-4d %14.1f %14.1f %7s %12.1f %12.1f %7s" % (c, m[0], m[2], ratio(m[0], m[2]),
                                                     m[1], m[3], ratio(m[1], m[3])))
EOF

[ "$QEMU" = 1 ] || exit 0

# ---- 2. the same binary in the appliance ----
echo
echo "== appliance in QEMU (-smp $QEMU_CPUS): timeprobe.probes=noise timeprobe.noise-ms=$NOISE_MS"
gen=build/tools/gen_init_cpio
for f in build/boot/BOOTX64.EFI build/kernel/bzImage "$gen"; do
	[ -e "$f" ] || { echo "noise.sh: $f missing: make image first" >&2; exit 1; }
done
sed "s|@TIMEPROBE@|$BIN|" initramfs/initramfs.list > "$work/initramfs.list"
"$gen" -t "${SOURCE_DATE_EPOCH:-1700000000}" "$work/initramfs.list" > "$work/initramfs.img"
sh tools/mkimage.sh "$work/noise.img" build/boot/BOOTX64.EFI build/kernel/bzImage "$work/initramfs.img" \
	tools/cmdline.txt "timeprobe.probes=noise timeprobe.noise-ms=$NOISE_MS timeprobe.save=off" >/dev/null
sh tools/qemu-run.sh --cpus "$QEMU_CPUS" --timeout $((secs * 20 + 120)) --log "$work/qemu.log" "$work/noise.img" || true
"$BIN" run --probes=noise --noise-ms="$NOISE_MS" --save=off > "$work/host.log" 2>&1
for side in host qemu; do
	echo "-- $side:"
	tr -d '\r' < "$work/$side.log" | grep -av '^TP1' | grep -a -A$((QEMU_CPUS + 3)) '^  threshold ' || true
done
if "$BIN" report "$work/host.log" "$work/qemu.log" --label=host,qemu > "$work/report.txt" 2>&1; then
	echo "-- timeprobe report (noise):"
	sed -n '/^noise/,/^$/p' "$work/report.txt"
else
	echo "-- timeprobe report unavailable (make report): logs in $work"
fi
