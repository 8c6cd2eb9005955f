#!/bin/sh
# SPDX-License-Identifier: MIT
# `timeprobe` on a host: commands, usage errors (one line, exit 2), and a run
# whose records are all valid and counted by its end record.
set -u
tp=build/timeprobe
. tests/lib/tap.sh
one_line() { [ "$("$@" 2>&1 >/dev/null | wc -l)" = 1 ]; }

exits "list" 0 $tp list
# list --compare: one NAME=VALUE per option whose default differs by environment
ok "list --compare: NAME=VALUE lines, one per option" sh -c \
	"$tp list --compare | grep -vqE '^[a-z][a-z0-9-]*=-?[0-9]+\$' && exit 1; [ \$($tp list --compare | wc -l) -ge 3 ]"
want_prio=0
rtprio=$(ulimit -r 2>/dev/null || echo 0)
{ [ "$(id -u)" = 0 ] || [ "$rtprio" = unlimited ] || [ "$rtprio" -ge 90 ]; } 2>/dev/null && want_prio=90
ok "list --compare: SCHED_FIFO 90 for wakeup where this user may ($want_prio)" sh -c \
	"$tp list --compare | grep -qx 'wakeup-priority=$want_prio'"
ok "list names every probe" sh -c "$tp list | awk '{print \$1}' | tr '\n' ' ' | grep -q 'clocks.*yield.*switch.*tsc.*itimer.*wakeup.*noise'"
exits "help" 0 $tp --help
ok "help lists the options with defaults" sh -c "$tp help | grep -q 'watchdog' && $tp help | grep -q 'default'"
exits "no command is a usage error" 2 $tp
exits "unknown command" 2 $tp frobnicate
ok "unknown command: one line" one_line $tp frobnicate
exits "unknown option" 2 $tp run --nosuch=1
ok "unknown option: one line naming it" sh -c "$tp run --nosuch=1 2>&1 | grep -q -- '--nosuch'"
exits "bad profile" 2 $tp run --profile=fast
ok "bad profile: one line naming the value" sh -c "[ \$($tp run --profile=fast 2>&1 | wc -l) = 1 ] && $tp run --profile=fast 2>&1 | grep -q fast"
exits "unknown probe" 2 $tp run --probes=nosuch
exits "negative repeat" 2 $tp run --repeat=-1
exits "absurd timeout" 2 $tp run --timeout=99999999999
exits "stray argument" 2 $tp run clocks

# a real run: records valid, end counts them, failures give exit 1
out=$(mktemp)
$tp run --probes=clocks --profile=quick --clocks-sweep=0 > "$out"
ok "run exits 0" [ $? = 0 ]
ok "records valid, run first, end last and counting" python3 - "$out" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import records
recs, corrupt = records(open(sys.argv[1]).read())
assert corrupt == 0, corrupt
assert recs[0]["type"] == "run" and recs[0]["env"] == "os"
assert recs[-1]["type"] == "end" and recs[-1]["records"] == len(recs) - 1
PY
$tp run --probes=clocks --profile=quick --clocks-sweep=0 --inject=exit > "$out"
ok "a failed probe makes run exit 1" [ $? = 1 ]
# the records of a type, CRC checked (tools/tp1rec.py), one JSON a line
python3 tools/tp1rec.py all error "$out" > "$out.type"
ok "and its error record is there" grep -q '"probe":"exit","reason":"exit"' "$out.type"
# an old spelling (README's table): still sets the value, a warning says the new name
$tp run --probes=yield --profile=quick --threads=1 > "$out" 2>/dev/null
ok "old spelling --threads=1: run exits 0" [ $? = 0 ]
python3 tools/tp1rec.py all warning "$out" > "$out.type"
ok "it gives a warning record naming yield-threads" \
	grep -q '"type":"warning","option":"threads","value":"1","reason":"threads is now yield-threads","action":"set"' "$out.type"
exits "and no error record" 1 python3 tools/tp1rec.py last error "$out"
# the run's records (its rounds' carry "round": docs/records.md, "Rounds")
python3 tools/tp1rec.py all result "$out" | grep -v '"round":' > "$out.type"
ok "the value was set: one N, 1 thread" sh -c \
	'[ "$(grep -c "\"probe\":\"yield\".*\"threads\":" "$1")" = 1 ] && grep -q "\"threads\":1," "$1"' - "$out.type"
ok "the report shows the warning and reads every record" sh -c \
	'build/tp-report "$1" > "$1.rep" && grep -q "threads is now yield-threads" "$1.rep" &&
	 grep -Eq "records written ([0-9]+), read \1\$" "$1.rep"' - "$out"
rm -f "$out.rep" "$out.type"
rm -f "$out"
done_testing
