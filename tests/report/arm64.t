#!/bin/sh
# SPDX-License-Identifier: MIT
# A real arm64 appliance capture (QEMU virt, AAVMF, TCG, quick profile;
# tests/boot/25-arm64.t's run): the report reads it whole, shows the stub's
# counter calibration and the counter probe's scan, and lines it up against
# an x86 capture on the figures both have.
. "$(dirname "$0")/lib.sh"

ARM=tests/data/serial-arm64-virt-quick.log
run "$TP_REPORT" "$ARM"
pass $rc "the arm64 capture: report exits 0"
diag "$TMP/err"
grep -q "calib  *source=stub ref=rtc .*independent=true" "$TMP/out"
pass $? "the stub's RTC reference is shown, marked independent"
grep -q "calib  *source=stub ref=stall .*independent=false" "$TMP/out"
pass $? "the stub's Stall reference is shown, marked not independent"
grep -q "^counter" "$TMP/out"
pass $? "the counter probe has its section"

run "$TP_REPORT" --label=x86,arm64 tests/data/serial-q35-fingerprint.log "$ARM"
pass $rc "x86 against arm64: report exits 0"
diag "$TMP/err"
grep -q "arm64" "$TMP/out" && grep -q "^clocks" "$TMP/out"
pass $? "the comparison names both runs and shows the figures both have (clocks)"
done_testing
