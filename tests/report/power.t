#!/bin/sh
# SPDX-License-Identifier: MIT
# The lead's two error rates (docs/comparing.md, "When a figure leads"), on
# fresh host runs never used for a floor (tests/data/fresh-*, made on a
# 2-core machine whose other work kept 55 to 99 % of its CPUs busy; their
# conditions say so). Identical runs lead with nothing (A/A): three single
# pairs a few minutes apart, the third beside stress-ng --cpu 1, and three
# runs against three. A known change leads (A/B): one headline figure of
# the second side scaled with its interval (the whole distribution moved),
# 1.5x for clocks, 2x for switch; yield alone against yield beside
# stress-ng --cpu 2 leads with the condition beside it. What cannot lead
# here is said as diagnostics, with the detectable ratio the note gives.
. "$(dirname "$0")/lib.sh"

D=tests/data
none="(no figure differs from A by more than its noise)"
SIDES="--label=A,A,A,B,B,B"
side_a() { echo $D/fresh-side-1-a.log $D/fresh-side-2-a.log $D/fresh-side-3-a.log; }

# scale LOG PROBE NAME KEY FACTOR: LOG with KEY of PROBE's result NAME, and its
# KEY_ci95 interval, times FACTOR; CRCs redone
scale() {
	python3 - "$@" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
path, probe, name, key, f = sys.argv[1:5] + [float(sys.argv[5])]
for r in records(open(path, errors="replace").read())[0]:
    if r.get("type") == "result" and r.get("probe") == probe and r.get("name") == name:
        r[key] *= f
        ci = r.get(key + "_ci95")
        if ci:
            r[key + "_ci95"] = [ci[0] * f, ci[1] * f, ci[2]]
    print(record_line(r))
PY
}

# A/A: single pairs, both runs busy: nothing compares, and the note says why
for k in 1 2 3; do
	lead --label=A,B $D/fresh-host-$k-a.log $D/fresh-host-$k-b.log
	[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ] &&
		grep -q "^  (both runs ran beside other work using 10 % of the CPUs or more" "$TMP/lead-note"
	pass $? "fresh identical pair $k (busy): no figure leads, the note says why"
	diag "$TMP/lead-all"
done

# A/A: three runs against three, interleaved: Welch's t on the runs, Benjamini-Hochberg
lead $SIDES $(side_a) $D/fresh-side-1-b.log $D/fresh-side-2-b.log $D/fresh-side-3-b.log
[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ]
pass $? "three identical runs against three: no figure leads"
diag "$TMP/lead-all"
grep -q "^  (detectable here: .*clocks >= [0-9.]*x .*yield >= [0-9.]*x .*switch >= [0-9.]*x" "$TMP/lead-note"
pass $? "the note gives the detectable ratio of clocks, yield and switch"
diag "$TMP/lead-note"

# A/B: one headline figure of side B scaled
scaled_sides() {	# PROBE NAME KEY FACTOR
	for i in 1 2 3; do scale $D/fresh-side-$i-b.log "$@" >"$TMP/b$i.log"; done
	lead $SIDES $(side_a) "$TMP/b1.log" "$TMP/b2.log" "$TMP/b3.log"
	grep -F "$2" "$TMP/lead" | grep -q ": $3  .* p [0-9.e-]* (hogs: other work [0-9]* % of CPUs)$"
}
scaled_sides clocks "clock_gettime(CLOCK_MONOTONIC)" ns_per_call 1.5
pass $? "clocks: clock_gettime(CLOCK_MONOTONIC) ns_per_call x1.5 leads, p and condition beside it"
diag "$TMP/lead"
scaled_sides switch pipe-process-same-cpu pipe_overhead_ns 2
pass $? "switch: pipe-process-same-cpu pipe_overhead_ns x2 leads"
diag "$TMP/lead"
# yield's identical busy runs differ by 2-4x run to run: a 2x change is below its power
# from three a side here (a diagnostic, not a test: it says what this machine can tell)
if scaled_sides yield "1 threads" total_per_s 2; then
	echo "# yield: 1 threads total_per_s x2 leads from three busy runs a side"
else
	echo "# yield: 1 threads total_per_s x2 does not lead from three busy runs a side;" \
		"$(grep -o 'yield >= [0-9.]*x (median [0-9.]*x' "$TMP/lead-note")"
fi

# yield alone, then beside stress-ng --cpu 2, three of each interleaved
lead --label=alone,alone,alone,hogged,hogged,hogged $D/fresh-yield-alone-1.log \
	$D/fresh-yield-alone-2.log $D/fresh-yield-alone-3.log $D/fresh-yield-stress2-1.log \
	$D/fresh-yield-stress2-2.log $D/fresh-yield-stress2-3.log
grep -q "^  yield  *1 threads: total_per_s .* 0.00x, p [0-9.e-]* (hogs: other work 9[0-9] % of CPUs)$" "$TMP/lead"
pass $? "yield beside stress-ng --cpu 2: total_per_s leads with the condition beside it"
diag "$TMP/lead"

# This machine's own floors (make noise-floor, tp-report --floors): two single quiet runs
# of one clock read, 2x apart, each sure of itself within 1 %
quiet() {	# NS
	tp1 '{"type":"run","schema":1,"env":"os","machine":"m"}' \
		"{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\",\"path\":\"vdso\",\"clocksource\":\"tsc\",\"ns_per_call\":$1,\"ns_per_call_ci95\":[$(($1 * 99 / 100)),$(($1 * 101 / 100)),500]}" \
		'{"type":"end","records":2,"other_busy_pct":1}'
}
quiet 100 >"$TMP/q1.log"
quiet 200 >"$TMP/q2.log"
printf '# mine\nos\tclocks\tns_per_call\t1.2\t10\n' >"$TMP/f12.tsv"
printf 'os\tclocks\tns_per_call\t3\t10\n' >"$TMP/f3.tsv"
lead --floors="$TMP/f12.tsv" --label=A,B "$TMP/q1.log" "$TMP/q2.log"
grep -q ": ns_per_call  .* 2.00x$" "$TMP/lead"
pass $? "--floors: quiet single runs, a floor of 1.2x: 2x leads"
diag "$TMP/lead-all"
lead --floors="$TMP/f3.tsv" --label=A,B "$TMP/q1.log" "$TMP/q2.log"
[ "$(cat "$TMP/lead")" = "  $none" ]
pass $? "--floors: a machine's own floor of 3x: 2x does not lead"
diag "$TMP/lead-all"
printf 'os\tclocks\tns_per_call\t0.5\t10\n' >"$TMP/bad.tsv"
run "$TP_REPORT" --floors="$TMP/bad.tsv" "$TMP/q1.log" "$TMP/q2.log"
[ $rc -eq 2 ] && grep -q "^report: --floors=.*bad.tsv: line 1: a ratio that is not a number from 1 to 1e9; no floor taken$" "$TMP/err"
pass $? "--floors: a ratio below 1 is refused with its line, exit 2"
diag "$TMP/err"

done_testing
