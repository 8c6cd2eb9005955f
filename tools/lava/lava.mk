# SPDX-License-Identifier: MIT
# make test-lava: tools/lava/qemu.yaml run by LAVA's own dispatcher on this
# machine (tools/lava/run-local.sh, docs/lava.md), once with a passing quick
# run and once with a crashing probe, which must fail the job; then
# tools/lava/qemu-measure.yaml on an image with timeprobe.lava, whose
# monitor must record the figures as measurements. Needs lava-run
# (apt-get install lava-dispatcher, not in tools/deps.sh: ~140 packages)
# or LAVA_RUN="command"; without it the target says SKIP and why.
# Included by the top Makefile.

LAVA_RUN ?= lava-run
LAVA_WORDS = $$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) \
	timeprobe.profile=quick timeprobe.probes=clocks
# lava-run looked up in PATH by make itself, so make -n starts no shell for it
LAVA_HAVE_RUN := $(firstword $(if $(findstring /,$(firstword $(LAVA_RUN))), \
	$(wildcard $(firstword $(LAVA_RUN))), \
	$(wildcard $(addsuffix /$(firstword $(LAVA_RUN)),$(subst :, ,$(PATH))))))

.PHONY: test-lava
ifeq ($(LAVA_HAVE_RUN),)
test-lava:
	@echo "test-lava: SKIP: $(firstword $(LAVA_RUN)) not found: LAVA's dispatcher is not" \
		"installed (apt-get install lava-dispatcher, or LAVA_RUN=command)"
else
test-lava: image
	@mkdir -p $(B)/tests
	sh tools/mkimage.sh $(B)/tests/lava-pass.img $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage \
		$(B)/initramfs.img tools/cmdline.txt "$(LAVA_WORDS)"
	sh tools/mkimage.sh $(B)/tests/lava-fail.img $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage \
		$(B)/initramfs.img tools/cmdline.txt "$(LAVA_WORDS) timeprobe.inject=crash"
	sh tools/mkimage.sh $(B)/tests/lava-measure.img $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage \
		$(B)/initramfs.img tools/cmdline.txt "$(LAVA_WORDS) timeprobe.lava"
	LAVA_RUN="$(LAVA_RUN)" sh tools/lava/run-local.sh $(B)/tests/lava-pass.img $(B)/tests/lava-pass pass
	LAVA_RUN="$(LAVA_RUN)" sh tools/lava/run-local.sh $(B)/tests/lava-fail.img $(B)/tests/lava-fail fail
	LAVA_RUN="$(LAVA_RUN)" sh tools/lava/run-local.sh $(B)/tests/lava-measure.img \
		$(B)/tests/lava-measure measure tools/lava/qemu-measure.yaml
	@echo "test-lava: ok (results: $(B)/tests/lava-pass/results.yaml)"
endif
