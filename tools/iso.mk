# SPDX-License-Identifier: MIT
# The CD image (docs/iso.md). Included by the top Makefile, which sets B,
# KVARIANT, QEMU_CPUS and APPEND.
#
#   make iso        build/timeprobe.iso: UEFI-bootable from a CD drive
#                   (VMware, VirtualBox, Hyper-V Gen 2, a burnt disc) and,
#                   written to a USB stick, as a disk
#   make run-iso    boot it in QEMU as a CD-ROM

.PHONY: iso run-iso

# The same files and command line as $(B)/timeprobe.img (see the Makefile).
$(B)/timeprobe.iso: $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage $(B)/initramfs.img \
		tools/cmdline.txt tools/mkiso.sh tools/cmdline-flatten.sh
	sh tools/mkiso.sh $@ $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage $(B)/initramfs.img tools/cmdline.txt \
		"$$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) $(APPEND)"

iso: deps
	$(MAKE) $(B)/timeprobe.iso

run-iso: iso
	sh tools/qemu-run.sh --machine $(QEMU_MACHINE) --cpus $(QEMU_CPUS) --cdrom $(B)/timeprobe.iso
