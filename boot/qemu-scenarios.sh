#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots the stub in QEMU/OVMF (accelerator from tools/accel.sh) in the situations docs/stub.md lists and
# keeps each serial log. A developer's tool, not a test: it prints what each
# boot showed; read the logs in OUTDIR.
#
#   boot/qemu-scenarios.sh EFI BZIMAGE INITRAMFS OUTDIR [scenario...]
#
# Scenarios: q35 hpetoff pc nocmdline custom long nokernel badkernel noinitrd
set -eu

efi=$1 kernel=$2 initrd=$3 out=$4
shift 4
[ $# -gt 0 ] || set -- q35 hpetoff pc nocmdline custom long nokernel badkernel noinitrd
code=/usr/share/OVMF/OVMF_CODE_4M.fd
vars=/usr/share/OVMF/OVMF_VARS_4M.fd
mkdir -p "$out"
choice=$(sh "$(dirname "$0")/../tools/accel.sh")

# mkesp IMG KERNEL INITRD CMDLINE: a GPT disk with one ESP; "" leaves a file out
mkesp() {
	rm -f "$1" "$1.part"
	truncate -s 64M "$1"
	sgdisk -o -n 1:2048:+60M -t 1:ef00 -u 1:4e2c1a7b-3f5d-4c6e-9a8b-0123456789ab "$1" >/dev/null
	mkfs.vfat -C -F 32 -n ESP "$1.part" 61440 >/dev/null
	mmd -i "$1.part" ::/EFI ::/EFI/BOOT ::/EFI/timeprobe
	mcopy -i "$1.part" "$efi" ::/EFI/BOOT/BOOTX64.EFI
	[ -z "$2" ] || mcopy -i "$1.part" "$2" ::/EFI/timeprobe/vmlinuz
	[ -z "$3" ] || mcopy -i "$1.part" "$3" ::/EFI/timeprobe/initramfs.img
	[ -z "$4" ] || mcopy -i "$1.part" "$4" ::/EFI/timeprobe/cmdline.txt
	dd if="$1.part" of="$1" bs=512 seek=2048 conv=notrunc status=none
	rm -f "$1.part"
}

# boot IMG LOG MACHINE: until the kernel shows its command line or the stub
# gives up, 120 s at most
boot() {
	cp "$vars" "$1.vars"
	qemu-system-x86_64 -machine "$3,accel=${choice%% *}" -cpu "${choice#* }" -m 512 -nodefaults -nographic -serial stdio -net none \
		-drive if=pflash,format=raw,readonly=on,file="$code" \
		-drive if=pflash,format=raw,file="$1.vars" \
		-drive file="$1",format=raw,if=none,id=d0 -device virtio-blk-pci,drive=d0 \
		</dev/null >"$2" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 120 ] && kill -0 $pid 2>/dev/null; do
		sleep 1
		i=$((i + 1))
		if grep -aq "Kernel command line\|returning to the firmware" "$2"; then
			sleep 1
			break
		fi
	done
	kill $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	rm -f "$1.vars"
}

printf 'console=ttyS0,115200 console=tty0 initrd=\\EFI\\timeprobe\\initramfs.img\n' >"$out/cmdline.txt"
printf '\357\273\277# test\r\n  # indented comment\r\nconsole=ttyS0,115200\r\n\tinitrd=\\EFI\\timeprobe\\initramfs.img   panic=5\r\ntimeprobe.calib_rounds=7 timeprobe.calib_ms=20 timeprobe.tsc_early=off\r\n' >"$out/custom.txt"
{
	printf 'console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img\n'
	i=1
	while [ $i -le 200 ]; do printf 'timeprobe.pad%03d=x ' $i; i=$((i + 1)); done
	echo
} >"$out/long.txt"
echo "not a kernel" >"$out/bad.bin"

for s in "$@"; do
	img="$out/$s.img" machine=q35
	case $s in
	q35) mkesp "$img" "$kernel" "$initrd" "$out/cmdline.txt" ;;
	hpetoff) mkesp "$img" "$kernel" "$initrd" "$out/cmdline.txt"; machine=q35,hpet=off ;;
	pc) mkesp "$img" "$kernel" "$initrd" "$out/cmdline.txt"; machine=pc ;;
	nocmdline) mkesp "$img" "$kernel" "$initrd" "" ;;
	custom) mkesp "$img" "$kernel" "$initrd" "$out/custom.txt" ;;
	long) mkesp "$img" "$kernel" "$initrd" "$out/long.txt" ;;
	nokernel) mkesp "$img" "" "$initrd" "$out/cmdline.txt" ;;
	badkernel) mkesp "$img" "$out/bad.bin" "$initrd" "$out/cmdline.txt" ;;
	noinitrd) mkesp "$img" "$kernel" "" "$out/cmdline.txt" ;;
	*) echo "unknown scenario $s" >&2; exit 2 ;;
	esac
	boot "$img" "$out/$s.log" "$machine"
	rm -f "$img"
	echo "== $s ($machine)"
	tr -d '\r' <"$out/$s.log" | grep -a '^timeprobe: \|"type":"calib_summary"\|Kernel command line' |
		cut -c1-200 || true
done
