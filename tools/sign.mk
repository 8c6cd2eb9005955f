# SPDX-License-Identifier: MIT
# Secure Boot signing with sbsign (docs/secureboot.md). Included by the top
# Makefile, which sets B, KVARIANT, QEMU_CPUS, APPEND and the architecture's
# BOOT_EFI, BOOT_EFI_NAME and CMDLINE_TXT (ARCH=arm64: BOOTAA64.EFI and the
# arm64 kernel in build/arm64; sbsign signs either PE).
#
#   make sign KEY=db.key CERT=db.crt         the stub and the kernel
#   make sign-image KEY=db.key CERT=db.crt   also timeprobe.signed.img
#   make sign-iso KEY=db.key CERT=db.crt     also timeprobe.signed.iso
#
# Both the stub and the kernel are signed: under Secure Boot the firmware
# checks the stub, and checks the kernel again when the stub hands it to
# LoadImage (UEFI 2.10, 7.4 "LoadImage": EFI_SECURITY_VIOLATION).
# KEY is a PEM private key (sbsign asks for its passphrase, if it has one, on
# the terminal), or with SBSIGN_ENGINE=pkcs11 a token's key URI.

KEY ?=
CERT ?=
SBSIGN_ENGINE ?=

SIGNED_STUB := $(B)/boot/$(BOOT_EFI_NAME:.EFI=.signed.efi)
SIGNED_KERNEL := $(B)/kernel/bzImage.signed.efi
SBSIGN = sbsign $(if $(SBSIGN_ENGINE),--engine $(SBSIGN_ENGINE)) --key '$(KEY)' --cert '$(CERT)'

.PHONY: sign sign-image sign-iso sign-check-args

sign-check-args:
	@test -n '$(KEY)' && test -n '$(CERT)' || \
		{ echo "make sign: give KEY=<key.pem> CERT=<cert.pem> (docs/secureboot.md)" >&2; exit 2; }
	@test -f '$(CERT)' || { echo "make sign: CERT=$(CERT): no such file" >&2; exit 2; }
	@command -v sbsign >/dev/null || { echo "make sign: sbsign missing (apt-get install sbsigntool)" >&2; exit 1; }

# Always re-signed: KEY and CERT are not prerequisites make could compare.
sign: sign-check-args $(BOOT_EFI) $(B)/kernel/bzImage
	$(SBSIGN) --output $(SIGNED_STUB) $(BOOT_EFI)
	$(SBSIGN) --output $(SIGNED_KERNEL) $(B)/kernel/bzImage
	sbverify --cert '$(CERT)' $(SIGNED_STUB)
	sbverify --cert '$(CERT)' $(SIGNED_KERNEL)

# The same words as the unsigned image (see $(B)/timeprobe.img in Makefile).
SIGN_WORDS = "$$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) $(APPEND)"

sign-image: sign $(B)/initramfs.img $(CMDLINE_TXT)
	sh tools/mkimage.sh $(B)/timeprobe.signed.img $(SIGNED_STUB) $(SIGNED_KERNEL) \
		$(B)/initramfs.img $(CMDLINE_TXT) $(SIGN_WORDS)

sign-iso: sign $(B)/initramfs.img $(CMDLINE_TXT)
	sh tools/mkiso.sh $(B)/timeprobe.signed.iso $(SIGNED_STUB) $(SIGNED_KERNEL) \
		$(B)/initramfs.img $(CMDLINE_TXT) $(SIGN_WORDS)
