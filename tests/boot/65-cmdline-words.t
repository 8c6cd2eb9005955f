#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Linux's word rules, booted (issue 50, H2, H3, S1): cmdline.txt files
whose words only Linux's own rules split and name right. First, 40 vN=1
words joined by U+00A0 (C2 A0), which Linux's Latin-1 isspace() splits at
its A0 byte into 40 environment entries ("Too many boot env vars" past 30),
then a quoted "--" (and timeprobe.calib-rounds=3, dashed): the stub must drop the ten past Linux's limit, put its
words before the "--", and the run must end. Then tsc_early_khz=1234567 and
tsc-early-khz=1234567 (Linux's parameq takes '-' as '_'): the kernel runs
on a figure a person typed, which the fingerprint and the tsc records must
call the user's, and whose 110 % disagreement with the stub's the verdict
and the readiness record must judge, not excuse as one origin."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa


def run(name, data):
    img = image_copy(name)
    put_cmdline(img, data)
    status, secs, text = boot(img, "q35", timeout=900)
    ok(status == 0, "%s: QEMU exited by itself (%.0f s)" % (name, secs), text[-2000:])
    suite = check_suite(text, name + ": ")
    recs, _ = records(text)
    return suite, recs, ANSI.sub("", text)


if not os.path.exists(IMAGE):
    bail("no %s: run `make image` first" % IMAGE)
default = esp_read(IMAGE, "/EFI/timeprobe/cmdline.txt").strip().encode()

# 1. 40 words joined by NBSP, then a quoted "--" (S1) and an init argument.
nbsp = "\u00a0".join("v%d=1" % i for i in range(40)).encode()
suite, recs, plain = run("words-nbsp", default + b" " + QUICK.encode() + b" "
                         b"timeprobe.calib-rounds=3 " + nbsp + b' "--" initarg\n')
iw = [r for r in recs if r["type"] == "stub_warning" and r.get("what") == "cmdline_init_words"]
ok(iw and iw[0].get("envs_dropped") == 10,
   "NBSP-joined: the stub counts 40 entries as Linux does and drops the 10 past 30", iw)
ok("Too many boot env vars" not in plain and suite and suite[-1]["type"] == "end",
   "NBSP-joined: no kernel panic, the run reaches its end record")
kcl = kernel_cmdline(plain) or ""
ok("v29=1" in kcl and "v30=1" not in kcl, "NBSP-joined: v0..v29 kept, v30.. gone", kcl)
ok(re.search(r' panic=0 tsc_early_khz=\d+ "--" initarg$', kcl) is not None,
   'a quoted "--": the stub\'s words go before it', kcl)
calib = [r for r in recs if r["type"] == "calib" and r.get("source") == "stub" and "rounds" in r]
ok(calib and all(r["rounds"] == 3 for r in calib) and suite and
   suite[0].get("stub_options") == {"calib_rounds": "3"},
   "timeprobe.calib-rounds=3 (dashed, S5): the stub obeys it, the suite lists it as calib_rounds",
   ([r.get("rounds") for r in calib], suite[0].get("stub_options") if suite else None))


# 2, 3. A typed tsc_early_khz=, in each spelling: the user's, and judged.
def typed(name, word):
    suite, recs, plain = run(name, default + b" timeprobe.profile=quick timeprobe.probes=tsc " +
                             word + b"\n")
    cl = first(recs, "stub_cmdline")
    ok(not cl.get("added_tsc_early") and "tsc_early_khz=" not in cl.get("cmdline", "").replace(
       word.decode(), ""), "%s: the stub adds no tsc_early_khz= of its own" % name, cl)
    fp = first(suite, "fingerprint")
    ok(fp.get("kernel_tsc_khz") == 1234567 and fp.get("kernel_tsc_early_khz_by") == "user" and
       "set by the user" in fp.get("kernel_tsc_from", ""),
       "%s: the fingerprint says the kernel's figure is the user's" % name,
       {k: v for k, v in fp.items() if k.startswith("kernel_tsc")})
    km = [r for r in suite if r.get("probe") == "tsc" and r.get("name") == "kernel tsc messages"]
    ok(km and km[0].get("tsc_early_khz") == 1234567 and km[0].get("tsc_early_khz_by") == "user",
       "%s: the tsc record says the user set tsc_early_khz=" % name, km)
    ag = [r for r in suite if r.get("probe") == "tsc" and r.get("name") == "tsc agreement"]
    ppm = ag[0].get("stub_vs_kernel_ppm") if ag else None
    ok(ag and "stub_vs_kernel_ppm" not in ag[0].get("by_construction", []) and
       isinstance(ppm, (int, float)) and abs(ppm) > 500000,
       "%s: stub vs kernel (%s ppm) is not by construction" % (name, ppm), ag)
    v = suite[-2].get("items", {}) if len(suite) > 1 else {}
    it = v.get("tsc_stub_vs_kernel_ppm", {})
    ok(it.get("word") == "poor", "%s: the verdict rates stub vs kernel poor" % name, it)
    rd = suite[-3] if len(suite) > 2 and suite[-3]["type"] == "tsc_readiness" else {}
    rs = [r for r in rd.get("reasons", []) if r.get("item") == "stub_vs_kernel_ppm"]
    ok(rs and rs[0].get("passed") is False, "%s: tsc_readiness fails stub vs kernel" % name, rs)


typed("words-tsc-early-khz", b"tsc_early_khz=1234567")
typed("words-tsc-early-khz-dashed", b"tsc-early-khz=1234567")
done()
