# SPDX-License-Identifier: MIT
"""TP1 records in Python (docs/records.md): the one reader (CRC and length
checked), the one writer and the suite's span. Standard library only: the
LAVA converter (tools/lava/tp1-to-lava.py) imports it from the checkout on a
LAVA worker, the bench scripts and every test through tests/lib/tp1.py.
Shell scripts run it:

    tp1rec.py frame [JSON...]          each JSON text (or non-empty stdin line) as a TP1 line
    tp1rec.py last TYPE [FIELD] FILE   the last TYPE record, or its FIELD
    tp1rec.py all TYPE FILE            every TYPE record's JSON, one a line

`last` and `all` exit 1 when FILE has no TYPE record (or FIELD), 2 on a
usage error or a file they cannot read."""
import json
import re
import sys
import zlib

# TP_REC_LINE_MAX of common/record.h: the longest record, "TP1 " to the CRC's
# last digit. tests/host/tp1rec.t fails when the two differ.
LINE_MAX = 8190
START = "TP1 {"
TAIL = re.compile(r" \*([0-9a-f]{8})")
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>c])")
LINES = re.compile(r"\r\n|\r|\n")


def _record_at(line, i):
    """(record, end) for the record starting at line[i]: it ends at the first
    " *crc" within LINE_MAX whose CRC matches; (None, i) when there is none or
    its JSON is not an object with a string "type"."""
    for m in TAIL.finditer(line, i + 4, i + LINE_MAX):
        js = line[i + 4:m.start()]
        if zlib.crc32(js.encode()) != int(m.group(1), 16):
            continue
        if len(line[i:m.end()].encode()) > LINE_MAX:
            break
        try:
            rec = json.loads(js)
        except ValueError:
            break
        if isinstance(rec, dict) and isinstance(rec.get("type"), str):
            return rec, m.end()
        break
    return None, i


def parse_line(line):
    """(records, corrupt) on one line of a log, firmware escapes removed: a
    record may follow other text, and the next may follow it on the same
    line; every "TP1 {" that starts no valid record counts as corrupt."""
    line = ANSI.sub("", line)
    recs, corrupt = [], 0
    i = line.find(START)
    while i >= 0:
        rec, end = _record_at(line, i)
        if rec is None:
            corrupt += 1
            end = i + len(START)
        else:
            recs.append(rec)
        i = line.find(START, end)
    return recs, corrupt


def records(text):
    """(records, corrupt) of a log given as one text or as lines: every
    record in order and the count of corrupt ones. Lines end in LF, CR LF or
    a lone CR."""
    lines = LINES.split(text) if isinstance(text, str) else text
    recs, corrupt = [], 0
    for line in lines:
        r, c = parse_line(line)
        recs += r
        corrupt += c
    return recs, corrupt


def frame(js):
    """JSON text framed as common/record.c frames it: "TP1 ", the text, " *",
    its CRC-32 (no newline). The text is taken as it is, hostile or not."""
    return "TP1 %s *%08x" % (js, zlib.crc32(js.encode()))


def record_line(obj):
    """One record as the emitter writes it: compact JSON, framed."""
    return frame(json.dumps(obj, separators=(",", ":")))


def suite_records(recs):
    """The records of the last suite run: its `run` up to the `end` after it."""
    start = max((i for i, r in enumerate(recs) if r["type"] == "run"), default=None)
    if start is None:
        return []
    out = []
    for r in recs[start:]:
        out.append(r)
        if r["type"] == "end":
            break
    return out


def _text(v):
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))


def main(argv):
    """The shell's way in (the module's top comment)."""
    if argv[:1] == ["frame"]:
        for js in argv[1:] or (l.rstrip("\n") for l in sys.stdin if l.strip()):
            print(frame(js))
        return 0
    if len(argv) not in (3, 4) or argv[0] not in ("last", "all") or (argv[0] == "all" and len(argv) == 4):
        print("usage: tp1rec.py frame [JSON...] | last TYPE [FIELD] FILE | all TYPE FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[-1], encoding="utf-8", errors="replace", newline="") as f:
            recs, _ = records(f.read())
    except OSError as e:
        print("tp1rec.py: %s: %s" % (argv[-1], e.strerror), file=sys.stderr)
        return 2
    found = [r for r in recs if r["type"] == argv[1]]
    if argv[0] == "all":
        for r in found:
            print(_text(r))
    elif found and (len(argv) == 3 or argv[2] in found[-1]):
        print(_text(found[-1] if len(argv) == 3 else found[-1][argv[2]]))
    else:
        return 1
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
