#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the bootable disk image without root or loop devices: a GPT disk with
# one FAT32 EFI System Partition, built as a separate file with mtools and
# placed at 1 MiB.
#
#   tools/mkimage.sh OUT.img BOOTX64.EFI bzImage initramfs.img cmdline.txt [APPEND]
#
# Layout of the ESP:
#   \EFI\BOOT\BOOTX64.EFI          the stub (the firmware's default path;
#                                  \EFI\BOOT\BOOTAA64.EFI with ARCH=arm64)
#   \EFI\timeprobe\vmlinuz         the kernel
#   \EFI\timeprobe\initramfs.img   the probe suite
#   \EFI\timeprobe\cmdline.txt     the kernel command line, editable on the stick
#                                  (cmdline.txt and APPEND, tools/cmdline-flatten.sh)
#   \timeprobe\id                  the ESP's partition GUID (tools/image-ids.sh)
#   \timeprobe\results\            where the appliance saves its records
set -eu

out=$1 efi=$2 kernel=$3 initrd=$4 cmdline=$5 append=${6:-}
for f in "$efi" "$kernel" "$initrd" "$cmdline"; do
	[ -f "$f" ] || { echo "mkimage: missing input $f" >&2; exit 1; }
done

# 64 MiB disk: FAT32 needs at least 65525 clusters; 512-byte clusters on
# ~62 MiB give that with room for results.
disk_mib=64
esp_start=2048				# sectors (1 MiB)
esp_sectors=$(( (disk_mib - 2) * 2048 ))	# leave 1 MiB at the end for the backup GPT
tmp=$out.tmp
esp=$out.esp

# one line, as tools/cmdline-flatten.sh makes (and checks) it for every
# image: first, so that a refused word leaves nothing half made
line=$(sh "$(dirname "$0")/cmdline-flatten.sh" "$cmdline" "$append")

ids_from="$efi $kernel $initrd $cmdline $append"
. "$(dirname "$0")/image-ids.sh"

rm -f "$tmp" "$esp"
truncate -s ${disk_mib}M "$tmp"
# (sgdisk -q silently skips the partition; keep it verbose and quiet it here)
sgdisk -o -n 1:$esp_start:+$esp_sectors -t 1:ef00 -c 1:timeprobe -U "$disk_guid" -u "1:$part_guid" \
	"$tmp" >/dev/null
sgdisk -p "$tmp" | grep -q " EF00 " || { echo "mkimage: sgdisk made no ESP" >&2; exit 1; }

truncate -s $(( esp_sectors * 512 )) "$esp"
mformat -i "$esp" -F -N "$fat_serial" -v TIMEPROBE -c 1 -T $esp_sectors -h 64 -s 32 ::
mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/EFI/timeprobe ::/timeprobe ::/timeprobe/results
efi_name=$(sh "$(dirname "$0")/efi-name.sh")
mcopy -i "$esp" "$efi" "::/EFI/BOOT/$efi_name"
# the image's identity (tools/image-ids.sh): the appliance saves only here
printf '%s\n' "$part_guid" > "$esp.id"
mcopy -i "$esp" "$esp.id" ::/timeprobe/id
rm -f "$esp.id"
mcopy -i "$esp" "$kernel" ::/EFI/timeprobe/vmlinuz
mcopy -i "$esp" "$initrd" ::/EFI/timeprobe/initramfs.img
printf '%s\n' "$line" > "$esp.cmdline"
mcopy -i "$esp" "$esp.cmdline" ::/EFI/timeprobe/cmdline.txt

dd if="$esp" of="$tmp" bs=512 seek=$esp_start conv=notrunc status=none
rm -f "$esp" "$esp.cmdline"
mv "$tmp" "$out"
echo "image: $out ($disk_mib MiB, GPT + FAT32 ESP)"
