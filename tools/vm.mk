# SPDX-License-Identifier: MIT
# Virtual machine disks, writing a USB stick (tools/usbwrite/, docs/vm.md), and the
# comparison with this machine's own OS (docs/comparing.md). Included by the
# top Makefile, which sets B, QEMU_MACHINE and QEMU_CPUS.
#
#   make vm                  $(B)/timeprobe.vmdk, .vdi, .vhdx and .vmx
#   make usb DEV=/dev/sdX    write $(B)/timeprobe.img to a USB stick, checked
#                            (USB_FORCE=1: also a fixed or a large disk);
#                            without DEV=, the removable and USB disks here
#   make results IMG=FILE    copy the results files out of an image or a
#                            stick (read only) into results/
#   make compare             the suite on this host and in QEMU, one report in
#                            $(B)/compare/ (COMPARE_OPTS="probes=... ...")

.PHONY: vm usb compare results

VM_MEMORY_MIB ?= 512

$(B)/timeprobe.vmx: $(B)/timeprobe.img tools/mkvm.sh tools/vmx.sh
	sh tools/mkvm.sh --cpus $(QEMU_CPUS) --memory $(VM_MEMORY_MIB) $(B)/timeprobe.img $(B)/timeprobe

vm: image
	$(MAKE) $(B)/timeprobe.vmx

DEV ?=
USB_FORCE ?=
usb:
	@test -n '$(DEV)' || sh tools/usb-list.sh
	$(MAKE) $(B)/tp-usbwrite
	$(B)/tp-usbwrite $(if $(USB_FORCE),--force) --check '$(DEV)'
	$(MAKE) image
	$(B)/tp-usbwrite $(if $(USB_FORCE),--force) $(B)/timeprobe.img '$(DEV)'

IMG ?=
results:
	@test -n '$(IMG)' || { echo 'usage: make results IMG=FILE|/dev/sdX (a disk image or a stick, read only)' >&2; exit 2; }
	python3 tools/results.py -- $(call sq,$(IMG))

# Words given to both sides: NAME=VALUE becomes --NAME=VALUE for `timeprobe
# run` and timeprobe.NAME=VALUE on the appliance's command line. Without a
# profile: quick under TCG, full under KVM (as make run).
COMPARE_OPTS ?=
COMPARE_TIMEOUT ?= 3600
compare: image userland report
	sh tools/compare.sh --out '$(B)/compare' --machine '$(QEMU_MACHINE)' --cpus '$(QEMU_CPUS)' \
		--timeout '$(COMPARE_TIMEOUT)' $(B)/timeprobe.img $(COMPARE_OPTS)
