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
# (qemu-img compare). Names are checked before anything is converted, and
# the four files replace older ones only together: a failure leaves nothing.
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
# OUTBASE's last part names every file, and the .vmx names the disk by it:
# it must be a name (not a folder) that vmx.sh can write.
base=${out##*/}
case $base in
''|.|..) echo "mkvm: OUTBASE '$out' names a folder, not the files' base name (e.g. '${out%/}/timeprobe')" >&2; exit 2 ;;
esac
command -v qemu-img >/dev/null || { echo "mkvm: qemu-img missing (apt-get install qemu-utils)" >&2; exit 1; }

# Everything is written to NAME.tmp and renamed only when all of it is done:
# a failure (or a stop) leaves no partial file, and an older set stays whole.
dir=$(dirname "$out")
made_dir=
[ -d "$dir" ] || made_dir=1
trap 'rm -f "$out.vmx.tmp" "$out.vmdk.tmp" "$out.vdi.tmp" "$out.vhdx.tmp"; [ -z "$made_dir" ] || rmdir "$dir" 2>/dev/null || true' EXIT
trap 'exit 1' HUP INT TERM
mkdir -p "$dir"
# The machine file first: vmx.sh checks the name before any disk is converted.
sh "$(dirname "$0")/vmx.sh" "$base" "$cpus" "$memory_mib" > "$out.vmx.tmp"

# Formats and the qemu-img options for each:
#   vmdk  monolithicSparse, one file; adapter type ide is what VMware
#         Workstation itself writes for a SATA disk (geometry only).
#   vdi   dynamically allocated, VirtualBox's default.
#   vhdx  dynamic; Hyper-V Gen 2 machines take only VHDX (not VHD).
convert() {
	fmt=$1 opts=$2
	qemu-img convert -q -f raw -O "$fmt" -o "$opts" "$img" "$out.$fmt.tmp"
	if ! qemu-img compare -q -f raw -F "$fmt" "$img" "$out.$fmt.tmp"; then
		echo "mkvm: $out.$fmt differs from $img after conversion" >&2
		exit 1
	fi
}
convert vmdk subformat=monolithicSparse,adapter_type=ide
convert vdi static=off
convert vhdx subformat=dynamic

for ext in vmdk vdi vhdx vmx; do
	mv "$out.$ext.tmp" "$out.$ext"
	case $ext in
	vmx) echo "vm: $out.vmx (open it in VMware Workstation or Player; serial log: $base-serial.log)" ;;
	*) echo "vm: $out.$ext ($ext, $(du -k "$out.$ext" | cut -f1) KiB on disk)" ;;
	esac
done
made_dir=
