#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cmdline.txt files a person may leave on the stick, booted: an empty file,
one saved as UTF-16LE without a byte-order mark, and one holding a
3000-byte word (with timeprobe.calib_rounds=7 timeprobe.calib_ms=20, the
stub's own options); a stick with neither initrd= nor the initramfs, which
the stub must refuse to boot; last, an empty file on a machine whose ACPI
SPCR names COM2: the built-in line gets that port's console= too; and a
file that forges the stub's tsc_hz (an SMBIOS string does too) and ends
inside a quote. Each must reach the suite's end record, and the serial
log must say what the stub did about the file (docs/stub.md, "Command line
hand-off"). The empty file gives no words, so the suite's quick settings
come as SMBIOS OEM strings, which PID 1 reads like command-line words."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

QUICK = "timeprobe.profile=quick timeprobe.probes=clocks"
SMBIOS_QUICK = ["-smbios", "type=11,value=timeprobe.profile=quick,value=timeprobe.probes=clocks"]


def put_cmdline(img, data):
    """cmdline.txt on img, byte for byte."""
    tmp = img + ".cmdline"
    with open(tmp, "wb") as f:
        f.write(data)
    subprocess.run(["mcopy", "-o", "-i", img + ESP_OFFSET, tmp, "::/EFI/timeprobe/cmdline.txt"],
                   env=mtools_env(), check=True)
    os.unlink(tmp)


def warnings(recs, what):
    return [r for r in recs if r["type"] == "stub_warning" and r.get("what") == what]


def run(name, data, extra=()):
    img = image_copy(name)
    put_cmdline(img, data)
    status, secs, text = boot(img, "q35", timeout=900, extra=extra)
    ok(status == 0, "%s: QEMU exited by itself" % name, text[-2000:])
    suite = check_suite(text, name + ": ")
    recs, _ = records(text)
    return suite, recs, ANSI.sub("", text)


if not os.path.exists(IMAGE):
    bail("no %s: run `make image` first" % IMAGE)
default = esp_read(IMAGE, "/EFI/timeprobe/cmdline.txt").strip()

# 1. An empty file: the built-in line, said on screen and in a record.
suite, recs, plain = run("cmdline-empty", b"", SMBIOS_QUICK)
fb = warnings(recs, "cmdline_fallback")
ok(fb and fb[0].get("empty") and fb[0].get("file") == "\\EFI\\timeprobe\\cmdline.txt",
   "empty: stub_warning cmdline_fallback names the file, empty", fb)
ok("WARNING: \\EFI\\timeprobe\\cmdline.txt: no word survived decoding" in plain,
   "empty: the screen says what was wrong with the file")
cl = first(recs, "stub_cmdline")
ok(cl.get("source") == "fallback" and cl.get("cmdline", "").startswith(
   "console=tty0 console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img"),
   "empty: the kernel got the built-in line", cl.get("cmdline"))
ok(suite and suite[0].get("profile") == "quick", "empty: the SMBIOS words reached the suite")

# 2. UTF-16LE without a BOM: decoded by content, the user's words used.
suite, recs, plain = run("cmdline-utf16le", (default + " " + QUICK + "\r\n").encode("utf-16-le"))
ok("looks like UTF-16LE (no byte-order mark): decoded" in plain,
   "UTF-16LE: the screen says how the file was read")
cl = first(recs, "stub_cmdline")
ok(cl.get("encoding") == "UTF-16LE" and cl.get("source") == "file" and not warnings(
   recs, "cmdline_fallback"), "UTF-16LE: stub_cmdline says file, UTF-16LE, no fallback", cl)
ok(suite and suite[0].get("profile") == "quick", "UTF-16LE: the file's words reached the suite")

# 3. A 3000-byte word: dropped alone; the stub's own options obeyed, not errors.
long_word = "timeprobe.note=" + "y" * 2985
words = default + " " + long_word + " " + QUICK + " timeprobe.calib_rounds=7 timeprobe.calib_ms=20\n"
suite, recs, plain = run("cmdline-long-word", words.encode())
lw = warnings(recs, "cmdline_long_word")
ok(lw and lw[0].get("word_bytes") == 3000 and lw[0].get("words") == 1,
   "long word: stub_warning cmdline_long_word with its length", lw)
ok("a word longer than 2047 bytes dropped" in plain, "long word: the screen says it was dropped")
kcl = kernel_cmdline(plain) or ""
ok("yyyy" not in kcl and "timeprobe.calib_ms=20" in kcl, "long word: the other words kept", kcl)
calib = [r for r in recs if r["type"] == "calib" and r.get("source") == "stub" and "rounds" in r]
ok(calib and all(r["rounds"] == 7 and r.get("window_ms") == 20 for r in calib),
   "calib_rounds=7 calib_ms=20: the stub's calib records say 7 rounds of 20 ms",
   [(r["ref"], r.get("rounds"), r.get("window_ms")) for r in calib])
errs = [r for r in suite if r["type"] == "error" and r.get("option", "").startswith("calib_")]
ok(not errs, "calib_rounds and calib_ms: no error record in the suite", errs)
ok(suite and suite[0].get("stub_options") == {"calib_rounds": "7", "calib_ms": "20"},
   "the run record lists the stub's own options", suite[0].get("stub_options") if suite else None)

# 4. A file that forges the stub's figure and ends inside a quote, and the
# same forged word as an SMBIOS string: the kernel still gets the stub's
# words as words of their own, every stub figure of the run is the stub's
# calibration, and both forged words are refused by name.
FORGED = "timeprobe.tsc_hz=1234567"
suite, recs, plain = run("cmdline-forged-quote",
                         (default + " timeprobe.profile=quick timeprobe.probes=tsc " + FORGED +
                          '\nfoo="bar').encode(),
                         ["-smbios", "type=11,value=" + FORGED])
qc = warnings(recs, "cmdline_quote_closed")
ok(qc and qc[0].get("lines") == 1, "stray quote: stub_warning cmdline_quote_closed, 1 line", qc)
ok("a line ended inside double quotes: closed there" in plain, "stray quote: the screen says so")
kcl = kernel_cmdline(plain) or ""
ok(' foo="bar" ' in kcl and " panic=10 " in kcl and " timeprobe.seal=" in kcl,
   "stray quote: the kernel's line has foo=\"bar\", then panic=10 and the seal as words", kcl)
summ = [r for r in recs if r["type"] == "calib_summary" and r.get("source") == "stub"]
stub_hz = summ[0].get("tsc_hz") if summ else None
figs = [(r.get("probe"), k, v) for r in suite for k, v in r.items()
        if k in ("stub_tsc_hz", "stub_hz") and isinstance(v, (int, float))]
ok(stub_hz and stub_hz != 1234567 and len(figs) >= 2 and all(abs(v - stub_hz) < 1 for _, _, v in figs),
   "forged: every stub figure of the run (%d) is the stub's calibration %s Hz" % (len(figs), stub_hz),
   figs)
run_rec = suite[0] if suite else {}
ok(run_rec.get("cmdline", "").count("timeprobe.bootpart=gpt:") == 1,
   "forged: the run has the stub's bootpart")
refused = [r for r in suite if r["type"] == "error" and r.get("option") == "tsc_hz"
           and str(r.get("value")) == "1234567"]
why = " / ".join(str(r.get("message", r.get("reason", ""))) for r in refused)
ok(len(refused) == 2 and "stub alone" in why and "launcher" in why,
   "forged: error records name both refused words (cmdline.txt and SMBIOS)", refused)

# 5. No initrd= and no initramfs: no kernel started (it would panic and
# reboot for ever); the stub says why and returns to the firmware.
img = image_copy("cmdline-no-initrd", remove=["/EFI/timeprobe/initramfs.img"])
put_cmdline(img, b"console=tty0 console=ttyS0,115200 " + QUICK.encode() + b"\n")
status, secs, text = boot(img, "q35", timeout=300, until="Shell>")
plain = ANSI.sub("", text)
recs, _ = records(text)
err = first(recs, "stub_error")
ok(err.get("what") == "initrd_missing" and err.get("file") == "\\EFI\\timeprobe\\initramfs.img",
   "no initrd= and no initramfs: stub_error initrd_missing names the file", err)
ok("no initrd= on the command line, and no \\EFI\\timeprobe\\initramfs.img" in plain,
   "no initrd= and no initramfs: the screen says so")
ok("Linux version" not in plain, "no initrd= and no initramfs: no kernel was started")

# 6. An empty file and an SPCR naming COM2 (I/O 0x2f8): the fallback line
# still gets console=ttyS1 (the boot stops once the stub has started Linux).
com2 = spcr_table(os.path.join(BUILD, "tests", "spcr-com2.bin"), address=0x2f8)
img = image_copy("cmdline-empty-spcr")
put_cmdline(img, b"")
status, secs, text = boot(img, "q35", timeout=300, extra=["-acpitable", "file=" + com2],
                          until='"type":"stub_start"')
recs, _ = records(text)
cl = first(recs, "stub_cmdline")
ok(cl.get("source") == "fallback" and cl.get("cmdline", "").startswith(
   "console=tty0 console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img console=ttyS1,115200 "),
   "empty file + SPCR COM2: the built-in line, then the SPCR port's console=", cl.get("cmdline"))
done()
