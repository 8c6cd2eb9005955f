#!/bin/sh
# SPDX-License-Identifier: MIT
# The report's rough edges a hostile review found (issue 36), one case each:
# what a record holds cannot pass for a KTAP directive, reach a terminal raw
# through a warning, or wrap a histogram's count.
. "$(dirname "$0")/lib.sh"

run_rec='{"type":"run","schema":1,"env":"os","machine":"x"}'

# An error whose reason begins with "SKIP": a KTAP reader must see a failure.
tp1 "$run_rec" '{"type":"error","probe":"clocks","name":"clocks","reason":"SKIP this: it broke"}' \
	'{"type":"end","records":3}' >"$TMP/err.log"
run "$TP_REPORT" --format=ktap "$TMP/err.log"
grep -q '^ *not ok [0-9]* clocks # failed: SKIP this: it broke$' "$TMP/out" &&
	! grep -q '# SKIP this' "$TMP/out"
pass $? "KTAP: an error whose reason begins with SKIP stays a failure, no directive"
diag "$TMP/out"

# A keys record whose probe and key names hold ESC, BEL and a newline: the warning names
# them written out, so the terminal sees no control character and one line.
tp1 "$run_rec" '{"type":"keys","for_probe":"p\u001b[2J\u0007","keys":{"k\nx":["bogus",null,null,null]}}' \
	>"$TMP/esc.log"
run "$TP_REPORT" "$TMP/esc.log"
! grep -q "$(printf '[\033\007]')" "$TMP/err" && grep -q 'keys record of p\\x1b\[2J\\x07, key k\\nx' "$TMP/err" &&
	[ "$(grep -c 'keys record of' "$TMP/err")" = 1 ] && [ "$(grep -c . "$TMP/err")" = "$(wc -l <"$TMP/err")" ]
pass $? "stderr: a record's ESC, BEL and newline are written out in a warning"
diag "$TMP/err"

# Two iterations whose one bucket holds INT64_MAX each: the sum holds there, never wraps
# negative (a signed overflow before).
big=9223372036854775807
for i in 1 2; do
	printf '{"type":"result","probe":"wakeup","name":"w","iteration":%s,"mechanism":"m","latency_ns_p50":1,"hist":{"width_ns":1000,"buckets":{"3":%s},"overflow":0}}\n' "$i" "$big"
done >"$TMP/hist.json"
tp1 "$run_rec" "$(sed -n 1p "$TMP/hist.json")" "$(sed -n 2p "$TMP/hist.json")" '{"type":"end","records":4}' \
	>"$TMP/hist.log"
run "$TP_REPORT" --plot="$TMP/plots" "$TMP/hist.log"
dat=$(ls "$TMP"/plots/hist-*.dat 2>/dev/null | head -1)
[ -n "$dat" ] && ! grep -q -- ' -[0-9]' "$dat" && grep -q "$big" "$dat"
pass $? "histogram: two buckets of INT64_MAX add up to INT64_MAX, not a negative count"
[ -n "$dat" ] && diag "$dat"
diag "$TMP/err"

# A clock read of 0 ns (a crafted or broken record) has no place on the chart's log axis:
# its row is left out, and the page is written, rc 0 (gnuplot stopped it, rc 1, before).
tp1 "$run_rec" '{"type":"result","probe":"clocks","name":"c","path":"vdso","clocksource":"tsc","ns_per_call":0}' \
	'{"type":"end","records":3}' >"$TMP/zero.log"
run "$TP_REPORT" --html="$TMP/html" "$TMP/zero.log"
[ $rc -eq 0 ] && [ -s "$TMP/html/index.html" ] && ! grep -q "gnuplot .*exit" "$TMP/err"
pass $? "HTML: a zero clocks figure leaves the chart's row out, the page is written, rc 0"
diag "$TMP/err"

# 10 000 clock rows: the chart holds as many as a PNG canvas can (a 0-byte PNG before).
if command -v gnuplot >/dev/null; then
	python3 - "$TMP/bars.log" <<'PY'
import json, sys
sys.path.insert(0, "tools")
from tp1rec import record_line
recs = [{"type": "run", "schema": 1, "env": "os", "machine": "x"}]
recs += [{"type": "result", "probe": "clocks", "name": "c%d" % i, "path": "vdso",
          "clocksource": "tsc", "ns_per_call": 10 + i} for i in range(10000)]
recs.append({"type": "end", "records": 10002})
with open(sys.argv[1], "w") as f:
    f.write("\n".join(record_line(r) for r in recs) + "\n")
PY
	run "$TP_REPORT" --plot="$TMP/bars" "$TMP/bars.log"
	rows=$(grep -c '^[0-9]' "$TMP/bars/clocks.dat")
	[ $rc -eq 0 ] && [ -s "$TMP/bars/clocks.png" ] && [ "$rows" -gt 1000 ] && [ "$rows" -lt 10000 ]
	pass $? "10 000 bars: a PNG that is not empty, of the $rows rows one chart can hold"
	diag "$TMP/err"
else
	skip "10 000 bars: a PNG" "gnuplot not installed"
fi

# 2000 records of 200 keys each, every key new (5 MB): the report keeps at most
# RESULT_KEYS_MAX keys of a result, so it reads them within 256 MiB of address space
# (it grew about 83x its input before, past 400 MiB), says so once, and ends.
python3 - "$TMP/keys.log" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line
with open(sys.argv[1], "w") as f:
    f.write(record_line({"type": "run", "schema": 1, "env": "os", "machine": "x"}) + "\n")
    for i in range(2000):
        r = {"type": "result", "probe": "clocks", "name": "c", "path": "vdso"}
        r.update(("k%d_%d" % (i, k), 1) for k in range(200))
        f.write(record_line(r) + "\n")
PY
(ulimit -v 262144; exec timeout 300 "$TP_REPORT" "$TMP/keys.log") >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'more than 4096 different keys; the rest are left out' "$TMP/err")" = 1 ]
pass $? "5 MB of records with 400 000 different keys: read within 256 MiB, said once (rc $rc)"
diag "$TMP/err"

done_testing
