#!/bin/sh
# SPDX-License-Identifier: MIT
# The probes' key declarations (tools/report/keys.h): the report reads them
# from a log's keys records, refuses a malformed one, and leads a
# comparison with figures only, each fact once in its primary unit
# (budgets, ticks beside ns, p999 = max below 1000 samples never lead).
. "$(dirname "$0")/lib.sh"

D=tests/data
Q=$D/serial-q35-fingerprint.log

# records: JSON objects on stdin, one a line, as TP1 lines with their CRC
records() {
	tp1
}

# wakeup N P999 MAX RANGE [KEYS]: one run whose one wakeup result has n=N
# samples, after the keys record KEYS if given, in 5 rounds (a maximum
# compares only through its rounds' maxima) a few per mille apart
wakeup() {
	{
		echo '{"type":"run","env":"os","machine":"m","kernel":"k","clocksource":"tsc","rounds":5}'
		[ -z "${5:-}" ] || echo "$5"
		for k in 1 2 3 4 5 0; do
			r=$([ $k = 0 ] || echo "\"round\":$k,")
			echo "{\"type\":\"result\",\"probe\":\"wakeup\",\"name\":\"nanosleep\",$r\"mechanism\":\"nanosleep\",\"period_us\":1000,\"clock\":\"CLOCK_MONOTONIC\",\"priority\":0,\"priority_requested\":0,\"cpu\":-1,\"samples\":$1,\"n\":$1,\"p50_ns\":5000$k,\"p999_ns\":$(($2 + k)),\"max_ns\":$(($3 + k)),\"hist_range_ns\":$4}"
		done
		echo '{"type":"end","records":2}'
	} | records
}

# the two real captures that differ: every row of the lead is a declared figure
lead --label=q35,pc $Q $D/serial-pc-hpet-off-fingerprint.log
"$TP_REPORT" --keys >"$TMP/keys"
python3 - "$TMP/lead" "$TMP/keys" >"$TMP/bad" <<'PY'
import fnmatch, json, re, sys
decl = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    decl[r["for_probe"]] = r["keys"]
def cls(probe, key):
    keys = decl.get(probe, {})
    if key in keys:
        return keys[key][0]
    return next((v[0] for k, v in keys.items() if fnmatch.fnmatchcase(key, k)), "undeclared")
# "  PROBE  RESULT: KEY  VALUES..."
rows = [re.match(r"\s*(\S+)\s.*: (\S+)", l).groups() for l in open(sys.argv[1])
        if not l.startswith("  probe ")]
for probe, key in rows:
    if probe in decl and cls(probe, key) != "figure":
        print(probe, key, cls(probe, key))
print("rows", len(rows))
PY
grep -q '^rows [1-9]' "$TMP/bad" && [ "$(grep -vc '^rows' "$TMP/bad")" = 0 ]
pass $? "q35 against pc-hpet-off: every probe row of the lead is a key its probe declares a figure"
diag "$TMP/bad"
! grep -Eq ': (step_window_ns|elapsed_ms|duration_ms|round_trips|ticks_per_call) ' "$TMP/lead"
pass $? "no budget and no ticks twin of an ns figure leads"
diag "$TMP/lead"

# These single runs carry no interval; no between-run variance (as if identical runs had
# always agreed, tp-report --floors) lets the rules of which keys may lead be seen alone.
printf 'os\twakeup\tany\tp50_ns\t0\t1\t0\t2\nos\ttscsync\tany\tbound_ns\t0\t1\t0\t2\n' >"$TMP/floors.tsv"
F=--floors=$TMP/floors.tsv

# a budget: a histogram 10x as wide does not lead, a latency 2x does
wakeup 5000 90000 100000 1000000 >"$TMP/w1.log"
wakeup 5000 180000 200000 10000000 >"$TMP/w2.log"
lead "$F" --label=a,b "$TMP/w1.log" "$TMP/w2.log"
grep -q ': p999_ns ' "$TMP/lead" && grep -q ': max_ns ' "$TMP/lead" && ! grep -q ': hist_range_ns ' "$TMP/lead"
pass $? "n=5000: p999_ns and max_ns both lead at 2x by their rounds' ranks, the budget hist_range_ns at 10x does not"
diag "$TMP/lead"

# p999 of fewer than 1000 samples is the maximum: one fact, one row
wakeup 200 100000 100000 1000000 >"$TMP/w1.log"
wakeup 200 200000 200000 1000000 >"$TMP/w2.log"
lead "$F" --label=a,b "$TMP/w1.log" "$TMP/w2.log"
grep -q ': max_ns ' "$TMP/lead" && ! grep -q ': p999_ns ' "$TMP/lead"
pass $? "n=200: p999_ns is max_ns, only max_ns leads"
diag "$TMP/lead"

# the widest bound of the pairs is a pair's bound: one fact, one row
tscsync() {
	records <<EOF2
{"type":"run","env":"os","machine":"m","kernel":"k","clocksource":"tsc"}
{"type":"result","probe":"tscsync","name":"0-1","when":"post-boot","cpu_a":0,"cpu_b":1,"bound_ns":$1,"round_trip_ns":100}
{"type":"result","probe":"tscsync","name":"1-0","when":"post-boot","cpu_a":1,"cpu_b":0,"bound_ns":10,"round_trip_ns":100}
{"type":"result","probe":"tscsync","name":"summary","when":"post-boot","pairs":2,"max_bound_ns":$1}
{"type":"end","records":4}
EOF2
}
tscsync 40 >"$TMP/t1.log"
tscsync 80 >"$TMP/t2.log"
lead "$F" --label=a,b "$TMP/t1.log" "$TMP/t2.log"
grep -q '0-1 .*: bound_ns ' "$TMP/lead" && ! grep -q ': max_bound_ns ' "$TMP/lead"
pass $? "tscsync: the pair's bound_ns leads at 2x, max_bound_ns (the largest of them) does not"
diag "$TMP/lead"

# the declaration in a log is read: the same comparison, with a keys record
# in the first log that calls max_ns and p999_ns budgets
wakeup 200 100000 100000 1000000 \
	'{"type":"keys","for_probe":"wakeup","keys":{"max_ns":["budget","ns",null,null],"p999_ns":["budget","ns",null,null]}}' \
	>"$TMP/w1-decl.log"
lead "$F" --label=a,b "$TMP/w1-decl.log" "$TMP/w2.log"
# (not "no figure compares": the keys record is in the run, the runs line up)
grep -q "^  (no figure differs from a" "$TMP/lead"
pass $? "a log's keys record is the probe's declaration: max_ns declared a budget there does not lead"
diag "$TMP/lead"

# a key only a log declares is classified: --check-keys reads the declaration
unk='{"type":"result","probe":"clocks","name":"x","frobs_per_s":1}'
echo "$unk" | records >"$TMP/unknown.log"
{ echo '{"type":"keys","for_probe":"clocks","keys":{"frobs_per_s":["figure","1/s","higher",null]}}'
  echo "$unk"; } | records >"$TMP/declared.log"
run "$TP_REPORT" --check-keys "$TMP/unknown.log"
r1=$rc
run "$TP_REPORT" --check-keys "$TMP/declared.log"
[ $r1 -eq 1 ] && [ $rc -eq 0 ]
pass $? "--check-keys: frobs_per_s unclassified (exit $r1), classified once the log declares it (exit $rc)"

# a malformed declaration is refused whole, in one line naming file, probe, key and why
{ echo '{"type":"keys","for_probe":"clocks","keys":{"frobs_per_s":["figure","1/s","higher",null],"ns_per_call":["best","ns","lower",null]}}'
  echo "$unk"; } | records >"$TMP/bad.log"
run "$TP_REPORT" --check-keys "$TMP/bad.log"
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q "^report: $TMP/bad.log: keys record of clocks, key ns_per_call: class is not id, figure, budget or context; not taken$" "$TMP/err" &&
	grep -q "unclassified key result/clocks/frobs_per_s" "$TMP/out"
pass $? "a keys record with a bad class is refused whole: one line on stderr, its other keys not taken"
diag "$TMP/err"

# a pattern fnmatch() would backtrack through too long is refused
{ echo '{"type":"keys","for_probe":"clocks","keys":{"*f*r*o*":["figure",null,null,null]}}'
  echo "$unk"; } | records >"$TMP/stars.log"
run "$TP_REPORT" --check-keys "$TMP/stars.log"
[ $rc -eq 1 ] && grep -q "key \*f\*r\*o\*: a pattern with more than two '\*'; not taken$" "$TMP/err"
pass $? "a declared pattern with three '*' is refused"
diag "$TMP/err"

# two logs that declare a probe differently: named, the first kept
{ echo '{"type":"keys","for_probe":"clocks","keys":{"frobs_per_s":["context",null,null,null]}}'
  echo "$unk"; } | records >"$TMP/other.log"
run "$TP_REPORT" --check-keys "$TMP/declared.log" "$TMP/other.log"
[ $rc -eq 0 ] && grep -q "^report: $TMP/other.log: declares the keys of clocks differently from $TMP/declared.log; the first is kept$" "$TMP/err"
pass $? "a second, different declaration of a probe is named on stderr and the first kept"
diag "$TMP/err"

done_testing
