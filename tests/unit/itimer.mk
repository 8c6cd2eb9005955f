# SPDX-License-Identifier: MIT
# Unit tests of the itimer probe's arithmetic; included by the Makefile.
$(B)/tests/test_itimer: $(B)/host/userland/stats.o $(B)/host/common/record.o \
	$(B)/host/userland/emit.o $(B)/host/userland/load.o \
	$(B)/host/userland/options.o $(B)/host/userland/probes/itimer.o
UNIT_TESTS += $(B)/tests/test_itimer
