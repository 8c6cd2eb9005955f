#!/bin/sh
# SPDX-License-Identifier: MIT
# A figure measured against a reference derived from what it measures (its
# result's "independent": false, probe drift's CLOCK_MONOTONIC_RAW under
# clocksource tsc) never leads a comparison (tools/report/lead.c). Two
# copies of a drift capture whose CLOCK_MONOTONIC_RAW figures differ 10x:
# marked circular, none of them leads; marked independent, they do (the
# check can fail). The report names the circular results under the lead.
. "$(dirname "$0")/lib.sh"

D=tests/data/serial-q35-drift.log

# copy INDEPENDENT FACTOR: the capture, its CLOCK_MONOTONIC_RAW results marked
# independent (true/false) and their adev and bracket widths times FACTOR
copy() {
	python3 - "$D" "$1" "$2" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
ind, f = sys.argv[2] == "true", float(sys.argv[3])
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("probe") == "drift" and r.get("ref") == "CLOCK_MONOTONIC_RAW" and r["type"] == "result":
        r["reference"], r["independent"] = "CLOCK_MONOTONIC_RAW", ind
        r["why"] = "circular: CLOCK_MONOTONIC_RAW is derived from the TSC on this machine"
        for k in ("adev", "bracket_median_ns", "bracket_max_ns"):
            if k in r:
                r[k] *= f
    print(record_line(r))
PY
}

copy false 1 >"$TMP/a.log"
copy false 10 >"$TMP/b.log"
printf 'appliance/tcg\tdrift\tany\tadev\t0\t0\t1\t1\n' >"$TMP/floors0.tsv"
lead --floors="$TMP/floors0.tsv" --label=a,b "$TMP/a.log" "$TMP/b.log"
[ $rc -eq 0 ] && ! grep -v "^  not leading, circular: \|^  (circular: " "$TMP/lead" | grep -q "CLOCK_MONOTONIC_RAW"
pass $? "circular CLOCK_MONOTONIC_RAW figures 10x apart: none leads"
diag "$TMP/lead"
grep -q "^  not leading, circular: drift: drift vs CLOCK_MONOTONIC_RAW, drift: adev CLOCK_MONOTONIC_RAW tau 0.1s" "$TMP/out" &&
	grep -q "^  (circular: CLOCK_MONOTONIC_RAW is derived from the TSC on this machine)" "$TMP/out"
pass $? "and the report says which results are circular, and why"

# (single runs without intervals: a floor of 1 for drift under TCG, tp-report --floors,
# so that only independence decides)
printf 'appliance/tcg\tdrift\tany\tadev\t0\t0\t1\t1\n' >"$TMP/floors.tsv"
copy true 1 >"$TMP/a.log"
copy true 10 >"$TMP/b.log"
lead --floors="$TMP/floors.tsv" --label=a,b "$TMP/a.log" "$TMP/b.log"
[ $rc -eq 0 ] && grep -q "adev CLOCK_MONOTONIC_RAW" "$TMP/lead" && ! grep -q "circular" "$TMP/out"
pass $? "the same figures marked independent: they lead, nothing is called circular"
diag "$TMP/lead"

done_testing
