#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden tests: tp-report's output on the logs in tests/data compared with
# committed expected files. After a wanted change of output:
#   REPORT_GOLDEN_UPDATE=1 prove tests/report/golden.t   (or make report-golden)
# and review the diff of tests/data/report-*.expected.* before committing.
. "$(dirname "$0")/lib.sh"

D=tests/data

# golden NAME EXPECTED ARGS...
golden() {
	name=$1 want=$2
	shift 2
	run "$TP_REPORT" "$@"
	if [ -n "$REPORT_GOLDEN_UPDATE" ]; then
		cp "$TMP/out" "$want"
	fi
	if [ $rc -ne 0 ]; then
		pass 1 "$name: exit status $rc"
		diag "$TMP/err"
		return
	fi
	diff -u "$want" "$TMP/out" >"$TMP/diff" 2>&1
	pass $? "$name: matches $want"
	[ -s "$TMP/diff" ] && diag "$TMP/diff"
}

golden "one run, damaged serial capture" $D/report-qemu.expected.txt $D/report-qemu.log
# the damage in report-qemu.log is on purpose (tests/report/mkdata.py): say how much was lost
grep -qx "report: $D/report-qemu.log: 2 corrupt records skipped (1 bad CRC, 1 cut short)" "$TMP/err"
pass $? "corrupt records counted and skipped"
diag "$TMP/err"
grep -q "records written 38, read 36" "$TMP/out"
pass $? "end summary shows the two records lost"
grep -q "gettimeofday()" "$TMP/out" && grep -q "^  gettimeofday()  path=vdso clocksource=tsc " "$TMP/out"
pass $? "record split by a kernel message was put back together"

golden "comparison of three files, text" $D/report-compare.expected.txt \
	$D/report-qemu.log $D/report-host.log $D/report-kvm.log
golden "comparison of three files, markdown" $D/report-compare.expected.md \
	--format=markdown --label=qemu,host,kvm $D/report-qemu.log $D/report-host.log $D/report-kvm.log
golden "two boots in one file" $D/report-two-boots.expected.txt $D/report-two-boots.log

# real captures with fingerprints: q35, and pc without an HPET
golden "a comparison opens with what differs" $D/report-fingerprint.expected.txt \
	--label=q35,pc-hpet-off $D/serial-q35-fingerprint.log $D/serial-pc-hpet-off-fingerprint.log
awk '/^What differs/ { d = NR } /^Figures furthest/ { t = NR } /^Runs/ { r = NR }
	END { exit !(d && t && r && d < t && t < r) }' "$TMP/out"
pass $? "what differs, then the furthest figures, then the tables"
sed -n '/^What differs/,/^$/p' "$TMP/out" >"$TMP/diffs"
grep -q "^  clocksource  *hpet  *acpi_pm$" "$TMP/diffs" && grep -q "^  stub_tsc_ref  *hpet  *pmtimer$" "$TMP/diffs"
pass $? "the clocksource and the stub's reference differ"
! grep -q "cpu_vendor\|kernel_release\|enters_kernel\|stub_tsc_hz" "$TMP/diffs"
pass $? "fields that agree, and per-boot measurements, are not listed"
diag "$TMP/diffs"

done_testing
