# SPDX-License-Identifier: MIT
# Unit tests of probe clocks: its pure helpers are inline in
# userland/probes/clocks.h, so the test links stats.o alone. clocks.o itself
# (which needs the probe table to link) is built for the host as an order-only
# prerequisite, so a host build error in it still fails the unit tests.
$(B)/tests/test_clocks: $(B)/host/userland/stats.o $(B)/host/common/record.o \
	| $(B)/host/userland/probes/clocks.o
UNIT_TESTS += $(B)/tests/test_clocks
