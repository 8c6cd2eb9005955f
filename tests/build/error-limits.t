#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Every numeric limit an error string names comes from the constant it
# names: in the C of boot/, common/ and userland/, a statement that returns
# a string (`return "..."`, the convention of a parser saying why) or
# calls an error writer (the names in ERRORS) must not write a limit's
# number into its text ("longer than 64 bytes", "1 to 15", "0..100",
# "more than 16"): it prints it through a format from the constant
# (`%d` of TP_X_MAX) or pastes the constant's text (TP_STR(TP_X_MAX),
# common/buf.h), so the text cannot go stale when the limit moves. KNOWN
# lists the few exceptions, each with its reason; one no longer found
# fails, so the list does not outlive them.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, diag, done, ok  # noqa: E402

FOLDERS = ["boot", "common", "userland"]
# calls whose string arguments are error text
ERRORS = re.compile(r"\b(?:emit_error|emit_skip|warn|fail|refuse|bail|err|error|perror|"
                    r"tp_con_err\w*|fprintf\s*\(\s*stderr)\s*\(|\b(?:why|err|reason)\w*\s*,")
# a limit's number as words put it: a bound phrase then digits, or a range
NUM = r"\d+(?:[.,]\d+)?(?:e\d+)?"
LIMIT = re.compile(r"\b(?:at most|more than|longer than|shorter than|up to|over|exceeds?|"
                   r"beyond|limit(?:ed)?(?: to| of| is)?|max(?:imum)?|at least|fewer than|"
                   r"less than|above|below|under|past)\s+(" + NUM + r")|(?<![\w.])(" + NUM +
                   r")\s*(?:to|\.\.)\s*(" + NUM + r")\b", re.I)
# text with a number in it that is no limit of ours, and why
KNOWN = {
    "coverage_pct outside 0..100": "a percentage's range, not a limit",
}
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|("(?:[^"\\\n]|\\.)*")', re.S)


def sources():
    for folder in FOLDERS:
        for d, dirs, files in os.walk(os.path.join(ROOT, folder)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), ROOT)


def statements(text):
    """(line, statement) of the code, comments blanked (strings kept)."""
    code = COMMENT.sub(lambda m: m.group(1) or re.sub(r"[^\n]", " ", m.group(0)), text)
    bare = STRING.sub(lambda m: '"' + "x" * (len(m.group(0)) - 2) + '"', code)
    start = 0
    for m in re.finditer(r"[;{}]", bare):
        yield code.count("\n", 0, start) + 1, code[start:m.end()]
        start = m.end()


def error_text(stmt):
    """The joined string literals of a statement that says an error, or ""."""
    if ERRORS.search(stmt):
        return "".join(STRING.findall(stmt))
    ret = re.search(r"\breturn\b", stmt)
    return "".join(STRING.findall(stmt[ret.end():])) if ret else ""


def hits(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    for line, stmt in statements(text):
        t = error_text(stmt)
        for m in LIMIT.finditer(t):
            yield line, t, m.group(0)


found, seen = [], set()
for path in sources():
    for line, text, what in hits(path):
        known = next((k for k in KNOWN if k in text), None)
        if known:
            seen.add(known)
            continue
        found.append("%s:%d: %r in %r" % (path, line, what, text[:120]))
ok(not found, "no error string writes a limit's number itself", "\n".join(found))
stale = sorted(set(KNOWN) - seen)
ok(not stale, "every known exception is still there (remove the ones fixed)", stale)
for k in sorted(seen):
    diag("known: %r: %s" % (k, KNOWN[k]))
done()
