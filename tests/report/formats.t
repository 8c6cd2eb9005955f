#!/bin/sh
# SPDX-License-Identifier: MIT
# Every --format parses as what it claims to be.
. "$(dirname "$0")/lib.sh"

LOGS="tests/data/report-qemu.log tests/data/report-host.log tests/data/report-kvm.log"

# json_ok FILE: parses with jq, else python3
json_ok() {
	if command -v jq >/dev/null; then
		jq -e . "$1" >/dev/null
	else
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
	fi
}

for set in single compare; do
	[ $set = single ] && files=tests/data/report-qemu.log || files=$LOGS

	# shellcheck disable=SC2086
	run "$TP_REPORT" --format=json $files
	[ $rc -eq 0 ] && json_ok "$TMP/out"
	pass $? "$set: json parses"
	if command -v jq >/dev/null; then
		runs=$(jq '.runs | length' "$TMP/out")
		figs=$(jq '.figures | length' "$TMP/out")
		bad=$(jq --argjson r "$runs" '[.figures[].runs | length | select(. != $r)] | length' "$TMP/out")
		rows=$(jq '.comparison.rows | length' "$TMP/out")
		[ "$figs" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$rows" -eq "$figs" ]
		pass $? "$set: json has runs ($runs), figures ($figs) with one entry per run, comparison rows"
	fi

	# shellcheck disable=SC2086
	run "$TP_REPORT" --format=csv $files
	python3 - "$TMP/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
widths = {len(r) for r in rows}
assert len(rows) > 1 and widths == {18}, widths
assert rows[0][:3] == ["run", "label", "file"]
PY
	pass $? "$set: csv has 18 columns on every row"

	# shellcheck disable=SC2086
	run "$TP_REPORT" --format=markdown $files
	# every table: header, delimiter row, rows, all with the same number of cells
	awk '
		/^\|/ { n = gsub(/[^\\]\|/, "&"); if (!intable) { cols = n; intable = 1 } else if (n != cols) bad++; next }
		{ intable = 0 }
		END { exit bad ? 1 : 0 }
	' "$TMP/out" && grep -q '^| --- |' "$TMP/out"
	pass $? "$set: markdown tables are regular"
done

done_testing
