#!/bin/sh
# SPDX-License-Identifier: MIT
# Captures as terminal programs save them, made from the real capture
# serial-q35-faults.log (86 records): every line end a lone CR, and 35 pairs
# of records on one line (with and without blanks between). Each must be
# read completely. Also the damage the scanner names, one kind each.
. "$(dirname "$0")/lib.sh"

D=tests/data

# records FILE: "records corrupt" of the one file, from --format=json
records() {
	"$TP_REPORT" --format=json "$1" 2>"$TMP/err" | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
print(f["records"], f["bad_crc"] + f["cut"] + f["unparsable"] + f["damaged_tag"])'
}

for log in $D/capture-cr-only.log $D/capture-two-per-line.log; do
	got=$(records "$log")
	[ "$got" = "86 0" ]
	pass $? "$log: all 86 records read, none damaged (got: $got)"
done

good=$(tp1 '{"type":"result","probe":"p","name":"n","x_ns":1}')
end=$(tp1 '{"type":"end"}')
{
	echo "$good"
	echo "${end% *}" "*$(echo "${end##* \*}" | tr 'a-f' 'A-F')"	# upper-case CRC: bad CRC
	echo "$good" | sed 's/"name":"n"/"name":"m"/'	# a byte changed: bad CRC
	echo "$good" | cut -c1-30			# cut short
	echo "TP! ${good#TP1 }"				# damaged tag
	tp1 '{"no":"type"}'				# not a JSON object with a type
} >"$TMP/damage.log"
run "$TP_REPORT" "$TMP/damage.log"
grep -qx "report: $TMP/damage.log: 5 corrupt records skipped (2 bad CRC, 1 cut short, 1 not a JSON object, 1 damaged tag)" "$TMP/err"
pass $? "each kind of damage counted in its own category"
diag "$TMP/err"

# strings with controls, quotes and commas: shown written out, kept exact in CSV and JSON
name='a,\"b\"\n\u001b[2J\t|c'
tp1 "{\"type\":\"result\",\"probe\":\"p\",\"name\":\"$name\",\"x_ns\":1}" >"$TMP/ctl.log"
run "$TP_REPORT" "$TMP/ctl.log"
! tr -d '\n' <"$TMP/out" | grep -q "$(printf '[\001-\037]')" && grep -q 'a,"b"\\n\\x1b\[2J\\t|c' "$TMP/out"
pass $? "text: control characters of a record's string written out"
for fmt in csv json; do
	"$TP_REPORT" --format=$fmt "$TMP/ctl.log" >"$TMP/$fmt" 2>/dev/null
done
python3 - "$TMP/csv" "$TMP/json" <<'PY'
import csv, json, sys
want = 'a,"b"\n\x1b[2J\t|c'
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[1][4] == want, rows[1][4]
assert json.load(open(sys.argv[2]))["figures"][0]["result"] == want
PY
pass $? "csv and json: the same string, exactly"

# an end record without its counts: reported in every format, no crash (it was a segfault)
tp1 '{"type":"end"}' >"$TMP/end.log"
for fmt in text markdown csv json; do
	run "$TP_REPORT" --format=$fmt --tables "$TMP/end.log"
	[ $rc -eq 0 ]
	pass $? "end record without counts, --format=$fmt: exit 0"
done
run "$TP_REPORT" "$TMP/end.log"
grep -q "probes ok -, skipped -, failed -" "$TMP/out"
pass $? "end record without counts: its counts shown as -"

done_testing
