#!/bin/sh
# SPDX-License-Identifier: MIT
# tp-report --fleet over a folder of copies of one capture (`make bench`;
# docs/benchmarks.md, "fleet"): wall time, CPU time and peak RSS for N
# runs, each a machine of its own, node-137's clock reads 10x
# (tools/bench/fleet-data.py). GNU time measures (a process forked from
# Python would count Python's memory in its peak RSS). Timings, never a test.
# Environment: TP_REPORT=build/tp-report CAPTURE=$(sh tests/lib/testdata.sh)/aa-host-1-a.log SIZES="20 200 1000"
set -eu

BIN=${TP_REPORT:-build/tp-report}
CAPTURE=${CAPTURE:-$(sh tests/lib/testdata.sh)/aa-host-1-a.log}
SIZES=${SIZES:-20 200 1000}

[ -x "$BIN" ] || { echo "fleet.sh: $BIN not built (make report)" >&2; exit 1; }
if [ ! -x /usr/bin/time ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi
[ -x /usr/bin/time ] || { echo "fleet.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-fleet-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

for n in $SIZES; do
	python3 tools/bench/fleet-data.py "$CAPTURE" "$work/$n" "$n" 137
	/usr/bin/time -o "$work/time" -f '%e %U %S %M %x' "$BIN" --fleet "$work/$n" >"$work/out" 2>/dev/null || true
	read -r wall user sys rss status <"$work/time"
	named=no
	sed -n '/^Runs most often an outlier:/{n;p;}' "$work/out" | grep -q 'node-137.log (node-137)' && named=yes
	printf 'fleet %5s runs: %6s s wall, %5.2f s CPU, peak RSS %5.1f MiB, exit %s, node-137 named first: %s\n' \
		"$n" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "scale=1; $rss / 1024" | bc)" "$status" "$named"
	rm -rf "${work:?}/$n"
done
