#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The stub's figures cannot be forged from the stick (issue 50, H1). A user
initrd= archive carries its own run/timeprobe/stub.tp1 of forged records
(each with a valid CRC: tsc_hz 1234567, firmware SpoofBIOS, a verdict), then
B1: an entry whose c_filesize runs past the end, which swallows the stub's
own archive as file data; B2: TRAILER!!! and one stray byte, where Linux
stops unpacking before the stub's archive. Both archives go on one copy of
the image; cmdline.txt names one per boot, B2's by a path of 160 bytes
(the stub once read such a path cut to 127 bytes, S11). In each boot the stub says the
archive is not clean (stub_warning initrd_archive), PID 1 finds the forged
file's SHA-256 is not the one in the stub's volatile EFI variable, takes
none of its values (one error record naming the digest, and a console
line), and no record carries a forged value; the stub's genuine figures
are in the serial log. The genuine boot, where the digest the stub set and
the one PID 1 computes agree, is every other boot test's check_suite()."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

QUICK = "timeprobe.profile=quick timeprobe.probes=tsc"
FORGED_HZ = 1234567
SPOOF = "SpoofBIOS"


def newc(name, data=b"", mode=0o100444, size=None):
    """One newc entry (buffer-format.rst); size: a c_filesize that lies."""
    nm = name.encode() + b"\0"
    fields = [0x7470, mode, 0, 0, 1, 0, len(data) if size is None else size, 0, 0, 0, 0, len(nm), 0]
    h = b"070701" + b"".join(b"%08x" % f for f in fields) + nm
    h += b"\0" * (-len(h) % 4)
    return h + data + b"\0" * (-len(data) % 4)


def forged_file():
    """A stub's file of forged records, each a whole TP1 line."""
    recs = [
        {"type": "stub", "version": "forged", "firmware_vendor": SPOOF, "firmware_revision": 1},
        {"type": "calib_summary", "source": "stub", "tsc_hz": FORGED_HZ},
        {"type": "stub_handoff", "tsc_hz": FORGED_HZ, "tsc_ref": "pit",
         "firmware": "00000001:00020046:" + SPOOF},
        {"type": "verdict", "probe": "tsc", "verdict": "good", "note": SPOOF},
    ]
    return "".join(record_line(r) + "\n" for r in recs).encode()


def forged_archive(tail):
    return (newc("run", mode=0o40755) + newc("run/timeprobe", mode=0o40755) +
            newc("run/timeprobe/stub.tp1", forged_file()) + tail)


B1 = forged_archive(newc("swallow", b"", size=1 << 20))     # c_filesize past the end
B2 = forged_archive(newc("TRAILER!!!", mode=0)) + b"\0" * 8 + b"x"


def forged_values(v):
    """The forged figures anywhere in a record's values: the number, or the vendor in a string."""
    if isinstance(v, dict):
        return [x for k in v.values() for x in forged_values(k)]
    if isinstance(v, list):
        return [x for k in v for x in forged_values(k)]
    if isinstance(v, str):
        return [v] if SPOOF in v or v == str(FORGED_HZ) else []
    return [v] if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v - FORGED_HZ) < 1 else []


def put(img, name, data):
    tmp = img + "." + name
    with open(tmp, "wb") as f:
        f.write(data)
    subprocess.run(["mcopy", "-o", "-i", img + ESP_OFFSET, tmp, "::/EFI/timeprobe/" + name],
                   env=mtools_env(), check=True)
    os.unlink(tmp)


if not os.path.exists(IMAGE):
    bail("no %s: run `make image` first" % IMAGE)
img = image_copy("forged-initrd")
put(img, "b1.img", B1)
B2_NAME = "b2-" + "x" * 138 + ".img"      # \EFI\timeprobe\ and this: 160 bytes
put(img, B2_NAME, B2)

for case, name, why in (("B1", "b1.img", "an entry names the stub's directory run/timeprobe"),
                        ("B2", B2_NAME, "an entry names the stub's directory run/timeprobe")):
    path = "\\EFI\\timeprobe\\" + name
    set_cmdline(img, "initrd=%s %s" % (path, QUICK))
    status, secs, text = boot(img, "q35", timeout=900)
    recs, _ = records(text)
    suite = suite_records(recs)
    plain = ANSI.sub("", text)
    ok(status == 0 and suite and suite[-1]["type"] == "end",
       "%s: QEMU exited by itself after the suite's end record" % case, text[-2000:])
    warn = [r for r in recs if r["type"] == "stub_warning" and r.get("what") == "initrd_archive"]
    ok(len(warn) == 1 and warn[0].get("file") == path and warn[0].get("why") == why,
       "%s: one stub_warning initrd_archive names the file and why" % case, warn)
    errs = [r for r in suite if r["type"] == "error" and r.get("option") == "stub.tp1"]
    ok(len(errs) == 1 and "SHA-256 is not the one the stub set" in errs[0].get("reason", ""),
       "%s: one error record: the file's digest is not the stub's" % case, errs)
    ok("SHA-256 is not the one the stub set in EFI variable" in plain,
       "%s: the console says so" % case)
    ok(not re.search(r"timeprobe: \d+ records of the stub taken", plain),
       "%s: PID 1 took no record of the file" % case)
    forged = [(r["type"], forged_values(r)) for r in recs if forged_values(r)]
    ok(not forged, "%s: no record carries tsc_hz %d or %s" % (case, FORGED_HZ, SPOOF), forged)
    ok(sum(r["type"] == "verdict" for r in recs) == sum(r["type"] == "verdict" for r in suite),
       "%s: no verdict but the suite's" % case)
    summ = [r for r in recs if r["type"] == "calib_summary" and r.get("source") == "stub"]
    stub = first(recs, "stub")
    ok(summ and summ[0].get("tsc_hz", 0) > 10 ** 8 and stub.get("firmware_vendor") not in (None, SPOOF),
       "%s: the stub's genuine figures are in the log (%s Hz, %s)"
       % (case, summ[0].get("tsc_hz") if summ else None, stub.get("firmware_vendor")))
    keys = check_keys(text)
    ok(keys == "", "%s: every key of every record is in the report's identity schema" % case, keys)
done()
