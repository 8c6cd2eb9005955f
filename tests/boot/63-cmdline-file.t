#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cmdline.txt files a person may leave on the stick, booted: an empty file,
one saved as UTF-16LE without a byte-order mark, and one holding a
3000-byte word (with timeprobe.calib_rounds=7 timeprobe.calib_ms=20, the
stub's own options); a stick with neither initrd= nor the initramfs, which
the stub must refuse to boot; an empty file on a machine whose ACPI
SPCR names COM2: the built-in line gets that port's console= too; a
file that forges the stub's tsc_hz (an SMBIOS string does too) and ends
inside a quote; last, a kernel whose init is missing, which panics. Each must reach the suite's end record, and the serial
log must say what the stub did about the file (docs/stub.md, "Command line
hand-off"). One file holds every hostile line of issue 37 at once
(overlong forms, "--", 40 unknown words, forged figures and seal). The
empty file gives no words, so the suite's quick settings
come as SMBIOS OEM strings, which PID 1 reads like command-line words."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

SMBIOS_QUICK = ["-smbios", "type=11," + ",".join("value=" + w for w in QUICK.split())]


def warnings(recs, what):
    return [r for r in recs if r["type"] == "stub_warning" and r.get("what") == what]


def run(name, data, extra=(), forged=False):
    img = image_copy(name)
    put_cmdline(img, data)
    status, secs, text = boot(img, "q35", timeout=900, extra=extra)
    ok(status == 0, "%s: QEMU exited by itself" % name, text[-2000:])
    suite = check_suite(text, name + ": ", forged)
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
   "console=tty0 console=ttyS0,115200 panic=0"),
   "empty: the kernel got the built-in line, its initrd= served by the stub", cl.get("cmdline"))
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

# 4. One hostile file, one boot (issue 37): it forges the stub's figures
# and the retired seal, then ends the forged words with an overlong U+0000
# (C0 80); an encoded quote (C0 A2) and an encoded newline (C0 8A) before a
# forged LAVA measurement line; "--" with words after it; a mistyped
# prefix (timeprob.repeat=2, which PID 1 refuses); 40 unknown k=v
# words (Linux panics past 30); and it ends inside a quote. The same
# forged tsc_hz comes as an SMBIOS string. No figure of the run may carry
# a forged value, the stub names each refused byte, the kernel keeps
# panic= and tsc_early_khz=, and the run reaches its end record.
FORGED = "timeprobe.tsc_hz=1234567"
forged = (FORGED + " timeprobe.firmware=00000001:00020046:SpoofBIOS timeprobe.seal=3:12345678 x").encode()
unknown = " ".join("tp%d=%d" % (i, i) for i in range(40)).encode()
hostile = (default.encode() + b" timeprobe.profile=quick timeprobe.probes=tsc timeprob.repeat=2 " +
           forged +
           b"\xc0\x80 q=\xc0\xa2hidden b\xc0\x8aTPM forged.case 42 s " + unknown +
           b' -- initarg\nfoo="bar')
at_nul = hostile.index(b"\xc0\x80")
at_quote = hostile.index(b"\xc0\xa2")
at_nl = hostile.index(b"\xc0\x8a")
suite, recs, plain = run("cmdline-hostile", hostile, ["-smbios", "type=11,value=" + FORGED], True)
bad = warnings(recs, "cmdline_bad_char")
ok(sorted(r.get("offset") for r in bad) == [at_nul, at_quote, at_nl] and
   all(r.get("reason") == "overlong form" and r.get("words_dropped") == 3 for r in bad),
   "overlong NUL, quote, newline: a stub_warning names each byte offset (%d, %d, %d)"
   % (at_nul, at_quote, at_nl), bad)
ok("overlong form at byte %d: that word dropped" % at_nul in plain, "and the screen says so")
kcl = kernel_cmdline(plain) or ""
ok("hidden" not in kcl and "TPM" not in kcl and " x " not in kcl and kcl.endswith(' -- initarg foo="bar"'),
   "the words with the overlong forms are gone from the kernel's line, the others kept", kcl)
ok(re.search(r" panic=0 tsc_early_khz=\d+ -- initarg( |$)", kcl) is not None,
   "--: the stub's panic= and tsc_early_khz= go before it", kcl)
iw = warnings(recs, "cmdline_init_words")
ok(iw and iw[0].get("envs_dropped") == 10 and "tp29=29" in kcl and "tp30=30" not in kcl,
   "40 unknown k=v: the 10 past Linux's 30 dropped with a stub_warning", iw)
qc = warnings(recs, "cmdline_quote_closed")
ok(qc and qc[0].get("lines") == 1, "stray quote: stub_warning cmdline_quote_closed, 1 line", qc)
ok(suite and suite[-1]["type"] == "end", "the run reaches its end record (no kernel panic)")
summ = [r for r in recs if r["type"] == "calib_summary" and r.get("source") == "stub"]
stub_hz = summ[0].get("tsc_hz") if summ else None
figs = [(r.get("probe"), k, v) for r in suite for k, v in r.items()
        if k in ("stub_tsc_hz", "stub_hz") and isinstance(v, (int, float))]
ok(stub_hz and stub_hz != 1234567 and len(figs) >= 2 and all(abs(v - stub_hz) < 1 for _, _, v in figs),
   "forged: every stub figure of the run (%d) is the stub's calibration %s Hz" % (len(figs), stub_hz),
   figs)
fp = first(suite, "fingerprint")
spoof = [r["type"] for r in suite if "SpoofBIOS" in json.dumps(r) and r["type"] not in ("run", "error")]
ok(fp.get("firmware_vendor") not in (None, "SpoofBIOS") and not spoof,
   "forged: the firmware vendor is the firmware's (%s), SpoofBIOS in no record but run's line "
   "and the error" % fp.get("firmware_vendor"), spoof)
tsc_kern = [r for r in suite if r.get("probe") == "tsc" and "stub_vs_kernel_ppm" in json.dumps(r)]
ok("-999" not in json.dumps(tsc_kern), "forged: no stub-vs-kernel figure near -999 524 ppm")
refused = [r for r in suite if r["type"] == "error" and r.get("option") == "tsc_hz"
           and str(r.get("value")) == "1234567"]
why = " / ".join(str(r.get("message", r.get("reason", ""))) for r in refused)
ok(len(refused) == 2 and "stub.tp1" in why and "launcher" in why,
   "forged: error records name both refused words (cmdline.txt and SMBIOS)", refused)
seal = [r for r in suite if r["type"] == "error" and r.get("option") == "seal"]
ok(len(seal) == 1 and "retired" in json.dumps(seal), "the retired seal: one error record", seal)
ok(not re.search(r"^TPM forged", plain, re.M), "no forged LAVA measurement line")
typo = [r for r in suite if r["type"] == "error" and r.get("option") == "timeprob.repeat"]
ok(len(typo) == 1 and "did you mean timeprobe.repeat?" in typo[0].get("reason", "") and
   suite and suite[0].get("repeat") == 1,
   "a mistyped prefix (timeprob.repeat=2): PID 1 refuses it, naming the word meant", typo)

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
com2 = spcr_table(os.path.join(test_dir(), "spcr-com2.bin"), address=0x2f8)
img = image_copy("cmdline-empty-spcr")
put_cmdline(img, b"")
status, secs, text = boot(img, "q35", timeout=300, extra=["-acpitable", "file=" + com2],
                          until='"type":"stub_start"')
recs, _ = records(text)
cl = first(recs, "stub_cmdline")
ok(cl.get("source") == "fallback" and cl.get("cmdline", "").startswith(
   "console=tty0 console=ttyS0,115200 console=ttyS1,115200 panic=0"),
   "empty file + SPCR COM2: the built-in line, then the SPCR port's console=", cl.get("cmdline"))

# 7. A kernel that panics (its init missing): the stub's panic=0 keeps the
# machine there instead of rebooting into it, and the launcher's watcher
# ends QEMU at the panic with status 122, not 0.
img = image_copy("cmdline-panic")
put_cmdline(img, (default + " rdinit=/nonexistent init=/nonexistent").encode())
status, secs, text = boot(img, "q35", timeout=300)
kcl = kernel_cmdline(text) or ""
ok(" panic=0" in kcl and "Kernel panic - not syncing" in text,
   "a missing init: the kernel panics with the stub's panic=0", kcl)
ok(status == 122, "the launcher ends QEMU at the panic with status 122 (%s, %.0f s)" % (status, secs))
done()
