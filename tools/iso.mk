# SPDX-License-Identifier: MIT
# The CD image (docs/iso.md). Included by the top Makefile, which sets B,
# KVARIANT, QEMU_CPUS, APPEND and the architecture's BOOT_EFI and CMDLINE_TXT.
#
#   make iso        $(B)/timeprobe.iso: UEFI-bootable from a CD drive
#                   (VMware, VirtualBox, Hyper-V Gen 2, a burnt disc) and,
#                   written to a USB stick, as a disk; with ARCH=arm64,
#                   build/arm64/timeprobe.iso with BOOTAA64.EFI
#   make run-iso    boot it in QEMU as a CD-ROM (tools/run.sh: the quick
#                   profile under TCG, as make run; the serial log kept in results/)

.PHONY: iso run-iso

# The same files and command line as $(B)/timeprobe.img (see the Makefile).
$(B)/timeprobe.iso: $(BOOT_EFI) $(B)/kernel/bzImage $(B)/initramfs.img \
		$(CMDLINE_TXT) tools/mkiso.sh tools/efi-name.sh tools/cmdline-flatten.sh $(B)/image-words
	sh tools/mkiso.sh $@ $(BOOT_EFI) $(B)/kernel/bzImage $(B)/initramfs.img $(CMDLINE_TXT) \
		"$$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) $(APPEND)"

iso: deps
	$(MAKE) $(B)/timeprobe.iso

run-iso: deps
	@PROFILE=$(call sq,$(PROFILE)) APPEND=$(call sq,$(APPEND)) FAIL_ON=$(call sq,$(FAIL_ON)) MAKE=$(call sq,$(SCRIPT_MAKE)) \
		sh tools/run.sh $(call sq,$(B)/timeprobe.iso) $(call sq,$(QEMU_MACHINE)) $(call sq,$(QEMU_CPUS))
