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
pass $? "itimer accuracy on a log x axis"
# one panel per requested interval (1, 10, 100 ms in these captures), drawn for SVG and again for PNG
[ "$(grep -c "^set multiplot layout 3,1 title 'Interval timer accuracy" "$TMP/plots/itimer.gp")" = 2 ] &&
	for us in 1000 10000 100000; do
		grep -q "^set title 'requested interval $us µs: actual / requested (%)'" "$TMP/plots/itimer.gp" || exit 1
	done
pass $? "itimer: one panel per requested interval"
# clocks: horizontal bars, every run a block of the same rows: only those every run measured
awk '/^# y/ { b++ } /^-?[0-9]/ && !/NaN/ { n[b]++ } END { for (i = 1; i <= b; i++) if (n[i] != n[1]) exit 1; exit !(b == 3 && n[1] == 11) }' \
	"$TMP/plots/clocks.dat" && grep -q "with boxxyerror" "$TMP/plots/clocks.gp" &&
	! grep -q "'MONOTONIC hpet syscall'" "$TMP/plots/clocks.gp" &&
	grep -q "^set ytics ('MONOTONIC vdso tsc' 12.5, 'MONOTONIC libc as booted' 11.5, 'REALTIME vdso tsc' 10," "$TMP/plots/clocks.gp"
pass $? "clocks: horizontal bars, 11 rows every run has, grouped by clock, a run's own rows left out"

# drift and tscsync from two real boots (q35 once, pc with timeprobe.repeat=2)
REAL="tests/data/serial-q35-drift.log tests/data/serial-pc-drift-repeat.log"
# shellcheck disable=SC2086
run "$TP_REPORT" --label=q35,pc --plot="$TMP/real" $REAL
pass $rc "drift and tscsync captures: exit 0"
diag "$TMP/err"
for chart in adev tscsync; do
	[ -s "$TMP/real/$chart.svg" ] && [ -s "$TMP/real/$chart.png" ] && grep -q "<svg" "$TMP/real/$chart.svg"
	pass $? "$chart: SVG and PNG drawn"
done
grep -q "set logscale x 10" "$TMP/real/adev.gp" && grep -q "set logscale y 10" "$TMP/real/adev.gp"
pass $? "adev: log-log axes"
# one line per reference and run, each with the three taus both boots measured
[ "$(grep -c "^# " "$TMP/real/adev.dat")" = 6 ] &&
	for t in "q35 CLOCK_MONOTONIC_RAW" "q35 hpet" "q35 pmtimer" "pc CLOCK_MONOTONIC_RAW" "pc hpet" "pc pmtimer"; do
		grep -q "title '$t'" "$TMP/real/adev.gp" || exit 1
	done &&
	[ "$(awk -F'\t' '/^[0-9]/ { print $1 }' "$TMP/real/adev.dat" | sort -u | tr '\n' ' ')" = "0.1 1 3.33 " ]
pass $? "adev: a line per reference and run, at tau 0.1, 1 and 3.33 s"
# captures from before adev_lo/adev_hi: each point's bar has no length
awk -F'\t' '/^[0-9]/ && ($3 != $2 || $4 != $2) { bad = 1 } END { exit bad }' "$TMP/real/adev.dat"
pass $? "adev: a capture without intervals draws no bar"
# a capture with them: error bars from adev_lo to adev_hi
python3 - >"$TMP/ci.log" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line
for tau, a, lo, hi in ((0.1, 5.36e-08, 5.16e-08, 5.58e-08), (3.33, 1.56e-09, 1.29e-09, 2.1e-09)):
    print(record_line({"type": "result", "probe": "drift", "name": "adev hpet tau %gs" % tau,
                       "ref": "hpet", "tau_s": tau, "m": 1, "adev": a, "adev_lo": lo, "adev_hi": hi,
                       "edf": 9.1, "noise": "white_fm", "slope": -0.5, "n": 335}))
PY
run "$TP_REPORT" --plot="$TMP/ci" "$TMP/ci.log"
grep -q "1:2:3:4 with yerrorlines" "$TMP/ci/adev.gp" &&
	grep -q "^3.33	1.56e-09	1.29e-09	2.1e-09$" "$TMP/ci/adev.dat"
pass $? "adev: the 68 % interval (adev_lo, adev_hi) drawn as error bars"
diag "$TMP/err"
grep -q "set xtics ('0>1' 0, '1>0' 1)" "$TMP/real/tscsync.gp" &&
	grep -q "using (\$1-0.1500):2:3 with yerrorbars pointtype 7 title 'q35'" "$TMP/real/tscsync.gp" &&
	grep -q "using (\$1+0.1500):4:5 with yerrorbars pointtype 7 title 'pc'" "$TMP/real/tscsync.gp"
pass $? "tscsync: a tic per ordered pair, offset with its bound as error bars per run"
# the pc boot's pair 0>1: the intersection of its two iterations' intervals offset ± bound
python3 - "$TMP/real/tscsync.dat" tests/data/serial-pc-drift-repeat.log <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import records
recs = records(open(sys.argv[2], errors="replace").read())[0]
pairs = [r for r in recs if r.get("probe") == "tscsync" and r.get("cpu_a") == 0 and r.get("cpu_b") == 1]
assert len(pairs) == 2, pairs
row = [l.split("\t") for l in open(sys.argv[1]) if l.startswith("0\t")][0]
lo = max(p["offset_ns"] - p["bound_ns"] for p in pairs)
hi = min(p["offset_ns"] + p["bound_ns"] for p in pairs)
for col, want in ((3, (lo + hi) / 2), (4, (hi - lo) / 2)):
    assert abs(float(row[col]) - want) <= 1e-6 * abs(want), (col, row[col], want)
PY
pass $? "tscsync: --repeat iterations of a pair combine into the intersection of their intervals"

# hostile records: a reference, a run label and CPU numbers meant to run in gnuplot
evil="x'; system('touch $TMP/pwned-ref') #"
{
	tp1 '{"type":"run","env":"os","machine":"m"}'
	tp1 "{\"type\":\"result\",\"probe\":\"drift\",\"name\":\"adev\",\"ref\":\"$evil\",\"tau_s\":1,\"adev\":1e-8}"
	tp1 '{"type":"result","probe":"drift","name":"adev nl","ref":"a\nset output \"pwned-nl\"","tau_s":1,"adev":2e-8}'
	tp1 '{"type":"result","probe":"drift","name":"adev neg","ref":"r","tau_s":-1,"adev":1e-8}'
	tp1 "{\"type\":\"result\",\"probe\":\"tscsync\",\"name\":\"$evil\",\"cpu_a\":0,\"cpu_b\":1,\"offset_ns\":3,\"bound_ns\":40}"
	tp1 "{\"type\":\"result\",\"probe\":\"tscsync\",\"name\":\"s\",\"cpu_a\":\"0' 0); system('touch $TMP/pwned-cpu'); ('\",\"cpu_b\":1,\"offset_ns\":3,\"bound_ns\":40}"
	tp1 '{"type":"result","probe":"tscsync","name":"big","cpu_a":1,"cpu_b":99999999999,"offset_ns":3,"bound_ns":40}'
	tp1 '{"type":"result","probe":"tscsync","name":"neg","cpu_a":1,"cpu_b":0,"offset_ns":3,"bound_ns":-1}'
	tp1 '{"type":"result","probe":"tscsync","name":"pre","when":"pre-os","cpu_a":2,"cpu_b":3,"offset_ns":5,"bound_ns":50}'
	tp1 '{"type":"result","probe":"tscsync","name":"odd","when":7,"cpu_a":4,"cpu_b":5,"offset_ns":5,"bound_ns":50}'
	tp1 '{"type":"end","probes_ok":2}'
} >"$TMP/hostile.log"
run "$TP_REPORT" --label="$evil" --plot="$TMP/hostile" "$TMP/hostile.log"
pass $rc "hostile drift and tscsync records: gnuplot ran without an error"
diag "$TMP/err"
! ls "$TMP" "$TMP/hostile" | grep -q pwned
pass $? "nothing in a record or label ran: no pwned-* file"
[ "$(ls "$TMP/hostile" | grep -cv '^\(adev\|tscsync\)\.\(dat\|gp\|svg\|png\)$')" = 0 ]
pass $? "only adev.* and tscsync.* written"
grep -q "set xtics ('0>1' 0, '1>0' 1)" "$TMP/hostile/tscsync.gp" &&
	[ "$(grep '^[0-9]' "$TMP/hostile/tscsync.dat" | tr '\t\n' ', ')" = "0,3,40 1,-,- " ]
pass $? "tscsync: CPU numbers that are not small integers make no pair, nor a pre-os or odd \`when\`; a negative bound no point"
grep -q "title 'x''; system(''touch $TMP/pwned-ref'') # a set output \"pwned-nl\"'" "$TMP/hostile/adev.gp" && [ "$(grep -c '^# ' "$TMP/hostile/adev.dat")" = 2 ]
pass $? "adev: a reference's name quoted, the newline made a space; tau <= 0 left out"
diag "$TMP/hostile/adev.gp"

done_testing
