#!/bin/sh
# SPDX-License-Identifier: MIT
# tp-report --history over 10 machines' runs made of real captures
# (docs/benchmarks.md, "history"): wall time, CPU time and peak RSS for
# MACHINES x RUNS runs, runs cycling through the 30 quiet host captures of
# tests/report/history.t, one clock read x1.3 and a new kernel release from
# run 61 (tools/bench/history-data.py). GNU time measures. Timings, never a test.
# Environment: TP_REPORT=build/tp-report MACHINES=10 RUNS=100
set -eu

BIN=${TP_REPORT:-build/tp-report}
MACHINES=${MACHINES:-10}
RUNS=${RUNS:-100}

[ -x "$BIN" ] || { echo "history.sh: $BIN not built (make report)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "history.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-history-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

data=$(sh tests/lib/testdata.sh)	# tests/data, its sets of runs extracted
python3 tools/bench/history-data.py "$work/runs" "$RUNS" --machines="$MACHINES" \
	--figure='clocks:clock_gettime(CLOCK_MONOTONIC):path=vdso:ns_per_call' --scale=1.3 --from=61 \
	--kernel=6.19.1-fc "$data"/aa-host4-*.log "$data"/aa-host3-[1-5]-*.log
/usr/bin/time -o "$work/time" -f '%e %U %S %M %x' "$BIN" --history "$work/runs" >"$work/out" 2>/dev/null || true
read -r wall user sys rss status <"$work/time"
printf 'history %s runs of %s machines: %6s s wall, %5.2f s CPU, peak RSS %5.1f MiB, exit %s; %s\n' \
	"$((MACHINES * RUNS))" "$MACHINES" "$wall" "$(echo "$user + $sys" | bc)" \
	"$(echo "scale=1; $rss / 1024" | bc)" "$status" "$(head -1 "$work/out")"
