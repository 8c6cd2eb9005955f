#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# PID 1 keeps of the stub's file only the record types the stub writes
# (tp_stub_types, common/stubfile.c). Every type boot/ begins a record with
# (tp_con_rec(..., "name") or a TP_* macro of common/) must be in that list,
# and every listed type must be written somewhere: else a stub record would
# be dropped, or a type the stub never writes be taken from the stick. The
# scan first meets a planted call, which it must find.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, done, ok  # noqa: E402

CALL = re.compile(r"tp_con_rec\(\s*[^,]+,\s*([A-Za-z_][A-Za-z0-9_]*|\"[^\"]*\")\s*\)")
DEFINE = re.compile(r"#define\s+(TP_\w+)\s+\"([^\"]*)\"")


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def macros():
    out = {}
    for f in os.listdir(os.path.join(ROOT, "common")):
        if f.endswith(".h"):
            out.update(DEFINE.findall(read("common/" + f)))
    return out


def written(texts, defs):
    """The types the calls in texts begin records with; a name no macro defines as itself."""
    types = set()
    for t in texts:
        for arg in CALL.findall(t):
            types.add(arg[1:-1] if arg.startswith('"') else defs.get(arg, "?" + arg))
    return types


defs = macros()
ok(written(['r = tp_con_rec(&s->con, "planted");', "tp_con_rec(c, TP_STUB_HANDOFF)"], defs)
   == {"planted", "stub_handoff"}, "the scan finds a literal and a macro")
src = [read(os.path.join(d, f)) for d in ("boot", "boot/arm64")
       for f in sorted(os.listdir(os.path.join(ROOT, d))) if f.endswith(".c")]
types = written(src, defs) - {"?type"}      # console.c's tp_con_rec() itself passes `type` on
body = re.search(r"tp_stub_types\[\] = \{(.*?)\};", read("common/stubfile.c"), re.S).group(1)
listed = {defs.get(x, x.strip('"')) for x in re.findall(r"\"[^\"]*\"|TP_\w+", body)}
ok(len(types) >= 10 and types <= listed, "every type the stub writes is in tp_stub_types (%d)" % len(types),
   "not listed: %s" % sorted(types - listed))
ok(listed <= types, "every type in tp_stub_types is one the stub writes",
   "never written: %s" % sorted(listed - types))
done()
