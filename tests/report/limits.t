#!/bin/sh
# SPDX-License-Identifier: MIT
# What tp-report keeps is bounded whatever it reads: input that never ends
# stops at --max-input with one line saying so, a line longer than the
# scanner keeps is skipped and counted, and a record longer than any the
# emitter writes is refused as too long (docs/comparing.md, section 3).
# No timing is asserted here (tools/bench/report-cost.sh measures it).
. "$(dirname "$0")/lib.sh"

D=tests/data

# the default limit: a device that never ends is read to 1 GiB, then the report stops
run "$TP_REPORT" /dev/zero
[ $rc -eq 1 ] && grep -qx "report: /dev/zero: read the first 1073741824 bytes (--max-input=1G); the rest was ignored" "$TMP/err"
pass $? "/dev/zero ends at the default limit, with one line naming it"
grep -qx "report: /dev/zero: 1 line longer than 1048576 bytes skipped" "$TMP/err"
pass $? "... its one endless line is skipped and counted"
diag "$TMP/err"

run "$TP_REPORT" --max-input=64K /dev/zero
[ $rc -eq 1 ] && grep -qx "report: /dev/zero: read the first 65536 bytes (--max-input=64K); the rest was ignored" "$TMP/err"
pass $? "--max-input=64K: /dev/zero stops at 64 KiB"

# a log cut by the limit: the records before it are reported, the rest not
size=$(wc -c <$D/report-host.log)
half=$(awk '/"type":"end"/ { print n; exit } { n += length($0) + 1 }' $D/report-host.log)
run "$TP_REPORT" --max-input="$half" $D/report-host.log
[ $rc -eq 0 ] && grep -q "read the first $half bytes (--max-input=$half); the rest was ignored" "$TMP/err" &&
	grep -q "no end record" "$TMP/out"
pass $? "a log cut before its end record: what came before is reported, without an end"
run "$TP_REPORT" --max-input="$size" $D/report-host.log
[ $rc -eq 0 ] && ! grep -q "max-input" "$TMP/err"
pass $? "a limit equal to the file's size cuts nothing and says nothing"

for bad in 0 -1 1T 12x K 99999999999999999999 18014398509481984K; do
	run "$TP_REPORT" --max-input="$bad" $D/report-host.log
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "bad option '--max-input=$bad'" "$TMP/err"
	pass $? "--max-input=$bad refused: one line, exit 2"
done

# records at the emitter's limit (TP_REC_LINE_MAX, 8190 bytes) and one byte beyond
python3 - "$TMP/long.log" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import LINE_MAX, record_line
def rec(pad):
    return record_line({"type": "result", "probe": "long", "name": "x", "pad": pad})
base = len(rec(""))
with open(sys.argv[1], "w") as f:
    f.write(rec("a" * (LINE_MAX - base)) + "\n")
    f.write(rec("b" * (LINE_MAX + 1 - base)) + "\n")
PY
run "$TP_REPORT" --format=json "$TMP/long.log"
[ $rc -eq 0 ] && grep -qx "report: $TMP/long.log: 1 corrupt record skipped (1 longer than 8190 bytes, the most a record can be)" "$TMP/err"
pass $? "a record one byte longer than the emitter writes: refused as too long, not a bad CRC"
diag "$TMP/err"
python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["files"][0]; sys.exit(not (f["records"] == 1 and f["too_long"] == 1 and f["bad_crc"] == 0))' "$TMP/out"
pass $? "the record of 8190 bytes is read; JSON counts the other as too_long"

# what is kept follows the results, not the records: 200,000 records (49 MB)
# of four results fit in 160 MB of address space (the whole file and every
# record as a JSON object did not: three in four were lost)
python3 tools/bench/report-data.py records 200000 "$TMP/many.log"
if (ulimit -v 160000) 2>/dev/null; then
	run sh -c 'ulimit -v 160000 && exec "$@"' sh "$TP_REPORT" "$TMP/many.log"
	[ $rc -eq 0 ] && [ ! -s "$TMP/err" ] && grep -q "records written 200001, read 200001" "$TMP/out"
	pass $? "200,000 records read whole within 160 MB of address space"
	diag "$TMP/err"
else
	skip "200,000 records read whole within 160 MB of address space" "ulimit -v is not available here"
fi
rm -f "$TMP/many.log"

done_testing
