#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the single-file timeprobe.efi: the stub (BOOTX64.EFI, or
# BOOTAA64.EFI with ARCH=arm64) with the kernel, the initramfs and a
# default command line as PE sections, laid out the way a
# Unified Kernel Image carries them (systemd's ukify: .cmdline, .initrd,
# .linux, each after the stub's last section at the next SectionAlignment
# boundary, .linux last). See docs/stub.md, "Single file".
#
#   boot/mkefi.sh OUT STUB.so STUB.EFI BZIMAGE INITRD CMDLINE-FILE
#
# The sections are added while stub.so (the ELF that BOOTX64.EFI is made
# from) is converted, with BOOTX64.EFI's own objcopy arguments: objcopy 2.40
# stamps the build time into a PE it rewrites, but keeps an ELF
# conversion's at 0, so the output stays reproducible (arm64: below).
# STUB.EFI gives the layout: its last section's end and its SectionAlignment.
set -eu

out=$1 so=$2 efi=$3 kernel=$4 initrd=$5 cmdline=$6
for f in "$so" "$efi" "$kernel" "$initrd" "$cmdline"; do
	[ -f "$f" ] || { echo "mkefi: missing input $f" >&2; exit 1; }
done
objcopy=${EFI_OBJCOPY:-objcopy}
objdump=${EFI_OBJDUMP:-objdump}

align=$($objdump -p "$efi" | awk '$1 == "SectionAlignment" { print $2 }')
[ -n "$align" ] || { echo "mkefi: no SectionAlignment in $efi" >&2; exit 1; }
# "Idx Name Size VMA ...": the end of the highest section
end=0
for e in $($objdump -h "$efi" | awk '$1 ~ /^[0-9]+$/ { print $4 ":" $3 }'); do
	e=$((0x${e%%:*} + 0x${e#*:}))
	[ $e -le $end ] || end=$e
done
align=$((0x$align))

# objcopy's section arguments, each path one argument (a path may hold blanks)
next=$end
set --
for s in cmdline:"$cmdline" initrd:"$initrd" linux:"$kernel"; do
	name=${s%%:*} file=${s#*:}
	vma=$(( (next + align - 1) / align * align ))
	size=$(stat -c %s "$file")
	set -- "$@" --add-section ".$name=$file" --change-section-vma ".$name=$(printf '0x%x' $vma)" \
		--set-section-flags ".$name=contents,alloc,load,readonly,data" -j ".$name"
	next=$((vma + size))
done

# BOOTX64.EFI's section list (boot/boot.mk passes its BOOT_EFI_SECTIONS)
sections=${EFI_SECTIONS:-"-j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela -j .rel.* -j .rela.* -j .reloc"}
# shellcheck disable=SC2086 # section names split into words by design (no blanks in them)
set -f
case ${ARCH:-x86} in
arm64|aarch64)
	# BOOTAA64.EFI is not objcopy's conversion of stub.so (its PE header comes
	# from gnu-efi's crt0, boot/boot.mk): the sections are added to that PE
	# itself, its .text and .data kept as they are. objcopy stamps the time
	# into the header it writes, and a checksum over it: both set back to 0,
	# as in BOOTAA64.EFI (firmware checks neither). From the "PE\0\0" that
	# 0x3c points at: TimeDateStamp at +8, the optional header's CheckSum at
	# +24+64 (PE/COFF specification, 3.3 and 3.4.1).
	$objcopy -I pei-aarch64-little -O pei-aarch64-little $sections "$@" "$efi" "$out.tmp"
	pe=$(od -An -t u4 -j 60 -N 4 "$out.tmp" | tr -d ' ')
	for at in $((pe + 8)) $((pe + 88)); do
		printf '\000\000\000\000' | dd of="$out.tmp" bs=1 seek=$at conv=notrunc status=none
	done ;;
*)
	$objcopy $sections "$@" --target efi-app-x86_64 --subsystem=10 "$so" "$out.tmp" ;;
esac
set +f
# The stub inside must be BOOTX64.EFI byte for byte (same ELF, same objcopy).
for sec in .text .data .reloc .rela .dynsym .dynamic; do
	$objcopy -O binary -j $sec "$efi" "$out.a" && $objcopy -O binary -j $sec "$out.tmp" "$out.b"
	cmp -s "$out.a" "$out.b" || { echo "mkefi: section $sec differs from $efi (stale stub.so?)" >&2; rm -f "$out.a" "$out.b" "$out.tmp"; exit 1; }
done
rm -f "$out.a" "$out.b"
mv "$out.tmp" "$out"
echo "efi: $out ($(stat -c %s "$out") bytes: stub, .cmdline $(stat -c %s "$cmdline"), .initrd $(stat -c %s "$initrd"), .linux $(stat -c %s "$kernel"))"
