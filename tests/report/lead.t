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
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
f = float(sys.argv[2])
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("probe") == "clocks" and isinstance(r.get("ns_per_call"), (int, float)):
        r["ns_per_call"] *= f
    print(record_line(r))
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

# From 0 (issue: a figure that is 0 in either run never led): copies of the
# pc capture where tsc's warps, noise's stolen time on cpu 0 and the SMIs
# while noise ran are 0 (a), then 12 warps of up to 850 ns, 5.2 %, 400 SMIs
# (b); 5 warps are within Poisson noise of 0 (3 sqrt(5) = 6.7) and do not lead.
from_zero() {	# from_zero WARPS WARP_NS STOLEN SMIS
	python3 - "$D/serial-pc-quick.log" "$@" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
warps, warp_ns, stolen, smis = (float(a) for a in sys.argv[2:])
def out(r):
    print(record_line(r))
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("probe") == "tsc" and r.get("name") == "sync cpu0-cpu1":
        r.update(warps=int(warps), max_warp_ns=warp_ns, max_warp_ticks=round(warp_ns * 2.6))
    if r.get("probe") == "noise" and r.get("name") == "cpu 0":
        r["stolen_pct"] = stolen
    if r.get("type") == "end":
        out({"type": "attribution", "for_probe": "noise", "ran_ms": 2000, "smis": int(smis)})
        r["records"] = r.get("records", 0) + 1
    out(r)
PY
}
from_zero 0 0 0 0 >"$TMP/z0.log"
from_zero 12 850 5.2 400 >"$TMP/z1.log"
lead --label=a,b "$TMP/z0.log" "$TMP/z1.log"
grep -q "sync cpu0-cpu1 .*: warps  *0  *12 " "$TMP/lead" &&
	grep -q "sync cpu0-cpu1 .*: max_warp_ns  *0  *850 " "$TMP/lead" &&
	grep -q "cpu 0 .*: stolen_pct  *0  *5.2 " "$TMP/lead" && grep -q "while noise ran: smis per s" "$TMP/lead"
pass $? "from 0: warps 0 -> 12, max_warp_ns 0 -> 850, stolen 0 -> 5.2 %, SMIs 0 -> 400 each lead"
diag "$TMP/lead"
sed -n 2,5p "$TMP/lead" | grep -c "warps \|max_warp_ns \|stolen_pct \|smis per s" | grep -qx 4
pass $? "and rank above every ratio"
from_zero 5 0 0.5 5 >"$TMP/z2.log"
lead --label=a,b "$TMP/z0.log" "$TMP/z2.log"
! grep -q "warps \|stolen_pct \|smis per s" "$TMP/lead"
pass $? "from 0 within noise: 5 warps, 0.5 % stolen (floor 1 %), 5 SMIs do not lead"
diag "$TMP/lead"

done_testing
