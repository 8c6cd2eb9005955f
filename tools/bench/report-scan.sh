#!/bin/sh
# SPDX-License-Identifier: MIT
# Scan time of tp-report (`make bench`; docs/benchmarks.md, "report scanner"):
#  1. a large capture: the real serial captures in tests/data repeated to
#     SIZE_MB megabytes, read with --format=csv (the model and output are
#     cheap next to scanning every byte);
#  2. one line of "TP1 {" repeated to LINE_KB kilobytes and to twice that,
#     ending in a CRC (" *00000000", wrong): a scanner that checks the CRC
#     from every tag to the end of the line takes four times as long for
#     twice the line; a linear one twice as long.
# Each is run ROUNDS times; the minimum, median and maximum wall times are
# printed. Environment: TP_REPORT=build/tp-report SIZE_MB=100 LINE_KB=80 ROUNDS=3
set -eu

BIN=${TP_REPORT:-build/tp-report}
SIZE_MB=${SIZE_MB:-100}
LINE_KB=${LINE_KB:-80}
ROUNDS=${ROUNDS:-3}

[ -x "$BIN" ] || { echo "report-scan.sh: $BIN not built (make report)" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-report-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# big.log: whole captures one after the other, as a long serial session would be
: >"$work/big.log"
while [ "$(wc -c <"$work/big.log")" -lt $((SIZE_MB * 1024 * 1024)) ]; do
	cat tests/data/serial-*.log tests/data/report-*.log >>"$work/big.log"
	# double each pass: a few dozen appends, not thousands
	cat "$work/big.log" "$work/big.log" >"$work/big2.log" && mv "$work/big2.log" "$work/big.log"
done
head -c $((SIZE_MB * 1024 * 1024)) "$work/big.log" >"$work/cap.log"
rm -f "$work/big.log"

# tags.log: "TP1 {" repeated on one line that ends in a CRC
tags() {	# tags KB FILE
	awk -v n=$(($1 * 1024 / 5)) 'BEGIN { for (i = 0; i < n; i++) printf "TP1 {"; print " *00000000" }' >"$2"
}
tags "$LINE_KB" "$work/tags1.log"
tags $((LINE_KB * 2)) "$work/tags2.log"

# bench NAME FILE: ROUNDS wall times in seconds, then min / median / max
bench() {
	times=""
	for _ in $(seq "$ROUNDS"); do
		t0=$(date +%s.%N)
		"$BIN" --format=csv "$2" >/dev/null 2>"$work/err" || true
		t1=$(date +%s.%N)
		times="$times $(echo "$t1 - $t0" | bc -l)"
	done
	echo "$times" | tr ' ' '\n' | sed '/^$/d' | sort -g | awk -v name="$1" '
		{ t[NR] = $1 }
		END { printf "%-28s min %8.3f s  median %8.3f s  max %8.3f s  (%d rounds)\n",
			name, t[1], t[int((NR + 1) / 2)], t[NR], NR }'
	sed -n '1,2s/^/    stderr: /p' "$work/err"
}

echo "tp-report: $BIN"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  cpus: $(nproc)"
bench "capture ${SIZE_MB} MB" "$work/cap.log"
bench "one line, ${LINE_KB} KB of TP1 {" "$work/tags1.log"
bench "one line, $((LINE_KB * 2)) KB of TP1 {" "$work/tags2.log"
