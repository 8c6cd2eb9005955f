#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes a disk image whose ESP holds only the single file: timeprobe.efi as
# \EFI\BOOT\BOOTX64.EFI (the firmware's default path; BOOTAA64.EFI with
# ARCH=arm64: tools/efi-name.sh), optionally with a
# \EFI\timeprobe\cmdline.txt beside it that overrides the embedded command
# line. Same disk layout as tools/mkimage.sh (GPT, FAT32 ESP at 1 MiB, built
# with mtools and sgdisk, no root). See docs/netboot.md.
#
#   tools/mkimage-single.sh OUT.img timeprobe.efi [CMDLINE.txt]
#
# The appliance saves its results in \timeprobe\results on this ESP (it
# creates the folder): the stub names the partition by its GPT GUID, and
# \timeprobe\id, written here, says this image made it.
set -eu

out=$1 efi=$2 cmdline=${3:-}
[ -f "$efi" ] || { echo "mkimage-single: missing input $efi" >&2; exit 1; }
[ -z "$cmdline" ] || [ -f "$cmdline" ] || { echo "mkimage-single: missing input $cmdline" >&2; exit 1; }

# 64 MiB disk, FAT32 with 512-byte clusters: as tools/mkimage.sh
disk_mib=64
esp_start=2048
esp_sectors=$(( (disk_mib - 2) * 2048 ))
tmp=$out.tmp
esp=$out.esp

ids_from="$efi $cmdline"
. "$(dirname "$0")/image-ids.sh"

rm -f "$tmp" "$esp"
truncate -s ${disk_mib}M "$tmp"
sgdisk -o -n 1:$esp_start:+$esp_sectors -t 1:ef00 -c 1:timeprobe -U "$disk_guid" -u "1:$part_guid" \
	"$tmp" >/dev/null
sgdisk -p "$tmp" | grep -q " EF00 " || { echo "mkimage-single: sgdisk made no ESP" >&2; exit 1; }

truncate -s $(( esp_sectors * 512 )) "$esp"
mformat -i "$esp" -F -N "$fat_serial" -v TIMEPROBE -c 1 -T $esp_sectors -h 64 -s 32 ::
mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/timeprobe
efi_name=$(sh "$(dirname "$0")/efi-name.sh")
mcopy -i "$esp" "$efi" "::/EFI/BOOT/$efi_name"
# the image's identity (tools/image-ids.sh): the appliance saves only here
printf '%s\n' "$part_guid" > "$esp.id"
mcopy -i "$esp" "$esp.id" ::/timeprobe/id
rm -f "$esp.id"
if [ -n "$cmdline" ]; then
	mmd -i "$esp" ::/EFI/timeprobe
	mcopy -i "$esp" "$cmdline" ::/EFI/timeprobe/cmdline.txt
fi

dd if="$esp" of="$tmp" bs=512 seek=$esp_start conv=notrunc status=none
rm -f "$esp"
mv "$tmp" "$out"
echo "image: $out ($disk_mib MiB, GPT + FAT32 ESP holding only $(basename "$efi") as $efi_name${cmdline:+ and cmdline.txt})"
