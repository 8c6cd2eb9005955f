#!/bin/sh
# SPDX-License-Identifier: MIT
# Converts the appliance's disk image into the disk formats hypervisors open
# directly, and writes a VMware machine file for the VMware disk
# (docs/vm.md).
#
#   tools/mkvm.sh [--cpus N] [--memory MIB] IMAGE OUTBASE
#
# writes OUTBASE.vmdk (VMware Workstation, Player, Fusion; ESXi after
# vmkfstools), OUTBASE.vdi (VirtualBox), OUTBASE.vhdx (Hyper-V Generation 2)
# and OUTBASE.vmx (VMware: UEFI, Secure Boot off, N vCPUs, the vmdk on SATA,
# serial port 1 to OUTBASE-serial.log beside it).
#
# qemu-img copies every sector, so the GPT and its partition GUID (what the
# appliance finds its results partition by, timeprobe.bootpart=gpt:...) are
# the same in every format; each conversion is compared back against IMAGE
# (qemu-img compare) before it replaces an older one.
set -eu

cpus=2 memory_mib=512
while [ $# -gt 0 ]; do
	case $1 in
	--cpus) cpus=$2; shift 2 ;;
	--memory) memory_mib=$2; shift 2 ;;
	-*) echo "mkvm: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: tools/mkvm.sh [--cpus N] [--memory MIB] IMAGE OUTBASE" >&2; exit 2; }
img=$1 out=$2
[ -f "$img" ] || { echo "mkvm: no disk image $img (make image)" >&2; exit 1; }
case $cpus in ''|*[!0-9]*|0) echo "mkvm: --cpus wants a number from 1, not '$cpus'" >&2; exit 2 ;; esac
case $memory_mib in ''|*[!0-9]*) echo "mkvm: --memory wants MiB, not '$memory_mib'" >&2; exit 2 ;; esac
command -v qemu-img >/dev/null || { echo "mkvm: qemu-img missing (apt-get install qemu-utils)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"

# Formats and the qemu-img options for each:
#   vmdk  monolithicSparse, one file; adapter type ide is what VMware
#         Workstation itself writes for a SATA disk (geometry only).
#   vdi   dynamically allocated, VirtualBox's default.
#   vhdx  dynamic; Hyper-V Gen 2 machines take only VHDX (not VHD).
convert() {
	fmt=$1 opts=$2
	rm -f "$out.$fmt.tmp"
	qemu-img convert -q -f raw -O "$fmt" -o "$opts" "$img" "$out.$fmt.tmp"
	if ! qemu-img compare -q -f raw -F "$fmt" "$img" "$out.$fmt.tmp"; then
		rm -f "$out.$fmt.tmp"
		echo "mkvm: $out.$fmt differs from $img after conversion" >&2
		exit 1
	fi
	mv "$out.$fmt.tmp" "$out.$fmt"
	echo "vm: $out.$fmt ($fmt, $(du -k "$out.$fmt" | cut -f1) KiB on disk)"
}
convert vmdk subformat=monolithicSparse,adapter_type=ide
convert vdi static=off
convert vhdx subformat=dynamic

base=$(basename "$out")
sh "$(dirname "$0")/vmx.sh" "$base" "$cpus" "$memory_mib" > "$out.vmx.tmp"
mv "$out.vmx.tmp" "$out.vmx"
echo "vm: $out.vmx (open it in VMware Workstation or Player; serial log: $base-serial.log)"
