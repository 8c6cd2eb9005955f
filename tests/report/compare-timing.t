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

# the same numbers as the records: pc's pair 0>1 offset is the mean of its two iterations
python3 - "$TMP/csv" $P <<'PY'
import csv, json, sys
recs = [json.loads(l.split(" ", 1)[1].rsplit(" *", 1)[0]) for l in open(sys.argv[2], errors="replace")
        if l.startswith("TP1 ")]
want = [r["offset_ns"] for r in recs if r.get("probe") == "tscsync" and r.get("name") == "offset cpu0 cpu1"]
row = [r for r in csv.DictReader(open(sys.argv[1], newline=""))
       if r["label"] == "pc" and r["result"] == "offset cpu0 cpu1" and r["figure"] == "offset_ns"][0]
assert len(want) == 2 and abs(float(row["mean"]) - sum(want) / 2) < 1e-6, (row, want)
assert float(row["min"]) == min(want) and float(row["max"]) == max(want), (row, want)
PY
pass $? "pc's pair 0>1: mean, min and max over its two iterations"

run "$TP_REPORT" --label=q35,pc $Q $P
pass $rc "text comparison: exit 0"
sed -n '/^Figures furthest/,/^Runs/p' "$TMP/out" >"$TMP/lead"
! grep -q "offset_ns\|offset_ticks\|freq_ppm\|trend_ppm\|window_ppm" "$TMP/lead" &&
	[ "$(grep -c '^  attribution' "$TMP/lead")" -le 3 ] &&
	! grep '^  attribution' "$TMP/lead" | grep -qv 'while .* ran: .* per s'
pass $? "lead: no signed difference; at most 3 attribution rows, as rates per second"
diag "$TMP/lead"
grep -A1 "^  offset cpu0 cpu1" "$TMP/out" | grep "offset_ns" | grep -q ' -$'
pass $? "full table: a TSC offset has no ratio"

# one run of two iterations: its pairs once, their spread over the iterations
run "$TP_REPORT" $P
grep -q "^Spread over 2 iterations" "$TMP/out" && [ "$(grep -c "offset cpu0 cpu1" "$TMP/out")" = 2 ]
pass $? "one repeated run: each pair once in its table, once in the spread"

done_testing
