#!/bin/sh
# SPDX-License-Identifier: MIT
# One way to flatten cmdline.txt (tools/cmdline-flatten.sh) for the disk
# image, the ISO and the single EFI file: a comment line in
# tools/cmdline.txt must not change the line an image carries, hence the
# kernel's line. The images are made from small stand-in files.
set -u
. tests/lib/tap.sh
same() { [ "$1" = "$2" ] || { echo "got  '$1'"; echo "want '$2'"; return 1; }; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MTOOLS_SKIP_CHECK=1

plain=$(sh tools/cmdline-flatten.sh tools/cmdline.txt "timeprobe.variant=base timeprobe.repeat=2")
{ echo "# the image's line"; echo; sed 's/ / \n  /' tools/cmdline.txt; echo "  # an indented comment line";
  printf '\t#\ttab\r\n'; } > "$tmp/commented.txt"
ok "tools/cmdline.txt has no word-less line (sanity)" test -n "$plain"
ok "a comment line does not change the flattened line" \
	same "$(sh tools/cmdline-flatten.sh "$tmp/commented.txt" "timeprobe.variant=base timeprobe.repeat=2")" "$plain"
ok "--drop initrd (the single file's .cmdline) removes only initrd=" \
	same "$(sh tools/cmdline-flatten.sh --drop initrd "$tmp/commented.txt" a=1)" \
	"$(sh tools/cmdline-flatten.sh tools/cmdline.txt a=1 | tr ' ' '\n' | grep -v '^initrd=' | tr '\n' ' ' | sed 's/ $//')"
printf '# only\n  # comments\n\n' > "$tmp/empty.txt"
ok "a comments-only file makes no image line (fails, says why)" \
	sh -c '! sh tools/cmdline-flatten.sh "$1" 2>"$2" && grep -q "empty line" "$2"' - "$tmp/empty.txt" "$tmp/err"

# The disk image: tools/mkimage.sh with stand-ins for the stub, kernel, initramfs.
for f in efi kernel initrd; do echo "$f" > "$tmp/$f"; done
img_line() {	# img_line CMDLINE.txt: the cmdline.txt inside a fresh disk image
	sh tools/mkimage.sh "$tmp/d.img" "$tmp/efi" "$tmp/kernel" "$tmp/initrd" "$1" \
		"timeprobe.variant=base timeprobe.repeat=2" >/dev/null &&
		mtype -i "$tmp/d.img@@1M" ::/EFI/timeprobe/cmdline.txt | tr -d '\r'
}
ok "disk image: the commented file gives the same line" same "$(img_line "$tmp/commented.txt")" "$plain"
ok "disk image: and that is tools/cmdline.txt's line" same "$(img_line tools/cmdline.txt)" "$plain"

# The ISO: its FAT image is GPT partition 2 (tools/mkiso.sh).
if command -v xorriso >/dev/null && command -v sgdisk >/dev/null; then
	sh tools/mkiso.sh "$tmp/c.iso" "$tmp/efi" "$tmp/kernel" "$tmp/initrd" "$tmp/commented.txt" \
		"timeprobe.variant=base timeprobe.repeat=2" >/dev/null 2>&1
	start=$(sgdisk -i 2 "$tmp/c.iso" 2>/dev/null | sed -n 's/^First sector: \([0-9]*\).*/\1/p')
	ok "ISO: the commented file gives the same line" \
		same "$(mtype -i "$tmp/c.iso@@$((start * 512))" ::/EFI/timeprobe/cmdline.txt | tr -d '\r')" "$plain"
else
	skip "ISO: the commented file gives the same line" "xorriso or sgdisk missing"
fi

# The stub's built-in line is the line the image ships, on each architecture
# (boot/arch.h picks the console): TP_CMDLINE_DEFAULT as its compiler sees it.
builtin() {	# builtin CC: the macro's string, its pieces joined
	printf '#include "boot/cmdline.h"\nTP_CMDLINE_DEFAULT\n' | "$1" -ffreestanding -E -P -x c - 2>/dev/null |
		tail -n1 | sed 's/" *"//g; s/^[[:space:]]*"//; s/"[[:space:]]*$//; s/\\\\/\\/g'
}
ok "the stub's built-in line (boot/cmdline.h) is tools/cmdline.txt's" \
	same "$(builtin "${CC:-cc}")" "$(sh tools/cmdline-flatten.sh tools/cmdline.txt)"
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	ok "arm64: the stub's built-in line is tools/cmdline-arm64.txt's" \
		same "$(builtin aarch64-linux-gnu-gcc)" "$(sh tools/cmdline-flatten.sh tools/cmdline-arm64.txt)"
else
	skip "arm64: the stub's built-in line is tools/cmdline-arm64.txt's" "no aarch64-linux-gnu-gcc"
fi

# The single file's .cmdline is made by boot/boot.mk with the same script,
# from the architecture's cmdline.txt (tools/cmdline.txt, or cmdline-arm64.txt).
# shellcheck disable=SC2016 # $(CMDLINE_TXT) is make's
ok "boot/boot.mk flattens with tools/cmdline-flatten.sh --drop initrd" \
	grep -qF 'sh tools/cmdline-flatten.sh --drop initrd $(CMDLINE_TXT)' boot/boot.mk
ok "no other flattening left in the image scripts" \
	sh -c '! grep -n "tr .\\\\n. . \|grep -v .\^\[\[:space:\]\]\*#" tools/mkimage.sh tools/mkiso.sh boot/boot.mk'
done_testing
