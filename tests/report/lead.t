#!/bin/sh
# SPDX-License-Identifier: MIT
# The lead of a comparison ("Figures furthest from ...") lists only figures
# that differ beyond their noise: beyond the spreads where runs repeated, by
# more than LEAD_MIN_RATIO (1.5x, tools/report/lead.h) where not. A capture
# compared with itself, and with a copy whose clock costs are 1.2x and 2x,
# and two real captures that do differ.
. "$(dirname "$0")/lib.sh"

D=tests/data
Q=$D/serial-q35-fingerprint.log

# scaled FACTOR: the q35 capture with every clocks ns_per_call times FACTOR, CRCs redone
scaled() {
	python3 - "$Q" "$1" <<'PY'
import json, sys, zlib
f = float(sys.argv[2])
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith("TP1 "):
        continue
    r = json.loads(line.split(" ", 1)[1].rsplit(" *", 1)[0])
    if r.get("probe") == "clocks" and isinstance(r.get("ns_per_call"), (int, float)):
        r["ns_per_call"] *= f
    j = json.dumps(r, separators=(",", ":"))
    print("TP1 %s *%08x" % (j, zlib.crc32(j.encode())))
PY
}

none="(no figure differs from a by more than its noise: beyond the spreads where runs repeated, by more than 1.5x where not)"

for log in $Q $D/serial-pc-drift-repeat.log; do
	lead --label=a,b "$log" "$log"
	[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ]
	pass $? "$log compared with itself: one line, no figure"
	diag "$TMP/lead"
done

scaled 1.2 >"$TMP/x1.2.log"
lead --label=a,b $Q "$TMP/x1.2.log"
[ "$(cat "$TMP/lead")" = "  $none" ]
pass $? "every clock read 1.2x as dear, runs not repeated: within 1.5x, nothing leads"
diag "$TMP/lead"

scaled 2 >"$TMP/x2.log"
lead --label=a,b $Q "$TMP/x2.log"
[ "$(grep -c ': ns_per_call  ' "$TMP/lead")" = 10 ] && ! grep -v '^  probe' "$TMP/lead" | grep -qv ' 2.00x$'
pass $? "every clock read 2x as dear: ten ns_per_call figures lead, each at 2.00x, nothing else"
diag "$TMP/lead"

# two real captures that differ (q35 with an HPET, pc without; neither repeated): every
# figure that leads is beyond 1.5x either way
lead --label=q35,pc $Q $D/serial-pc-hpet-off-fingerprint.log
awk '$1 != "probe" { r = $NF; sub(/x$/, "", r); n++; if (r + 0 < 1.5 && r + 0 > 1 / 1.5) bad++ }
	END { exit !(n == 10 && !bad) }' "$TMP/lead"
pass $? "q35 against pc-hpet-off: ten figures lead, none within 1.5x"
diag "$TMP/lead"

# repeated against once: a mean ± spread that also is beyond 1.5x
lead --label=q35,pc $D/serial-q35-drift.log $D/serial-pc-drift-repeat.log
awk '$1 != "probe" && $1 != "attribution" { r = $NF; sub(/x$/, "", r); n++; if (r + 0 < 1.5 && r + 0 > 1 / 1.5) bad++ }
	END { exit !(n && !bad) }' "$TMP/lead" && ! grep -q "tsc_hz\|offset_\|bound_" "$TMP/lead"
pass $? "q35 once against pc twice: no figure within 1.5x, no per-boot tsc_hz, no offset interval"
diag "$TMP/lead"

done_testing
