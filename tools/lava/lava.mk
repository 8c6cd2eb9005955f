# SPDX-License-Identifier: MIT
# make test-lava: tools/lava/qemu.yaml run by LAVA's own dispatcher on this
# machine (tools/lava/run-local.sh, docs/lava.md), once with a passing quick
# run and once with a crashing probe, which must fail the job. Needs
# lava-run (apt-get install lava-dispatcher, not in tools/deps.sh: ~140
# packages) or LAVA_RUN="command". Included by the top Makefile.

LAVA_WORDS = $$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) \
	timeprobe.profile=quick timeprobe.probes=clocks

.PHONY: test-lava
test-lava: image
	@mkdir -p $(B)/tests
	sh tools/mkimage.sh $(B)/tests/lava-pass.img $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage \
		$(B)/initramfs.img tools/cmdline.txt "$(LAVA_WORDS)"
	sh tools/mkimage.sh $(B)/tests/lava-fail.img $(B)/boot/BOOTX64.EFI $(B)/kernel/bzImage \
		$(B)/initramfs.img tools/cmdline.txt "$(LAVA_WORDS) timeprobe.inject=crash"
	sh tools/lava/run-local.sh $(B)/tests/lava-pass.img $(B)/tests/lava-pass pass
	sh tools/lava/run-local.sh $(B)/tests/lava-fail.img $(B)/tests/lava-fail fail
	@echo "test-lava: ok (results: $(B)/tests/lava-pass/results.yaml)"
