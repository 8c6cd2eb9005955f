#!/bin/sh
# SPDX-License-Identifier: MIT
# Real serial captures from the appliance (tests/data/serial-*.log), when
# there are any: each must give a report and valid JSON.
. "$(dirname "$0")/lib.sh"

found=0
for log in tests/data/serial-*.log; do
	[ -e "$log" ] || continue
	found=1
	run "$TP_REPORT" "$log"
	[ $rc -eq 0 ] && grep -Eq "^(Run 1 of|Comparison)" "$TMP/out"
	pass $? "$log: report"
	diag "$TMP/err"
	run "$TP_REPORT" --format=json "$log"
	[ $rc -eq 0 ] && python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/out"
	pass $? "$log: json"
done
if [ $found -eq 0 ]; then
	echo "1..0 # SKIP no tests/data/serial-*.log yet"
	exit 0
fi

done_testing
