# SPDX-License-Identifier: MIT
# Unit tests of probe tsc (pure parts); the probe's object needs its neighbours to link.
$(B)/tests/test_tsc: $(B)/host/userland/probes/tsc.o $(B)/host/userland/kmsg.o \
	$(B)/host/userland/stats.o $(B)/host/common/record.o $(B)/host/userland/emit.o \
	$(B)/host/userland/sysinfo.o $(B)/host/userland/tsccal.o
UNIT_TESTS += $(B)/tests/test_tsc
