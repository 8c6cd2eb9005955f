#!/bin/sh
# SPDX-License-Identifier: MIT
# Every phony target under ARCH=arm64, as make -n runs it (dry: the
# stand-ins and strace of tests/lib/makedry.sh see nothing but make): a
# target that cannot serve an arm64 build stops at once with one line
# naming it, saying why and what to use instead (the Makefile's ARM64_NOT
# table; docs/arm64.md), and every other target names build/arm64 paths and
# no x86 ones (build/boot, BOOTX64.EFI, tools/cmdline.txt, 'q35',
# qemu-system-x86_64), whatever is built already (make -n -B prints every
# recipe). A new phony target must be put in one list or the other here.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

. tests/lib/makedry.sh
makedry_setup

# target: what its refusal must say (besides "make TARGET: not for ARCH=arm64:")
refused="test:run_it_without_ARCH=arm64 test-all:run_it_without_ARCH=arm64 deps-test:run_it_without_ARCH=arm64
test-boot:run_it_without_ARCH=arm64 test-host:run_it_without_ARCH=arm64
test-image-arm64:run_it_without_ARCH=arm64
test-unit:run_make_test-unit boot-tests:run_make_test-unit test-lava:run_make_test-lava
compare:run_it_without_ARCH=arm64 bench:run_it_without_ARCH=arm64
readme-options:run_it_without_ARCH=arm64 noise-floor:run_it_without_ARCH=arm64
vm:build/arm64/timeprobe.img_as_a_raw_disk
install:run_it_without_ARCH=arm64 uninstall:run_it_without_ARCH=arm64
man:run_it_without_ARCH=arm64 completion:run_it_without_ARCH=arm64 deb:run_it_without_ARCH=arm64"
# target: a build/arm64 word its dry run must print ("-": nothing to name,
# e.g. deps); the variables each one needs are given to all
works="all:build/arm64/timeprobe.img image:build/arm64/timeprobe.img
image-arm64:build/arm64/timeprobe.img userland:build/arm64/timeprobe
kernel:build/arm64/kernel/bzImage initramfs:build/arm64/initramfs.img
boot:build/arm64/boot/BOOTAA64.EFI efi:build/arm64/boot/stub.so_build/arm64/boot/BOOTAA64.EFI
run:'build/arm64/timeprobe.img'_'virt'
iso:build/arm64/timeprobe.iso_build/arm64/boot/BOOTAA64.EFI
run-iso:'build/arm64/timeprobe.iso'_'virt'
usb:build/arm64/tp-usbwrite__build/arm64/timeprobe.img results:tools/results.py
matrix:--out_'build/arm64/matrix'
sign:build/arm64/boot/BOOTAA64.signed.efi
sign-image:build/arm64/timeprobe.signed.img_build/arm64/boot/BOOTAA64.signed.efi
sign-iso:build/arm64/timeprobe.signed.iso_build/arm64/boot/BOOTAA64.signed.efi
sign-check-args:- clean:rm_-rf_build/arm64 deps:- usbwrite:build/arm64/tp-usbwrite
report:build/arm64/tp-report report-check:build/arm64/tp-report
report-golden:- report-schema-doc:build/arm64/tp-report
bench-report:build/arm64/tp-report fuzz:build/arm64/fuzz-report
fuzz-report:build/arm64/fuzz-report fuzz-report-quick:build/arm64/fuzz-report
fuzz-report-long:build/arm64/fuzz-report noise-floor-table:build/arm64/report/tools/report/gen/floors"
vars="KEY=db.key CERT=db.crt IMG=stick.img DEV=/dev/sdz"

# The phony targets as make reads them with ARCH=arm64 (no goal: nothing refused).
targets=$(dry ARCH=arm64 -pq 2>/dev/null | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | sed '/^$/d' | sort -u)
ok "make -pq ARCH=arm64 lists the phony targets" test -n "$targets"
for t in $targets; do
	case " $(echo $refused $works) " in
	*" $t:"*) ;;
	*) tap_result 0 "$t is in this test's refused or works list" ;;
	esac
done

for entry in $refused; do
	t=${entry%%:*} want=$(printf '%s' "${entry#*:}" | tr _ ' ')
	out=$(dry ARCH=arm64 $vars "$t" 2>&1)
	rc=$?
	tap_result "$([ $rc -ne 0 ] && echo 1)" "make -n ARCH=arm64 $t stops (exit $rc)" "$out"
	line=$(printf '%s\n' "$out" | grep -F "make $t: not for ARCH=arm64: ")
	tap_result "$([ -n "$line" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && echo 1)" \
		"make $t: one line saying it is not for ARCH=arm64" "$out"
	case $line in
	*"$want"*) tap_result 1 "make $t: the line says what to use: $want" ;;
	*) tap_result 0 "make $t: the line says what to use: $want" "$out" ;;
	esac
	dry_checks "make -n ARCH=arm64 $t"
done

for entry in $works; do
	t=${entry%%:*} want=$(printf '%s' "${entry#*:}" | tr _ ' ')
	out=$(dry -B ARCH=arm64 $vars "$t" 2>&1)
	rc=$?
	pass $rc "make -n ARCH=arm64 $t succeeds"
	[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -3 | sed 's/^/#   /'
	if [ "$want" != - ]; then
		case $out in
		*"$want"*) tap_result 1 "make $t: names $want" ;;
		*) tap_result 0 "make $t: names $want" "$out" ;;
		esac
	fi
	x86=$(printf '%s\n' "$out" | grep -E "(^|[ '\"=(])build/(boot|kernel|musl|timeprobe|initramfs|tp-)|BOOTX64|tools/cmdline\.txt|'q35'|qemu-system-x86_64")
	tap_result "$([ -z "$x86" ] && echo 1)" "make $t: names nothing of the x86 build" "$x86"
	dry_checks "make -n ARCH=arm64 $t"
done
done_testing
