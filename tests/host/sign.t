#!/bin/sh
# SPDX-License-Identifier: MIT
# `make sign` (tools/sign.mk): with a throwaway key and certificate made here,
# the stub and the kernel come out signed, sbverify accepts them against that
# certificate and refuses them against another, and the signed image carries
# the signed stub. Works on copies in a temporary build root, so the real
# build/ is neither rebuilt nor touched.
set -u
. tests/lib/tap.sh

for tool in sbsign sbverify openssl mcopy; do
	command -v $tool >/dev/null || { echo "1..0 # SKIP $tool missing (make deps)"; exit 0; }
done
for f in build/boot/BOOTX64.EFI build/kernel/bzImage build/initramfs.img; do
	[ -f $f ] || { echo "1..0 # SKIP no $f (make image first)"; exit 0; }
done

tmp=$(mktemp -d /tmp/timeprobe-sign.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/build
mkdir -p $b/boot $b/kernel
cp build/boot/BOOTX64.EFI $b/boot/
cp build/kernel/bzImage $b/kernel/
cp build/initramfs.img $b/
[ -f build/kernel/bzImage.config ] && cp build/kernel/bzImage.config $b/kernel/

key() {	# key NAME: a self-signed RSA-2048 db key pair, as docs/secureboot.md makes
	openssl req -new -x509 -newkey rsa:2048 -nodes -sha256 -days 1 \
		-subj "/CN=timeprobe test $1/" -keyout $tmp/$1.key -out $tmp/$1.crt 2>/dev/null
}
key db && key other
# -o: take the copied inputs as they are (no kernel, stub or initramfs rebuild)
mk() { make --no-print-directory -s B=$b -o $b/boot/BOOTX64.EFI -o $b/kernel/bzImage \
	-o $b/initramfs.img "$@"; }

fails "make sign without KEY/CERT stops with a usage error" mk sign
out=$(mk sign 2>&1 >/dev/null)
case $out in *KEY=*CERT=*) tap_result 1 "the usage error names KEY= and CERT=" ;;
	*) tap_result 0 "the usage error names KEY= and CERT=" "$out" ;; esac

ok "make sign KEY=... CERT=... succeeds" mk sign KEY=$tmp/db.key CERT=$tmp/db.crt
ok "the signed stub verifies against its certificate" sbverify --cert $tmp/db.crt $b/boot/BOOTX64.signed.efi
ok "the signed kernel verifies against its certificate" sbverify --cert $tmp/db.crt $b/kernel/bzImage.signed.efi
fails "the signed stub does not verify against another certificate" \
	sbverify --cert $tmp/other.crt $b/boot/BOOTX64.signed.efi
fails "the unsigned stub carries no signature" sbverify --cert $tmp/db.crt $b/boot/BOOTX64.EFI
ok "the signature names the signer" sh -c \
	"sbverify --list $b/boot/BOOTX64.signed.efi | grep -q 'CN=timeprobe test db'"
fails "a corrupted signed stub no longer verifies" sh -c \
	"cp $b/boot/BOOTX64.signed.efi $tmp/bad.efi && printf X | dd of=$tmp/bad.efi bs=1 seek=4096 conv=notrunc status=none && sbverify --cert $tmp/db.crt $tmp/bad.efi"

ok "make sign-image builds timeprobe.signed.img" mk sign-image KEY=$tmp/db.key CERT=$tmp/db.crt
ok "the signed image's BOOTX64.EFI is the signed stub" sh -c \
	"MTOOLS_SKIP_CHECK=1 mcopy -i $b/timeprobe.signed.img@@1M ::/EFI/BOOT/BOOTX64.EFI $tmp/esp.efi && cmp $tmp/esp.efi $b/boot/BOOTX64.signed.efi"
ok "the signed image's vmlinuz verifies" sh -c \
	"MTOOLS_SKIP_CHECK=1 mcopy -i $b/timeprobe.signed.img@@1M ::/EFI/timeprobe/vmlinuz $tmp/vmlinuz && sbverify --cert $tmp/db.crt $tmp/vmlinuz"

# ARCH=arm64 (make ARCH=arm64 sign): BOOTAA64.EFI and the arm64 kernel from
# build/arm64, signed the same way; the signed image boots \EFI\BOOT\BOOTAA64.EFI.
a=build/arm64
if [ -f $a/boot/BOOTAA64.EFI ] && [ -f $a/kernel/bzImage ] && [ -f $a/initramfs.img ]; then
	b=$tmp/arm64
	mkdir -p $b/boot $b/kernel
	cp $a/boot/BOOTAA64.EFI $b/boot/
	cp $a/kernel/bzImage $b/kernel/
	cp $a/initramfs.img $b/
	[ -f $a/kernel/bzImage.config ] && cp $a/kernel/bzImage.config $b/kernel/
	mka() { make --no-print-directory -s ARCH=arm64 B=$b -o $b/boot/BOOTAA64.EFI -o $b/kernel/bzImage \
		-o $b/initramfs.img "$@"; }
	ok "arm64: make ARCH=arm64 sign-image succeeds" mka sign-image KEY=$tmp/db.key CERT=$tmp/db.crt
	ok "arm64: the signed stub verifies against its certificate" \
		sbverify --cert $tmp/db.crt $b/boot/BOOTAA64.signed.efi
	ok "arm64: the signed kernel verifies against its certificate" \
		sbverify --cert $tmp/db.crt $b/kernel/bzImage.signed.efi
	fails "arm64: the signed stub does not verify against another certificate" \
		sbverify --cert $tmp/other.crt $b/boot/BOOTAA64.signed.efi
	ok "arm64: the signed image's BOOTAA64.EFI is the signed stub" sh -c \
		"MTOOLS_SKIP_CHECK=1 mcopy -i $b/timeprobe.signed.img@@1M ::/EFI/BOOT/BOOTAA64.EFI $tmp/esp-aa64.efi && cmp $tmp/esp-aa64.efi $b/boot/BOOTAA64.signed.efi"
	ok "arm64: the signed image's command line is the arm64 one (console ttyAMA0)" sh -c \
		"MTOOLS_SKIP_CHECK=1 mtype -i $b/timeprobe.signed.img@@1M ::/EFI/timeprobe/cmdline.txt | grep -q console=ttyAMA0"
else
	skip "arm64: make ARCH=arm64 sign-image" "no $a/boot/BOOTAA64.EFI, kernel or initramfs (make ARCH=arm64 image)"
fi

done_testing
