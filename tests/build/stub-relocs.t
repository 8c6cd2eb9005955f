#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The stub (both architectures) carries only relative relocations: gnu-efi's
# self-relocation (_relocate) applies R_X86_64_RELATIVE and
# R_AARCH64_RELATIVE and nothing else, so a PLT slot or a GOT entry that
# needs a symbol stays unfilled and a call through it jumps nowhere. (GCC's
# outline atomics on arm64 made one: an AP's atomic add went through
# __aarch64_ldadd4_acq_rel@plt; boot/boot.mk builds with -mno-outline-atomics.)
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, diag, done, ok  # noqa: E402

STUBS = {"x86": "build/boot/stub.so", "arm64": "build/arm64/boot/stub.so"}
REL = re.compile(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+(R_\w+)", re.M)

for arch, path in STUBS.items():
    so = os.path.join(ROOT, path)
    if not os.path.exists(so):
        ok(False, "%s: %s is built (make efi image-arm64)" % (arch, path))
        continue
    out = subprocess.run(["readelf", "-W", "-r", "-S", so], capture_output=True, text=True).stdout
    kinds = sorted(set(REL.findall(out)))
    other = [k for k in kinds if not k.endswith("_RELATIVE")]
    ok(kinds and not other, "%s: the stub's relocations are all relative" % arch, kinds)
    ok(not re.search(r"\]\s+\.plt\s", out), "%s: the stub has no PLT" % arch)
    diag("%s: %d relocations of kinds %s" % (arch, len(REL.findall(out)), ", ".join(kinds)))
done()
