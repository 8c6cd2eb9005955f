#!/bin/sh
# SPDX-License-Identifier: MIT
# The media of make ARCH=arm64 (image, iso, usb, results) from stand-in
# inputs, in seconds: tools/mkimage.sh and tools/mkiso.sh put the stub at
# \EFI\BOOT\BOOTAA64.EFI (tools/efi-name.sh) with ARCH=arm64 and at
# BOOTX64.EFI without, refuse an unknown ARCH, the ISO's El Torito image is
# the UEFI one, and tools/results.py reads a results file back from an arm64
# image as from an x86 one. The boot of the arm64 ISO: tests/boot/71-arm64-iso.t.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

for tool in mcopy mdir sgdisk xorriso; do
	command -v $tool >/dev/null || { echo "1..0 # SKIP $tool missing (sh tools/deps.sh)"; exit 0; }
done
export MTOOLS_SKIP_CHECK=1 SOURCE_DATE_EPOCH=1700000000 TIMEPROBE_IMAGE_ID=arm64-media-test
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-arm64media.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
for f in efi kernel initrd; do echo "$f" > "$tmp/$f"; done

# boot_names IMAGE@@OFFSET: the files in \EFI\BOOT of that FAT, one a line
boot_names() {
	mdir -b -i "$1" ::/EFI/BOOT | sed 's|.*/||' | tr -d '\r' | sort
}

ok "ARCH=arm64 tools/mkimage.sh makes an image" \
	env ARCH=arm64 sh tools/mkimage.sh "$tmp/a.img" "$tmp/efi" "$tmp/kernel" "$tmp/initrd" \
	tools/cmdline-arm64.txt "timeprobe.profile=quick"
ok "arm64 image: the stub is \\EFI\\BOOT\\BOOTAA64.EFI and nothing else is there" \
	test "$(boot_names "$tmp/a.img@@1M")" = BOOTAA64.EFI
ok "arm64 image: its bytes are the stub's" sh -c \
	"mtype -i '$tmp/a.img@@1M' ::/EFI/BOOT/BOOTAA64.EFI | cmp -s - '$tmp/efi'"
ok "x86 image (no ARCH): the stub is \\EFI\\BOOT\\BOOTX64.EFI" sh -c \
	"env -u ARCH sh tools/mkimage.sh '$tmp/x.img' '$tmp/efi' '$tmp/kernel' '$tmp/initrd' tools/cmdline.txt >/dev/null &&
	 test \"\$(mdir -b -i '$tmp/x.img@@1M' ::/EFI/BOOT | sed 's|.*/||' | tr -d '\\r')\" = BOOTX64.EFI"
out=$(env ARCH=sparc sh tools/mkimage.sh "$tmp/s.img" "$tmp/efi" "$tmp/kernel" "$tmp/initrd" tools/cmdline.txt 2>&1)
rc=$?
ok "an unknown ARCH stops tools/mkimage.sh, naming it" sh -c \
	"[ $rc -ne 0 ] && printf '%s' \"\$1\" | grep -q \"ARCH='sparc'\" && [ ! -e '$tmp/s.img' ]" - "$out"

ok "ARCH=arm64 tools/mkiso.sh makes an ISO" \
	env ARCH=arm64 sh tools/mkiso.sh "$tmp/a.iso" "$tmp/efi" "$tmp/kernel" "$tmp/initrd" \
	tools/cmdline-arm64.txt "timeprobe.profile=quick"
ok "arm64 ISO: El Torito holds a no-emulation image for UEFI" sh -c \
	"xorriso -indev '$tmp/a.iso' -report_el_torito plain 2>/dev/null | grep -q '^El Torito boot img.* UEFI .* none '"
start=$(sgdisk -i 2 "$tmp/a.iso" 2>/dev/null | sed -n 's/^First sector: \([0-9]*\).*/\1/p')
ok "arm64 ISO: its FAT (GPT partition 2) boots \\EFI\\BOOT\\BOOTAA64.EFI alone" \
	test -n "$start" -a "$(boot_names "$tmp/a.iso@@$((${start:-0} * 512))")" = BOOTAA64.EFI
ok "arm64 ISO: the command line is the arm64 one (console ttyAMA0)" sh -c \
	"mtype -i '$tmp/a.iso@@$((${start:-0} * 512))' ::/EFI/timeprobe/cmdline.txt | grep -q 'console=ttyAMA0'"

# make results / make usb work on build/arm64/timeprobe.img as on the x86 one:
# a results file of the appliance's shape comes back out.
printf 'TP1 {"type":"run"}\n' > "$tmp/r.tp1"
mcopy -i "$tmp/a.img@@1M" "$tmp/r.tp1" ::/timeprobe/results/0001-aa64.tp1
ok "tools/results.py copies a results file out of an arm64 image" \
	python3 tools/results.py --out "$tmp/results" -- "$tmp/a.img"
ok "and it is the file on the image" sh -c "cmp -s '$tmp/r.tp1' '$tmp/results/'0001-aa64-*.tp1"
done_testing
