#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The serial console found from ACPI SPCR, in real boots: QEMU has no SPCR
by default, so each boot adds one with -acpitable file= (OVMF installs it
beside QEMU's own tables). A legacy COM1 table adds console=ttyS0,115200 to
a command line that has no serial console, and Linux then writes to ttyS0;
a line that already names ttyS0 gets nothing; an MMIO table gives a
console=uart8250,mmio32 word; a PL011 table gives none, with the reason.
Uses the single file (build/timeprobe.efi); the SPCR code is the same in
file mode."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

d = test_dir()
com1 = spcr_table(os.path.join(d, "spcr-com1.bin"))

# 1. no serial console on the command line: SPCR's COM1 is added, Linux uses it
efi = single_efi("spcr-noserial", "console=tty0 " + QUICK)
img = single_image("spcr-noserial", efi)
status, secs, text = boot(img, "q35", timeout=900, extra=["-acpitable", "file=" + com1])
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
recs, _ = records(text)
sc = first(recs, "stub_console")
ok(sc.get("spcr") is True and sc.get("added") is True and sc.get("console") == "console=ttyS0,115200",
   "stub_console: SPCR found, console=ttyS0,115200 added", sc)
ok(sc.get("interface") == "16550" and sc.get("space") == "io" and sc.get("address") == "0x3f8"
   and sc.get("baud") == 115200, "stub_console: 16550 at I/O 0x3f8, 115200 baud", sc)
kcl = kernel_cmdline(text) or ""
ok("console=ttyS0,115200" in kcl.split(), "the kernel got console=ttyS0,115200", kcl)
ok("ACPI: SPCR" in text, "Linux sees the same SPCR table")
ok("printk: console [ttyS0] enabled" in text, "Linux enabled its console on ttyS0")
check_suite(text, "SPCR console: ")

# 2. the line already names ttyS0: nothing added (stop once the kernel starts)
efi = single_efi("spcr-named", efi_default_cmdline() + " " + QUICK)
img = single_image("spcr-named", efi)
status, secs, text = boot(img, "q35", timeout=300, extra=["-acpitable", "file=" + com1],
                          until='"type":"stub_start"')
recs, _ = records(text)
sc = first(recs, "stub_console")
cl = first(recs, "stub_cmdline").get("cmdline", "")
ok(sc.get("spcr") is True and sc.get("added") is False and sc.get("already_named") is True,
   "console=ttyS0,115200 already there: stub_console says so, adds nothing", sc)
ok(cl.split().count("console=ttyS0,115200") == 1, "the word is on the line once", cl)

# 3. an MMIO UART with 32-bit access: a uart8250,mmio32 word (not booted on:
#    QEMU has no UART there)
mmio = spcr_table(os.path.join(d, "spcr-mmio.bin"), interface=0x12, space=0, access=3, width=32,
                  address=0xfe032000, baud=7)
img = single_image("spcr-mmio", single_efi("spcr-mmio", "console=tty0 " + QUICK))
status, secs, text = boot(img, "q35", timeout=300, extra=["-acpitable", "file=" + mmio],
                          until='"type":"stub_start"')
recs, _ = records(text)
sc = first(recs, "stub_console")
ok(sc.get("added") is True and sc.get("console") == "console=uart8250,mmio32,0xfe032000,115200",
   "MMIO SPCR: console=uart8250,mmio32,0xfe032000,115200 added", sc)

# 4. an ARM PL011 (interface type 3): no console word, and why
pl011 = spcr_table(os.path.join(d, "spcr-pl011.bin"), interface=3, space=0, access=3, width=32,
                   address=0x9000000)
status, secs, text = boot(img, "q35", timeout=300, extra=["-acpitable", "file=" + pl011],
                          until='"type":"stub_start"')
recs, _ = records(text)
sc = first(recs, "stub_console")
ok(sc.get("spcr") is True and sc.get("added") is False and sc.get("interface") == "ARM PL011"
   and "16550" in sc.get("reason", ""), "PL011 SPCR: no console word, the reason given", sc)
ok("uart8250" not in first(recs, "stub_cmdline").get("cmdline", ""), "nothing added to the line")
done()
