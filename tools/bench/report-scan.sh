#!/bin/sh
# SPDX-License-Identifier: MIT
# Scan time of tp-report (`make bench`; docs/benchmarks.md, "report scanner"):
#  1. a large capture: the captures in tests/data one after the other to
#     SIZE_MB megabytes, read whole (--format=csv: scanning, the model of
#     its thousands of runs, output) and, where the binary has it, scanned
#     only (--check-keys: scanning and the schema check, no model);
#  2. one line of "TP1 {" repeated to LINE_KB kilobytes and to twice that,
#     ending in a CRC (" *00000000", wrong): a scanner that checks the CRC
#     from every tag to the end of the line takes four times as long for
#     twice the line; a linear one twice as long.
# Each is run ROUNDS times; prints the median and the range of the wall time
# and of the CPU time (user + system: less disturbed by other jobs).
# Environment: TP_REPORT=build/tp-report SIZE_MB=100 LINE_KB=80 ROUNDS=3
set -eu

BIN=${TP_REPORT:-build/tp-report}
SIZE_MB=${SIZE_MB:-100}
LINE_KB=${LINE_KB:-80}
ROUNDS=${ROUNDS:-3}

[ -x "$BIN" ] || { echo "report-scan.sh: $BIN not built (make report)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "report-scan.sh: needs python3" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-report-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# cap.log: whole captures one after the other, as a long serial session would be
cat tests/data/serial-*.log tests/data/capture-*.log tests/data/report-*.log >"$work/one.log"
: >"$work/cap.log"
while [ "$(wc -c <"$work/cap.log")" -lt $((SIZE_MB * 1024 * 1024)) ]; do
	cat "$work/one.log" "$work/cap.log" "$work/cap.log" >"$work/next.log"
	mv "$work/next.log" "$work/cap.log"
done
head -c $((SIZE_MB * 1024 * 1024)) "$work/cap.log" >"$work/next.log"
mv "$work/next.log" "$work/cap.log"

# tags KB FILE: "TP1 {" repeated on one line that ends in a CRC
tags() {
	awk -v n=$(($1 * 1024 / 5)) 'BEGIN { for (i = 0; i < n; i++) printf "TP1 {"; print " *00000000" }' >"$2"
}
tags "$LINE_KB" "$work/tags1.log"
tags $((LINE_KB * 2)) "$work/tags2.log"

# bench NAME ARGS...: ROUNDS runs of tp-report ARGS
bench() {
	name=$1
	shift
	python3 - "$ROUNDS" "$name" "$BIN" "$@" <<'PY'
import resource, subprocess, sys, time
rounds, name, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
wall, cpu, err = [], [], b""
for _ in range(rounds):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall.append(time.monotonic() - t0)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    err = p.stderr
def show(v):
    v = sorted(v)
    return "%8.3f s (%.3f-%.3f)" % (v[len(v) // 2], v[0], v[-1])
print("%-36s wall %s  cpu %s  %d rounds" % (name, show(wall), show(cpu), rounds))
for line in err.decode(errors="replace").splitlines()[:1]:
    print("    stderr:", line)
PY
}

echo "tp-report: $BIN"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  cpus: $(nproc)"
bench "capture ${SIZE_MB} MB, whole report" --format=csv "$work/cap.log"
if "$BIN" --help | grep -q -- --check-keys; then
	bench "capture ${SIZE_MB} MB, scan only" --check-keys "$work/cap.log"
fi
bench "one line, ${LINE_KB} KB of TP1 {" --format=csv "$work/tags1.log"
bench "one line, $((LINE_KB * 2)) KB of TP1 {" --format=csv "$work/tags2.log"
