#!/bin/sh
# SPDX-License-Identifier: MIT
# Two real boots compared: tests/data/serial-q35-drift.log (q35, once) and
# serial-pc-drift-repeat.log (pc, timeprobe.repeat=2), both with
# timeprobe.probes=tscsync,drift. tscsync's pairs (cpu_a, cpu_b), drift's
# ADEV per reference and tau (ref, tau_s) and the attribution records (per
# probe) must each be one result lined up across the runs, with the pc
# boot's two iterations combined; signed differences get no ratio.
. "$(dirname "$0")/lib.sh"

Q=tests/data/serial-q35-drift.log
P=tests/data/serial-pc-drift-repeat.log

"$TP_REPORT" --format=csv --label=q35,pc $Q $P >"$TMP/csv" 2>"$TMP/err"
pass $? "csv of the two captures"
diag "$TMP/err"

# figures PROBE RESULT FIGURE: "n1 n2" (values in each run), one line per matching figure
figures() {
	python3 - "$TMP/csv" "$@" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
probe, result, figure = sys.argv[2:5]
seen = {}
for r in rows:
    if r["probe"] == probe and re.fullmatch(result, r["result"]) and r["figure"] == figure:
        seen.setdefault((r["result"], r["ident"]), {})[r["label"]] = r["n"]
for (res, ident), n in sorted(seen.items()):
    print(res, "|", n.get("q35", "0"), n.get("pc", "0"))
PY
}

figures tscsync 'offset cpu. cpu.' offset_ns >"$TMP/pairs"
[ "$(cat "$TMP/pairs")" = "offset cpu0 cpu1 | 1 2
offset cpu1 cpu0 | 1 2" ]
pass $? "tscsync: each ordered pair one result in both runs, pc's two iterations combined"
diag "$TMP/pairs"

figures drift 'adev .* tau .*' adev >"$TMP/taus"
[ "$(wc -l <"$TMP/taus")" = 9 ] && ! grep -qv '| 1 2$' "$TMP/taus" &&
	for ref in CLOCK_MONOTONIC_RAW hpet pmtimer; do
		for tau in 0.1s 1s 3.33s; do
			grep -q "^adev $ref tau $tau |" "$TMP/taus" || exit 1
		done
	done
pass $? "drift: ADEV of 3 references at 3 taus, each one result in both runs"
diag "$TMP/taus"

figures attribution '.*' context_switches >"$TMP/attr"
[ "$(cat "$TMP/attr")" = "drift | 1 2
tscsync | 1 2" ]
pass $? "attribution: one result per probe measured around, in both runs"
diag "$TMP/attr"

# the same numbers as the records: pc's pair 0>1 is offset ± bound in each of its two
# iterations (-5505 ± 21225 ns, then 7.8 ± 49.9 ns); together they prove the intersection
python3 - "$TMP/csv" $P <<'PY'
import csv, sys
sys.path.insert(0, "tools")
from tp1rec import records
recs = records(open(sys.argv[2], errors="replace").read())[0]
its = [r for r in recs if r.get("probe") == "tscsync" and r.get("name") == "offset cpu0 cpu1"]
lo = max(r["offset_ns"] - r["bound_ns"] for r in its)
hi = min(r["offset_ns"] + r["bound_ns"] for r in its)
rows = {r["figure"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))
        if r["label"] == "pc" and r["result"] == "offset cpu0 cpu1"}
off, bound = rows["offset_ns"], rows["bound_ns"]
assert len(its) == 2 and lo < hi, its
assert abs(float(off["mean"]) - (lo + hi) / 2) < 1e-6 and abs(float(bound["mean"]) - (hi - lo) / 2) < 1e-6, (off, bound, lo, hi)
assert off["combine"] == bound["combine"] == "intersection", (off, bound)
want = [r["offset_ns"] for r in its]
assert float(off["min"]) == min(want) and float(off["max"]) == max(want), (off, want)
# everything else is a mean, as before
rt = rows["round_trip_ns"]
assert rt["combine"] == "mean" and abs(float(rt["mean"]) - sum(r["round_trip_ns"] for r in its) / 2) < 1e-6, rt
PY
pass $? "pc's pair 0>1: offset and bound the intersection of its two intervals, min and max the iterations'"

run "$TP_REPORT" --label=q35,pc $Q $P
pass $rc "text comparison: exit 0"
sed -n '/^Figures furthest/,/^Runs/p' "$TMP/out" | grep -v '^  (\|^    ' >"$TMP/lead"
! grep -q "offset_ns\|offset_ticks\|freq_ppm\|trend_ppm\|window_ppm" "$TMP/lead" &&
	[ "$(grep -c '^  attribution' "$TMP/lead")" -le 3 ] &&
	! grep '^  attribution' "$TMP/lead" | grep -qv 'while .* ran: .* per s'
pass $? "lead: no signed difference; at most 3 attribution rows, as rates per second"
diag "$TMP/lead"
grep -A1 "^  offset cpu0 cpu1" "$TMP/out" | grep "offset_ns" | grep -q ' -$'
pass $? "full table: a TSC offset has no ratio"
sed -n '/^tscsync/,/^$/p' "$TMP/out" >"$TMP/tscsync"
grep -q "^    offset_ns  *16.97 ns  *7.7696 ns ∩2  *-$" "$TMP/tscsync" &&
	grep -q "^    bound_ns  *50.094 ns  *49.889 ns ∩2  *1.00x$" "$TMP/tscsync" &&
	grep -q "^    round_trip_ns  *240.45 ns  *26.61 µs ±140 %  *111x$" "$TMP/tscsync"
pass $? "full table: offset and bound shown as the intersection of 2, the rest as mean ± spread"
diag "$TMP/tscsync"

# a contradiction: two iterations whose intervals do not meet (the pair's offset moved
# between them, or a bound is wrong); made from pc's records, the second moved by 1 ms
python3 - $P >"$TMP/disjoint.log" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("probe") == "tscsync" and r.get("name") == "offset cpu1 cpu0" and r.get("iteration") == 2:
        r["offset_ns"] += 1e6
    print(record_line(r))
PY
run "$TP_REPORT" --label=q35,moved $Q "$TMP/disjoint.log"
sed -n '/^tscsync/,/^$/p' "$TMP/out" >"$TMP/tscsync"
[ $rc -eq 0 ] && grep -A1 "^  offset cpu1 cpu0" "$TMP/tscsync" | grep -q "^    offset_ns  *-9.4053 ns  *disjoint x2  *-$" &&
	grep -A2 "^  offset cpu1 cpu0" "$TMP/tscsync" | grep -q "^    bound_ns  *49.889 ns  *disjoint x2  *-$" &&
	grep -A1 "^  offset cpu0 cpu1" "$TMP/tscsync" | grep -q "7.7696 ns ∩2"
pass $? "contradicting intervals shown as disjoint, without a value or ratio; the other pair unaffected"
diag "$TMP/tscsync"
"$TP_REPORT" --format=csv --label=q35,moved $Q "$TMP/disjoint.log" | grep ',moved,.*,offset cpu1 cpu0,.*,offset_ns,' >"$TMP/row"
grep -q ',offset_ns,2,,.*,disjoint' "$TMP/row"
pass $? "csv: a contradiction has n 2, no mean, combine disjoint"
diag "$TMP/row"


# one run of two iterations: its pairs once, their spread over the iterations
run "$TP_REPORT" $P
# (the run's own table folds at 120 columns, its name column in each part: its first part)
grep -q "^Spread over 2 iterations" "$TMP/out" &&
	[ "$(sed -n '/^tscsync/,/^$/p' "$TMP/out" | grep -c "offset cpu0 cpu1")" = 1 ] &&
	[ "$(sed -n '/^Spread over/,/^$/p' "$TMP/out" | grep -c "offset cpu0 cpu1")" = 1 ]
pass $? "one repeated run: each pair once in its table, once in the spread"

done_testing
