#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# docs/ARCHITECTURE.md names every C file of boot/, common/, userland/ (with
# probes/) and tools/report: by its path anywhere, or in its top folder's
# section (from "**FOLDER/**" to the next folder or heading) by a path
# ending that no other .c under that folder shares (`main.c` in
# userland's, `report/main.c` in tools', tools/usbwrite having one too).
# Files not yet committed count: a new file is named in the same commit.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, done, ok  # noqa: E402

CHECKED = ["boot", "common", "userland", "tools/report"]
DOC = "docs/ARCHITECTURE.md"
C_NAME = re.compile(r"[\w./-]+\.c(?![\w.])")


def c_files(folder):
    """Every .c under folder, as paths from the root, build outputs aside."""
    found = []
    for d, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = [x for x in dirs if x != "build"]
        found += [os.path.relpath(os.path.join(d, f), ROOT) for f in files if f.endswith(".c")]
    return sorted(found)


def sections(text):
    """{top folder: the names of .c files its section of the doc holds}."""
    out, top = {}, None
    for para in re.split(r"\n\s*\n", text):
        head = re.match(r"\*\*([\w-]+)/\*\*", para)
        if head:
            top = head.group(1)
        elif para.startswith("#") or para.startswith("**"):
            top = None
        if top:
            out.setdefault(top, set()).update(C_NAME.findall(para))
    return out


def named(path, doc_names, section, siblings):
    """Whether the doc names path: whole, or by an ending in its section that
    no other file under the same top folder has."""
    if path in doc_names:
        return True
    for name in section:
        others = [s for s in siblings if s != path and ("/" + s).endswith("/" + name)]
        if ("/" + path).endswith("/" + name) and not others:
            return True
    return False


try:
    with open(os.path.join(ROOT, DOC), encoding="utf-8") as f:
        text = f.read()
except OSError as e:
    ok(False, "%s readable" % DOC, e)
    done()

doc_names = set(C_NAME.findall(text))
by_top = sections(text)
files = [p for folder in CHECKED for p in c_files(folder)]
ok(len(files) > 20 and "userland/main.c" in files and "boot/stub.c" in files,
   "the C files are found (%d)" % len(files))
ok(set(by_top) >= {"boot", "common", "userland", "tools"},
   "%s has a section per top folder" % DOC, sorted(by_top))
for path in files:
    top = path.split("/")[0]
    ok(named(path, doc_names, by_top.get(top, set()), c_files(top)),
       "%s names %s" % (DOC, path))
done()
