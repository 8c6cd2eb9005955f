#!/bin/sh
# SPDX-License-Identifier: MIT
# tp-report's command line: usage errors, missing and empty files, exit status,
# and that two runs make a comparison with both of them in it.
. "$(dirname "$0")/lib.sh"

D=tests/data

run "$TP_REPORT" --frobnicate $D/report-host.log
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "unknown option '--frobnicate'" "$TMP/err"
pass $? "unknown option: one line, exit 2"

run "$TP_REPORT" --format=xml $D/report-host.log
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]
pass $? "bad --format value: one line, exit 2"

run "$TP_REPORT"
[ $rc -eq 2 ]
pass $? "no file: exit 2"

run "$TP_REPORT" --help
[ $rc -eq 0 ] && grep -q -- "--format" "$TMP/out"
pass $? "--help on stdout, exit 0"

run "$TP_REPORT" $D/no-such-file.log $D/report-host.log
[ $rc -ne 0 ] && grep -q "no-such-file.log: No such file" "$TMP/err" && grep -q "Run 1 of $D/report-host.log" "$TMP/out"
pass $? "missing file named, the other still reported, exit non-zero"

run "$TP_REPORT" $D/report-empty.log
[ $rc -eq 1 ] && grep -q "report-empty.log: no TP1 records" "$TMP/err"
pass $? "a file without records alone: clear message, exit 1"

run "$TP_REPORT" $D/report-empty.log $D/report-host.log
[ $rc -eq 0 ] && grep -q "report-empty.log: no TP1 records" "$TMP/err" && grep -q "Run 1 of" "$TMP/out"
pass $? "a file without records among others: message, exit 0"

run "$TP_REPORT" $D/report-qemu.log $D/report-host.log
[ $rc -eq 0 ] && grep -q "^Comparison" "$TMP/out" && grep -q "appliance/QEMU Standard PC" "$TMP/out" &&
	grep -q "os/LENOVO 20XW0055GE" "$TMP/out" && grep -q "ratio" "$TMP/out"
pass $? "two files: a comparison naming both runs"

# a figure both runs have: a value in each column and a ratio
line=$(grep -A1 "^  clock_gettime(CLOCK_MONOTONIC)  path=vdso clocksource=tsc" "$TMP/out" | tail -1)
echo "$line" | grep -Eq "^ +ns_per_call +[0-9.]+ ns +[0-9.]+ ns +[0-9.]+x$"
pass $? "shared figure: both values and a ratio"
echo "# $line"
line=$(grep -A1 "^  clock_gettime(CLOCK_MONOTONIC)  path=syscall clocksource=hpet" "$TMP/out" | tail -1)
echo "$line" | grep -Eq "^ +ns_per_call +[0-9.]+ [nµ]s +- +-$"
pass $? "figure missing in the second run shown as -"
echo "# $line"

run "$TP_REPORT" --label=one,two $D/report-qemu.log $D/report-host.log
grep -q "^  one  " "$TMP/out" && grep -q "^  two  " "$TMP/out" && grep -q "ratio = run / one" "$TMP/out"
pass $? "--label names the columns"

run "$TP_REPORT" $D/report-two-boots.log
grep -q "report-two-boots.log#1" "$TMP/out" && grep -q "report-two-boots.log#2" "$TMP/out" &&
	grep -q "no end record" "$TMP/out"
pass $? "two boots in one file are two runs; the crashed one has no end"

run "$TP_REPORT" $D/report-kvm.log
grep -q "^Spread over 3 iterations" "$TMP/out"
pass $? "repeat runs: spread over iterations"

run "$TP_REPORT" - <$D/report-host.log
[ $rc -eq 0 ] && grep -q "Run 1 of -" "$TMP/out"
pass $? "- reads standard input"

# A probe without a layout: the figures its registry row promises lead the columns.
if [ -x build/timeprobe ]; then
	build/timeprobe run --probes=vdso-check --profile=quick >"$TMP/vdso.log" 2>/dev/null
	run "$TP_REPORT" "$TMP/vdso.log"
	grep -A1 '^vdso-check' "$TMP/out" | tail -1 | grep -Eq '^ *name +kernel_entries +path +clock_id'
	pass $? "a new probe's promised figures (run record) are its first columns after the name"
fi

done_testing
