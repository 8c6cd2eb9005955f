# SPDX-License-Identifier: MIT
# Unit tests of the wakeup probe's arithmetic and of the fixed-bucket
# histogram it writes; included by the Makefile.
$(B)/tests/test_wakeup: $(B)/host/userland/stats.o $(B)/host/common/record.o \
	$(B)/host/userland/emit.o $(B)/host/userland/options.o \
	$(B)/host/userland/probes/wakeup.o
UNIT_TESTS += $(B)/tests/test_wakeup
