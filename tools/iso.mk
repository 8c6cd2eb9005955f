# SPDX-License-Identifier: MIT
# The CD image (docs/iso.md). Included by the top Makefile, which sets B,
# KVARIANT, QEMU_CPUS and APPEND.
#
#   make iso        build/timeprobe.iso: UEFI-bootable from a CD drive
#                   (VMware, VirtualBox, Hyper-V Gen 2, a burnt disc) and,
#                   written to a USB stick, as a disk
#   make run-iso    boot it in QEMU as a CD-ROM (tools/run.sh: the quick
#                   profile under TCG, as make run; the serial log kept in results/)

.PHONY: iso run-iso

# The same files and command line as $(B)/timeprobe.img (see the Makefile).
$(B)/timeprobe.iso: $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage $(B)/initramfs.img \
		tools/cmdline.txt tools/mkiso.sh tools/cmdline-flatten.sh $(B)/image-words
	sh tools/mkiso.sh $@ $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage $(B)/initramfs.img tools/cmdline.txt \
		"$$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) $(APPEND)"

iso: deps
	$(MAKE) $(B)/timeprobe.iso

run-iso: deps
	@PROFILE=$(call sq,$(PROFILE)) APPEND=$(call sq,$(APPEND)) MAKE=$(call sq,$(SCRIPT_MAKE)) \
		sh tools/run.sh $(call sq,$(B)/timeprobe.iso) $(call sq,$(QEMU_MACHINE)) $(call sq,$(QEMU_CPUS))
