#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/tp1rec.py, the one Python reader and writer of TP1 records: its
length limit is common/record.h's, it reads what the report's scanner reads
(captures with a lone CR, two records on a line) and refuses what
docs/records.md refuses (a bad CRC, a line longer than the limit, JSON that
is not a record); its command line for shell scripts."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BUILD, LINE_MAX, ROOT, done, frame, ok, parse_line, record_line, records, skip  # noqa: E402

TOOL = os.path.join(ROOT, "tools", "tp1rec.py")
DATA = os.path.join(ROOT, "tests", "data")

with open(os.path.join(ROOT, "common", "record.h")) as f:
    m = re.search(r"^#define TP_REC_LINE_MAX (\d+)", f.read(), re.M)
ok(m and int(m.group(1)) == LINE_MAX, "LINE_MAX is common/record.h's TP_REC_LINE_MAX",
   "header %s, tp1rec %d" % (m and m.group(1), LINE_MAX))


def padded(total):
    """A record line of exactly `total` bytes, "TP1 " to the CRC's last digit."""
    base = record_line({"type": "result", "probe": "p", "name": "x", "pad": ""})
    return record_line({"type": "result", "probe": "p", "name": "x", "pad": "z" * (total - len(base))})


line = padded(LINE_MAX)
ok(len(line) == LINE_MAX and parse_line(line) == ([json.loads(line[4:-10])], 0),
   "a record of LINE_MAX bytes is read", len(line))
line = padded(LINE_MAX + 1)
ok(len(line) == LINE_MAX + 1 and parse_line(line) == ([], 1),
   "one byte longer is corrupt, whatever its CRC", parse_line(line)[1])

good = record_line({"type": "end", "records": 0})
bad = good[:-1] + ("0" if good[-1] != "0" else "1")
ok(parse_line(bad) == ([], 1), "a bad CRC is corrupt")
ok(parse_line("kernel: hello") == ([], 0), "a line without TP1 { is no record and not corrupt")
for js in ('{"type":null}', '{"probe":"x"}', '{"type":3}', "{not json}"):
    ok(parse_line(frame(js)) == ([], 1),
       "a matching CRC over %s is corrupt: not a record" % js)
ok(parse_line("\x1b[2J\x1b[01;01H" + good) == ([{"type": "end", "records": 0}], 0),
   "a record after firmware escapes is read")
ok(parse_line(good + good) == ([{"type": "end", "records": 0}] * 2, 0),
   "two records on one line are two records")
ok(parse_line(bad + good) == ([{"type": "end", "records": 0}], 1),
   "a corrupt record then a good one on one line: one of each")
ok(records("a\r" + good + "\r\n" + good + "\rb")[0] == [{"type": "end", "records": 0}] * 2,
   "lines end in LF, CR LF or a lone CR")
ok(records([good + "\n", "x\n"]) == ([{"type": "end", "records": 0}], 0), "lines as a list")

# the report's scanner reads the same captures: the same count of records
for name in ("capture-cr-only.log", "capture-two-per-line.log", "serial-pc-quick.log"):
    path = os.path.join(DATA, name)
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        recs, corrupt = records(f.read())
    rep = os.path.join(BUILD, "tp-report")
    if not os.access(rep, os.X_OK):
        skip("%s: as many records as tp-report reads" % name, "no build/tp-report (make report)")
        continue
    p = subprocess.run([rep, "--format=json", path], capture_output=True, text=True)
    files = json.loads(p.stdout)["files"] if p.returncode == 0 else [{}]
    ok((len(recs), corrupt) == (files[0].get("records"), 0),
       "%s: as many records as tp-report reads, none corrupt" % name,
       "tp1rec %d (%d corrupt), tp-report %s" % (len(recs), corrupt, files[0].get("records")))


def tool(*args, stdin=None):
    p = subprocess.run([sys.executable, TOOL] + list(args), input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


log = os.path.join(DATA, "serial-pc-quick.log")
ok(tool("frame", '{"type":"end"}') == (0, 'TP1 {"type":"end"} *5487f305\n', ""),
   "frame: a JSON argument as a TP1 line")
ok(tool("frame", stdin='{"type":"a"}\n{"type":"b"}\n')[1] ==
   record_line({"type": "a"}) + "\n" + record_line({"type": "b"}) + "\n", "frame: stdin lines")
ok(tool("last", "run", "accel", log) == (0, "tcg:max\n", ""), "last: a field of the last run record")
ok(tool("last", "end", "records", log)[1] == "145\n", "last: a number as JSON")
ok(tool("last", "end", "nosuchfield", log)[0] == 1, "last: exit 1 without the field")
ok(tool("last", "nosuchtype", log)[:2] == (1, ""), "last: exit 1 without such a record")
mixed = os.path.join(BUILD, "tests", "tp1rec-all.log")
os.makedirs(os.path.dirname(mixed), exist_ok=True)
with open(mixed, "w") as f:
    f.write("\n".join(record_line({"type": t, "n": i}) for i, t in enumerate("abab")) + "\n")
ok(tool("all", "b", mixed) == (0, '{"type":"b","n":1}\n{"type":"b","n":3}\n', ""),
   "all: every record of a type, one JSON a line")
os.unlink(mixed)
rc, _, err = tool("last", "run", os.path.join(DATA, "no-such.log"))
ok(rc == 2 and "no-such.log" in err, "a missing file: exit 2, named", err)
ok(tool("last")[0] == 2 and tool("all", "a", "b", "c")[0] == 2, "usage errors: exit 2")
done()
