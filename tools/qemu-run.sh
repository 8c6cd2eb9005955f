#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots a timeprobe disk image in QEMU with OVMF, serial on stdout.
#
#   tools/qemu-run.sh [--machine q35|pc|SPEC] [--cpus N] [--log FILE]
#                     [--timeout S] [--silence S] [--format FMT] [--cdrom]
#                     IMAGE [-- extra qemu args]
#
# The accelerator comes from tools/accel.sh (ACCEL=auto|kvm|tcg): KVM only
# where a guest has been seen to run under it here, TCG otherwise. The choice
# reaches the appliance as an SMBIOS OEM string (type 11)
# "timeprobe.accel=ACCEL:CPU", which PID 1 reads like a command-line word and
# reports in its run record.
#
# tools/qemu_watch.py watches the serial output: a guest that prints nothing
# for --silence S seconds (default 60 under KVM, 180 under TCG; longer while
# a phase it announced runs: common/announce.h), or that QEMU reports as stopped by a KVM
# internal error, is ended with its last lines on stderr (exit 125); a guest
# whose kernel panics is ended at once the same way (exit 122: the stub's
# panic=0 keeps hardware from rebooting into the panic, and a user's panic=N
# reboot would otherwise end QEMU with status 0); --timeout
# S bounds the whole boot (exit 124). Under KVM, a QEMU that fails before
# the firmware's first line makes tools/accel.sh check again (its cached
# verdict may be stale) and the boot is made once more with the new one;
# the exit status is that second boot's.
#
# The appliance powers the machine off at the end, so QEMU exits by itself;
# -no-reboot makes a reboot (or a panic=N reboot) end QEMU too instead of
# looping. The image is used read-write (results are saved on it); --format
# names its format (raw, vmdk, vdi, vhdx, qcow2; default raw); --cdrom attaches
# it as a read-only CD-ROM instead (an ISO from tools/mkiso.sh): on q35's
# AHCI, pc's IDE, or virt's virtio-scsi (AAVMF boots a CD from there).
# OVMF_CODE and OVMF_VARS in the environment choose other firmware files,
# e.g. Debian's Secure Boot "snakeoil" pair (docs/secureboot.md).
# ARCH=arm64 in the environment boots an arm64 image instead:
# qemu-system-aarch64 -M virt with AAVMF (Debian's qemu-efi-aarch64), the
# disk on virtio, always under TCG (tools/accel.sh); --machine is then virt.
set -eu

machine=q35 cpus=2 log= timeout=0 silence= cdrom= format=raw
while [ $# -gt 0 ]; do
	case $1 in
	--machine) machine=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--silence) silence=$2; shift 2 ;;
	--format) format=$2; shift 2 ;;
	--cdrom) cdrom=1; shift ;;
	--) shift; break ;;
	-*) echo "qemu-run: unknown option $1" >&2; exit 2 ;;
	*) img=$1; shift
	   [ "${1:-}" = -- ] && shift
	   break ;;
	esac
done
[ -n "${img:-}" ] || { echo "qemu-run: no image given" >&2; exit 2; }
[ -f "$img" ] || { echo "qemu-run: image not found: '$img'" >&2; exit 2; }
case $format in
raw|vmdk|vdi|vhdx|qcow2) ;;
*) echo "qemu-run: --format '$format' is not raw, vmdk, vdi, vhdx or qcow2" >&2; exit 2 ;;
esac

# The architecture's QEMU, firmware and disk bus.
case ${ARCH:-x86} in
arm64|aarch64)
	qemu=qemu-system-aarch64 fw_pkg=qemu-efi-aarch64 disk_if=virtio
	code=${OVMF_CODE:-/usr/share/AAVMF/AAVMF_CODE.fd}
	vars_src=${OVMF_VARS:-/usr/share/AAVMF/AAVMF_VARS.fd}
	case $machine in q35*|pc*) machine=virt ;; esac ;;
*)
	qemu=qemu-system-x86_64 fw_pkg=ovmf disk_if=ide
	code=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
	vars_src=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd} ;;
esac
[ -f "$code" ] || { echo "qemu-run: $code missing (apt-get install $fw_pkg)" >&2; exit 1; }
vars=$(mktemp /tmp/timeprobe-vars.XXXXXX)
trap 'rm -f "$vars"' EXIT

here=$(cd "$(dirname "$0")" && pwd)
silence_given=$silence
# choose [--recheck]: the accelerator from tools/accel.sh, and the silence
# allowed under it unless --silence said.
choose() {
	choice=$(sh "$here/accel.sh" "$@") || exit 1
	accel=${choice%% *} cpu=${choice#* }
	silence=$silence_given
	[ -n "$silence" ] || { [ "$accel" = kvm ] && silence=60 || silence=180; }
	echo "qemu-run: $accel, -cpu $cpu, $machine, $cpus CPUs" >&2
}
choose

# The image (and firmware) paths as values of QEMU's -drive option, where a
# comma is written twice; each stays one argument whatever it holds.
qemu_value() { printf '%s\n' "$1" | sed 's/,/,,/g'; }
file=$(qemu_value "$img")
if [ -z "$cdrom" ]; then
	set -- -drive "if=$disk_if,format=$format,file=$file" "$@"
else
	cd="if=none,id=cd,format=raw,media=cdrom,readonly=on,file=$file"
	case $machine in
	q35*) set -- -drive "$cd" -device ahci,id=ahci0 -device ide-cd,drive=cd,bus=ahci0.0 "$@" ;;
	virt*) set -- -drive "$cd" -device virtio-scsi-pci,id=scsi0 -device scsi-cd,drive=cd,bus=scsi0.0 "$@" ;;
	*) set -- -drive "$cd" -device ide-cd,drive=cd "$@" ;;
	esac
fi

# launch DISK_AND_EXTRA_ARGS...: QEMU with $accel and $cpu under the watcher
# (with --started "$started" unless it is empty), on a fresh copy of the
# firmware's variables.
launch() {
	cp "$vars_src" "$vars"
	set -- $qemu -machine "$machine,accel=$accel" -cpu "$cpu" -smp "$cpus" -m 512 \
		-nodefaults -nographic -serial stdio -net none -no-reboot \
		-drive "if=pflash,format=raw,readonly=on,file=$(qemu_value "$code")" \
		-drive "if=pflash,format=raw,file=$vars" \
		-smbios "type=11,value=timeprobe.accel=$accel:$(qemu_value "$cpu")" \
		"$@"
	if [ -n "$started" ]; then
		set -- --started "$started" -- "$@"
	else
		set -- -- "$@"
	fi
	if [ -n "$log" ]; then
		python3 "$here/qemu_watch.py" --silence "$silence" --timeout "$timeout" --log "$log" "$@" < /dev/null
	else
		python3 "$here/qemu_watch.py" --silence "$silence" --timeout "$timeout" "$@"
	fi
}

# A KVM choice that fails before the firmware's first line (the line
# accel.sh's check waits for) may be a cached verdict gone stale (a new host
# kernel module, a changed nested set-up): checked again once, and the boot
# made again with the new verdict. The watcher says that with status 123.
started=
[ "$accel" != kvm ] || started=BdsDxe:
status=0
launch "$@" || status=$?
if [ "$status" = 123 ]; then
	echo "qemu-run: QEMU failed under KVM (-cpu $cpu) before the firmware started;" \
		"checking the accelerator again (tools/accel.sh --recheck) and booting once more" >&2
	choose --recheck
	started=
	status=0
	launch "$@" || status=$?
fi
exit "$status"
