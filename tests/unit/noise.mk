# SPDX-License-Identifier: MIT
# Unit tests of probe noise (pure parts); the probe's object needs its neighbours to link.
$(B)/tests/test_noise: $(B)/host/userland/probes/noise.o $(B)/host/userland/stats.o \
	$(B)/host/common/record.o $(B)/host/userland/emit.o $(B)/host/userland/sysinfo.o \
	$(B)/host/userland/tsccal.o
UNIT_TESTS += $(B)/tests/test_noise
