# SPDX-License-Identifier: MIT
# The kernel-variant matrix (docs/variants.md). Included by the top Makefile,
# which sets B, QEMU_MACHINE and QEMU_CPUS.
#
#   make matrix VARIANTS="hz100 hz1000 nohz-full"
#
# builds $(B)/matrix/<variant>/timeprobe.img for each variant (a whole build
# of its own, `make image B=$(B)/matrix/<variant> KVARIANT=<variant>`), boots
# each with tools/qemu-run.sh and writes $(B)/matrix/report.md and
# $(B)/matrix/plots/. `base` in VARIANTS is our fragment without a variant.

# The variants compared, in report order: the first is the reference.
VARIANTS ?= hz100 hz250 hz1000
# Command-line words every variant boots with (APPEND of each image).
MATRIX_APPEND ?= timeprobe.profile=quick
# QEMU's limit per boot, in seconds.
MATRIX_TIMEOUT ?= 1800

.PHONY: matrix
matrix: deps $(B)/tp-report
	MAKE='$(SCRIPT_MAKE)' TP_REPORT='$(abspath $(B)/tp-report)' sh tools/matrix.sh \
		--out '$(B)/matrix' --append '$(MATRIX_APPEND)' --machine '$(QEMU_MACHINE)' \
		--cpus '$(QEMU_CPUS)' --timeout '$(MATRIX_TIMEOUT)' $(VARIANTS)
