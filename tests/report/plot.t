#!/bin/sh
# SPDX-License-Identifier: MIT
# --plot=DIR: data, scripts and images; without gnuplot, data and scripts only.
. "$(dirname "$0")/lib.sh"

LOGS="tests/data/report-qemu.log tests/data/report-host.log tests/data/report-kvm.log"

# shellcheck disable=SC2086
run env PATH=/nonexistent "$(cd "$(dirname "$TP_REPORT")" && pwd)/$(basename "$TP_REPORT")" \
	--plot="$TMP/nognuplot" $LOGS
[ $rc -eq 0 ] && grep -q "gnuplot not found" "$TMP/err" && [ -s "$TMP/nognuplot/clocks.dat" ] &&
	[ -s "$TMP/nognuplot/clocks.gp" ] && [ ! -e "$TMP/nognuplot/clocks.svg" ]
pass $? "without gnuplot: says so, writes .dat and .gp, exit 0"
diag "$TMP/err"

if ! command -v gnuplot >/dev/null; then
	echo "# SKIP gnuplot not installed (apt-get install gnuplot-nox)"
	done_testing
fi

# shellcheck disable=SC2086
run "$TP_REPORT" --plot="$TMP/plots" $LOGS
pass $rc "with gnuplot: exit 0"
diag "$TMP/err"
for chart in clocks itimer yield hist-01-wakeup; do
	[ -s "$TMP/plots/$chart.svg" ] && [ -s "$TMP/plots/$chart.png" ] &&
		grep -q "<svg" "$TMP/plots/$chart.svg" &&
		[ "$(head -c 4 "$TMP/plots/$chart.png" | od -An -c | tr -d ' ')" = "211PNG" ]
	pass $? "$chart: SVG and PNG drawn"
done
grep -q "set logscale x" "$TMP/plots/itimer.gp"
pass $? "itimer accuracy against requested interval on a log x axis"

done_testing
