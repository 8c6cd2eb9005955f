#!/bin/sh
# SPDX-License-Identifier: MIT
# A real arm64 appliance capture (QEMU virt, AAVMF, TCG, quick profile;
# tests/boot/25-arm64.t's run): the report reads it whole, shows the stub's
# counter calibration, the counter probe's scan, the counter offsets between
# CPUs and the pre-OS scan by Linux CPU, and lines it up against
# an x86 capture on the figures both have.
. "$(dirname "$0")/lib.sh"

ARM=tests/data/serial-arm64-virt-quick.log
run "$TP_REPORT" "$ARM"
pass $rc "the arm64 capture: report exits 0"
diag "$TMP/err"
# calib rows fold at 120 columns: each row with its continuation lines, as one line
awk '/^  [a-z]/ { if (row) print row; row = $0; next } /^  +/ { sub(/^ +/, " "); row = row $0; next }
	{ if (row) print row; row = ""; print } END { if (row) print row }' "$TMP/out" >"$TMP/rows"
grep -q "calib  *source=stub ref=rtc .*why=not known: the RTC is a device of its own" "$TMP/rows" &&
	! grep -q "calib  *source=stub ref=rtc .*independent=true" "$TMP/rows"
pass $? "the stub's RTC reference is shown, its independence not known, with why"
grep -q "calib  *source=stub ref=stall .*independent=false why_not_independent=UEFI Stall" "$TMP/rows"
pass $? "the stub's Stall reference is shown, marked not independent, with why"
grep -q "^counter" "$TMP/out"
pass $? "the counter probe has its section"
grep -q "^  offset cpu0 cpu1  when=pre-os cpu_a=0 cpu_b=1" "$TMP/out" &&
	grep -q "^  offset cpu1 cpu0  when=post-boot" "$TMP/out"
pass $? "tscsync: the counter's offsets after boot and the stub's pre-OS pair, on Linux CPUs"
awk '/^hwlat/ { s = 1; next } /^[a-z]/ { s = 0 } s && /^  cpu1 / { found = 1 } END { exit !found }' "$TMP/out"
pass $? "hwlat: the stub's pre-OS scan of the second CPU, on its Linux CPU"

run "$TP_REPORT" --label=x86,arm64 tests/data/serial-q35-fingerprint.log "$ARM"
pass $rc "x86 against arm64: report exits 0"
diag "$TMP/err"
grep -q "arm64" "$TMP/out" && grep -q "^clocks" "$TMP/out"
pass $? "the comparison names both runs and shows the figures both have (clocks)"
done_testing
