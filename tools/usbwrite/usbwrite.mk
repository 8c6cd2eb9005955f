# SPDX-License-Identifier: MIT
# tp-usbwrite, the USB stick writer behind `make usb` (tools/vm.mk). Included
# by the top Makefile, which sets B and CC. A host tool: gcc against glibc.
#
#   make usbwrite    $(B)/tp-usbwrite, and its test build
#                    $(B)/tests/tp-usbwrite-test (tests/host/usb.t)

USBWRITE_SRC := $(wildcard tools/usbwrite/*.c)
USBWRITE_DEPS := $(USBWRITE_SRC) $(wildcard tools/usbwrite/*.h) tools/usbwrite/usbwrite.mk
USBWRITE_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wno-unused-parameter \
	-Wshadow -Wformat=2 $(REPRO_CFLAGS)

.PHONY: usbwrite

usbwrite: $(B)/tp-usbwrite $(B)/tests/tp-usbwrite-test

$(B)/tp-usbwrite: $(USBWRITE_DEPS)
	@mkdir -p $(@D)
	$(CC) $(USBWRITE_CFLAGS) -o $@ $(USBWRITE_SRC)

# The test build reads sysfs from $TP_USB_SYSFS and can spoil one written
# byte (TP_USB_TEST_FLIP); `make usb` never runs it.
$(B)/tests/tp-usbwrite-test: $(USBWRITE_DEPS)
	@mkdir -p $(@D)
	$(CC) $(USBWRITE_CFLAGS) -DUSBWRITE_TEST -o $@ $(USBWRITE_SRC)
