#!/bin/sh
# SPDX-License-Identifier: MIT
# The report's memory stays under 8 times its input on the widest records:
# 2 000 distinct results of 560 keys each (tools/bench/report-data.py wide,
# written here, about 13 MB) peak under 8x the file's size in resident
# memory, whatever the output; what would have grown past it is left unread,
# with one line saying so (docs/comparing.md, section 3). Memory is counted
# by the kernel (getrusage's ru_maxrss), not timed.
. "$(dirname "$0")/lib.sh"

python3 tools/bench/report-data.py wide 2000 "$TMP/wide.log"
size=$(wc -c <"$TMP/wide.log")

# maxrss FORMAT: runs the report on the wide log, its peak resident KiB into $kib
maxrss() {
	python3 - "$TP_REPORT" "$1" "$TMP/wide.log" "$TMP/out" "$TMP/err" <<'PY'
import resource, subprocess, sys
tp, fmt, log, out, err = sys.argv[1:]
with open(out, "w") as o, open(err, "w") as e:
    rc = subprocess.run([tp, "--format=" + fmt, log], stdout=o, stderr=e).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}

for fmt in text json; do
	set -- $(maxrss $fmt)
	rc=$1 kib=$2
	echo "# --format=$fmt: peak $kib KiB for $size bytes ($((kib * 1024 * 10 / size)) tenths of the input)"
	[ "$rc" -eq 0 ] && [ $((kib * 1024)) -lt $((size * 8)) ]
	pass $? "--format=$fmt: 2 000 results x 560 keys peak under 8x their input"
	diag "$TMP/err"
	grep -q "^report: $TMP/wide.log: read the first [0-9]* bytes (what the report keeps of them reached 3 times the input's size); the rest was ignored$" "$TMP/err"
	pass $? "--format=$fmt: what was left unread is said in one line"
done

done_testing
