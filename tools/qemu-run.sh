#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots a timeprobe disk image in QEMU with OVMF, serial on stdout.
#
#   tools/qemu-run.sh [--machine q35|pc|SPEC] [--cpus N] [--log FILE]
#                     [--timeout S] [--cdrom] IMAGE [-- extra qemu args]
#
# KVM when /dev/kvm works, TCG otherwise. The appliance powers the machine
# off at the end, so QEMU exits by itself; -no-reboot makes a reboot (or a
# panic=N reboot) end QEMU too instead of looping. The image is used
# read-write (results are saved on it); --cdrom attaches it as a read-only
# CD-ROM instead (an ISO from tools/mkiso.sh).
# OVMF_CODE and OVMF_VARS in the environment choose other firmware files,
# e.g. Debian's Secure Boot "snakeoil" pair (docs/secureboot.md).
set -eu

machine=q35 cpus=2 log= timeout= cdrom=
while [ $# -gt 0 ]; do
	case $1 in
	--machine) machine=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--cdrom) cdrom=1; shift ;;
	--) shift; break ;;
	-*) echo "qemu-run: unknown option $1" >&2; exit 2 ;;
	*) img=$1; shift
	   [ "${1:-}" = -- ] && shift
	   break ;;
	esac
done
[ -n "${img:-}" ] && [ -f "$img" ] || { echo "qemu-run: no image given or not found: ${img:-}" >&2; exit 2; }

code=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
vars_src=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
[ -f "$code" ] || { echo "qemu-run: $code missing (apt-get install ovmf)" >&2; exit 1; }
vars=$(mktemp /tmp/timeprobe-vars.XXXXXX)
trap 'rm -f "$vars"' EXIT
cp "$vars_src" "$vars"

accel=tcg cpu=max
case ${ACCEL:-auto} in
tcg) ;;
kvm) accel=kvm cpu=host ;;
*) if [ -w /dev/kvm ] && [ -r /dev/kvm ]; then accel=kvm cpu=host; fi ;;
esac

if [ -n "$cdrom" ]; then
	disk="-drive if=none,id=cd,format=raw,media=cdrom,readonly=on,file=$img -device ide-cd,drive=cd"
	case $machine in q35*) disk="-drive if=none,id=cd,format=raw,media=cdrom,readonly=on,file=$img -device ahci,id=ahci0 -device ide-cd,drive=cd,bus=ahci0.0" ;; esac
else
	disk="-drive if=ide,format=raw,file=$img"
fi

set -- qemu-system-x86_64 -machine "$machine,accel=$accel" -cpu $cpu -smp "$cpus" -m 512 \
	-nodefaults -nographic -serial stdio -net none -no-reboot \
	-drive if=pflash,format=raw,readonly=on,file=$code \
	-drive if=pflash,format=raw,file="$vars" \
	$disk "$@"

[ -n "$timeout" ] && set -- timeout --foreground -k 5 "$timeout" "$@"
if [ -n "$log" ]; then
	"$@" < /dev/null > "$log" 2>&1
else
	"$@"
fi
