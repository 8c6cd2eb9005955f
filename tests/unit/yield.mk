# SPDX-License-Identifier: MIT
# Unit tests of the scheduler probes (yield and switch); included by the Makefile.
$(B)/tests/test_yield: $(B)/host/userland/stats.o $(B)/host/common/record.o \
	$(B)/host/userland/emit.o $(B)/host/userland/probes/yield.o \
	$(B)/host/userland/probes/switch.o
UNIT_TESTS += $(B)/tests/test_yield
