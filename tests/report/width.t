#!/bin/sh
# SPDX-License-Identifier: MIT
# One log's report is the run's tables, read at 120 columns: the name column
# first, what does not fit folded into further tables, a legend under each
# from the probes' key declarations; Markdown within 65 536 characters
# unless --full. On the committed captures.
. "$(dirname "$0")/lib.sh"

# longest_line FILE: its longest line in characters (UTF-8), not bytes
longest_line() {
	python3 -c 'import sys; print(max([len(l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n")] + [0]))' "$1"
}

D=$(sh tests/lib/testdata.sh) || exit 1	# tests/data, its sets of runs extracted
for log in $D/aa-host-1-a.log tests/data/serial-pc-quick.log tests/data/serial-q35-drift.log \
	tests/data/serial-q35-fingerprint.log tests/data/report-qemu.log; do
	run "$TP_REPORT" "$log"
	w=$(longest_line "$TMP/out")
	[ $rc -eq 0 ] && [ "$w" -le 120 ]
	pass $? "$log: every line at most 120 columns (longest $w)"
	# every probe table's header: "  name  ..." right under the probe's heading
	awk 'prev ~ /^[a-z][a-z-]*$/ && $0 !~ /^  name  / { bad = 1; print "# " prev ": " $0 }
		{ prev = $0 } END { exit bad }' "$TMP/out"
	pass $? "$log: each probe's table starts with the name column"
done

run "$TP_REPORT" tests/data/report-qemu.log
grep -q "^  = per call: cost of one read: median of the batch means; ticks/call: cost of one read in TSC ticks" "$TMP/out"
pass $? "a legend under the clocks table, from the probe's key declaration"
grep -q "^  gettimeofday()  path=syscall clocksource=acpi_pm  *5.8803 µs  *17611.5  *1 ns  *5.88 µs" "$TMP/out"
pass $? "durations scaled: 5880.3 ns is 5.88 µs, 1 ns stays ns"

run "$TP_REPORT" $D/aa-host-1-a.log
short=$(wc -l <"$TMP/out")
run "$TP_REPORT" --full $D/aa-host-1-a.log
[ "$(wc -l <"$TMP/out")" -gt "$short" ] && grep -q "^  name  .*calls_per_batch" "$TMP/out"
pass $? "--full adds the budget and context columns (calls_per_batch)"

# a comparison whose Markdown is 119 568 characters in full
PAIR="$D/aa-host-1-a.log tests/data/serial-pc-quick.log"
for opt in "" --tables; do
	# shellcheck disable=SC2086
	run "$TP_REPORT" --format=markdown $opt $PAIR
	chars=$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$TMP/out")
	[ "$chars" -le 65536 ] && grep -q "^<details><summary>[0-9]* rows; the first [0-9]* here" "$TMP/out" &&
		grep -q "^### What differs between these machines" "$TMP/out"
	pass $? "markdown ${opt:-without --tables}: $chars characters, at most 65 536, long tables in <details>"
done
# shellcheck disable=SC2086
run "$TP_REPORT" --format=markdown --full $PAIR
chars=$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$TMP/out")
[ "$chars" -gt 65536 ] && ! grep -q "<details>" "$TMP/out"
pass $? "markdown --full: every row ($chars characters), nothing folded"
done_testing
