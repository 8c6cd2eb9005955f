#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes a UEFI-bootable ISO 9660 image (CD/DVD, or a virtual machine's CD
# drive) without root or loop devices: a small FAT image holding the same
# files as the disk image's ESP, built with mtools, and xorriso to wrap it as
# the El Torito "EFI" boot image (platform 0xEF, no emulation).
#
#   tools/mkiso.sh OUT.iso BOOTX64.EFI bzImage initramfs.img cmdline.txt [APPEND]
#
# The FAT image (the firmware sees it as the boot volume; UEFI 2.10, 13.3.2
# "ISO-9660 and El Torito") holds:
#   \EFI\BOOT\BOOTX64.EFI          the stub (\EFI\BOOT\BOOTAA64.EFI with
#                                  ARCH=arm64: tools/efi-name.sh)
#   \EFI\timeprobe\vmlinuz         the kernel
#   \EFI\timeprobe\initramfs.img   the probe suite
#   \EFI\timeprobe\cmdline.txt     cmdline.txt plus APPEND, as tools/mkimage.sh
#   \timeprobe\results\            empty: a CD cannot be written (docs/iso.md)
# The FAT image is appended after the ISO 9660 tree as partition 2 of a GPT
# (type EFI System) and El Torito points into it, so it is stored once and
# the same file written to a USB stick boots as a disk, where results can be
# saved. (-isohybrid-gpt-basdat writes no GPT without a BIOS isohybrid MBR,
# which a UEFI-only image has no use for.)
set -eu

out=$1 efi=$2 kernel=$3 initrd=$4 cmdline=$5 append=${6:-}
for f in "$efi" "$kernel" "$initrd" "$cmdline"; do
	[ -f "$f" ] || { echo "mkiso: missing input $f" >&2; exit 1; }
done
command -v xorriso >/dev/null || { echo "mkiso: xorriso missing (apt-get install xorriso)" >&2; exit 1; }

# the line first (tools/cmdline-flatten.sh checks it): a refused word leaves nothing half made
line=$(sh "$(dirname "$0")/cmdline-flatten.sh" "$cmdline" "$append")
tmp=$out.tmp
stage=$out.d
rm -rf "$tmp" "$stage"
mkdir -p "$stage/tree"
fat=$stage/efi.img
printf '%s\n' "$line" > "$stage/cmdline.txt"

# Size: the files, 1 MiB for FAT metadata and 4 MiB for the results a copy
# on a USB stick can save (a quick run writes ~40 KiB), in whole MiB. mformat
# picks FAT12 or FAT16 for that size. El Torito's catalog gives the image's
# length in 512-byte sectors in 16 bits (32 MiB at most): far above this.
kib=$(du -k -c "$efi" "$kernel" "$initrd" "$stage/cmdline.txt" | tail -n 1 | cut -f 1)
fat_mib=$(( (kib + 1023) / 1024 + 1 + 4 ))
fat_sectors=$(( fat_mib * 2048 ))
truncate -s $(( fat_sectors * 512 )) "$fat"
# A fixed volume serial, so the same inputs make the same bytes.
mformat -i "$fat" -N 7e5eb007 -v TIMEPROBE -T $fat_sectors -h 64 -s 32 ::
mmd -i "$fat" ::/EFI ::/EFI/BOOT ::/EFI/timeprobe ::/timeprobe ::/timeprobe/results
efi_name=$(sh "$(dirname "$0")/efi-name.sh")
mcopy -i "$fat" "$efi" "::/EFI/BOOT/$efi_name"
mcopy -i "$fat" "$kernel" ::/EFI/timeprobe/vmlinuz
mcopy -i "$fat" "$initrd" ::/EFI/timeprobe/initramfs.img
mcopy -i "$fat" "$stage/cmdline.txt" ::/EFI/timeprobe/cmdline.txt
rm -f "$stage/cmdline.txt"

# What a person who opens the disc sees; the boot files are in the FAT.
cat > "$stage/tree/README.TXT" <<'END'
timeprobe: a bootable timing appliance. Boot this disc (or this file as a
virtual machine's CD drive) with UEFI firmware; the results go to the
screen and the serial port. A CD cannot be written, so nothing is saved.
The boot files are in the El Torito EFI image (partition 2 on a stick).
END
# xorriso takes the volume dates from SOURCE_DATE_EPOCH and mtools the FAT
# dates; the ISO tree's own dates are the files', so fix those too.
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	touch -d "@$SOURCE_DATE_EPOCH" "$stage/tree/README.TXT" "$stage/tree"
fi
xorriso -as mkisofs -quiet -iso-level 3 -r -V TIMEPROBE \
	-o "$tmp" \
	-append_partition 2 0xef "$fat" -appended_part_as_gpt \
	-e --interval:appended_partition_2:all:: -no-emul-boot \
	"$stage/tree"
# On a stick the FAT is the GPT's partition 2, whose GUID xorriso chose: its
# \timeprobe\id (userland/save.c) names that GUID, written into the FAT in place.
set -- $(sgdisk -i 2 "$tmp" | sed -n 's/^Partition unique GUID: //p; s/^First sector: \([0-9]*\).*/\1/p')
[ $# -eq 2 ] || { echo "mkiso: no GPT partition 2 in the ISO" >&2; exit 1; }
printf '%s\n' "$1" | tr 'A-F' 'a-f' > "$stage/id"
mcopy -i "$tmp@@$(( $2 * 512 ))" "$stage/id" ::/timeprobe/id
rm -rf "$stage"
mv "$tmp" "$out"
echo "iso: $out ($(( $(wc -c < "$out") / 1024 )) KiB, El Torito EFI image of $fat_mib MiB)"
