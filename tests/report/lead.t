#!/bin/sh
# SPDX-License-Identifier: MIT
# The lead of a comparison ("Figures furthest from ...") lists only figures
# whose ratio's 95 % interval excludes the practical band around 1
# (tools/report/judge.h): from each run's own interval and the floor
# identical unloaded pairs measured (noise.h), or where both sides repeated
# from Welch's t on their means. A capture compared with itself, and with a
# copy whose clock costs are 1.2x and 2x, two real captures that do differ,
# and the identical pairs of tests/data/aa-*.
. "$(dirname "$0")/lib.sh"

D=$(sh tests/lib/testdata.sh) || exit 1	# tests/data, its sets of runs extracted
Q=$D/serial-q35-fingerprint.log

# scaled FACTOR [LOG [PROBE KEY]]: the q35 capture (or LOG) with every clocks ns_per_call
# (or PROBE's KEY) times FACTOR, CRCs redone
scaled() {
	python3 - "${2:-$Q}" "$1" "${3:-clocks}" "${4:-ns_per_call}" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
f, probe, key = float(sys.argv[2]), sys.argv[3], sys.argv[4]
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("probe") == probe and isinstance(r.get(key), (int, float)):
        r[key] *= f
    print(record_line(r))
PY
}

none="(no figure differs from a by more than its noise)"

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

# The q35 capture ran under TCG. Its identical boots (tests/data/aa-tcg*) differ by about
# 20 % between boots (a TSC instruction less, but a fresh identical pair, fresh-tcg-quiet-3,
# shows rdtsc 0.72x by chance: power.t), and each row's between-run term is its own. With
# every clock read 2x as dear, what leads (if anything) is a scaled clock read at its factor
# (how many: a diagnostic; on purpose, issue 46: one boot a side under TCG cannot promise
# 2x); at 6x rows lead, at least as many; nothing but the scaled figures does.
rows_at() {	# FACTOR: the lead's rows, all ns_per_call at FACTOR under TCG (none: 0), else -1
	if [ "$(cat "$TMP/lead")" = "  $none" ]; then
		echo 0
	elif grep -v '^  probe' "$TMP/lead" | grep -qv ": ns_per_call  .* $1.00x (TCG)$"; then
		echo -1
	else
		grep -c ": ns_per_call  " "$TMP/lead"
	fi
}
scaled 2 >"$TMP/x2.log"
lead --label=a,b $Q "$TMP/x2.log"
n2=$(rows_at 2)
[ "$n2" -ge 0 ]
pass $? "TCG, every clock read 2x as dear: $n2 rows lead, each a clock read at 2.00x"
diag "$TMP/lead-all"
scaled 6 >"$TMP/x6.log"
lead --label=a,b $Q "$TMP/x6.log"
n6=$(rows_at 6)
[ "$n6" -ge "$n2" ] && [ "$n6" -ge 1 ]
pass $? "TCG, every clock read 6x as dear: $n6 rows lead (at least the $n2 of 2x), each at 6.00x, the condition beside"
diag "$TMP/lead"

# two real captures that differ (q35 with an HPET, pc without; both TCG): the differences
# name the clocksource and what reading the default clock costs on each as booted, with its
# floor; the lead holds the figures beyond TCG's floors, the stub's hardware references among them
lead --label=q35,pc $Q $D/serial-pc-hpet-off-fingerprint.log
sed -n '/^What differs/,/^$/p' "$TMP/out" >"$TMP/diff"
grep -q "^  clocksource  *hpet  *acpi_pm$" "$TMP/diff" &&
	awk '/^  reading the default clock/ { l = $0; n = 1; next } n && /^    / { sub(/^   /, ""); l = l $0; next }
	     { n = 0 } END { print l }' "$TMP/diff" |
	grep -q "^  reading the default clock as booted (clock_gettime(CLOCK_MONOTONIC) through libc), ns: q35 1285.2 (hpet); pc 1420.4 (acpi_pm, 1.11x, noise floor [0-9.]*x)$" &&
	grep -q '^  calib  *stub: hardware_refs  *3  *2  *0.67x (TCG)$' "$TMP/lead"
pass $? "q35 against pc-hpet-off: the clocksource and the default clock's cost named, hardware_refs leads"
diag "$TMP/diff"
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
	grep -q "sync cpu0-cpu1 .*: max_warp_ns  *0 ns  *850 ns " "$TMP/lead" &&
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

# Both sides repeated (two iterations each): Welch's t on the iterations' means, its p in
# the ratio cell and the note
R=$D/serial-pc-drift-repeat.log
scaled 3 $R drift ns_per_read >"$TMP/r3.log"
lead --label=a,b $R "$TMP/r3.log"
grep -q "read cost hpet: ns_per_read .* 3.00x, p 0.00[0-9]* (TCG)$" "$TMP/lead" &&
	grep -q "^  (how: .* several runs a side: Welch's t on the runs; p shown" "$TMP/lead-note"
pass $? "both repeated, read costs 3x: Welch's p said in the row and the note"
diag "$TMP/lead-all"

# Identical runs (docs/comparing.md, "The noise model"): each pair of
# tests/data/aa-SET-N-{a,b}.log (the unloaded ones the floors' own measurements;
# the loaded ones, two single runs on a busy machine, compared by no figure) leads
# with nothing, and the note says how figures were judged. A pair of which one
# run was busy and the other not (aa-host-2) may lead, and then every leading
# row names the busy run's condition: the difference is the other work's.
pairs=0
for a in $D/aa-*-a.log; do
	b=${a%-a.log}-b.log
	pairs=$((pairs + 1))
	lead --label=a,b "$a" "$b"
	[ $rc -eq 0 ] && { [ "$(cat "$TMP/lead")" = "  $none" ] ||
		! grep -v "(hogs: other work [0-9]* % of CPUs)\|^  probe " "$TMP/lead" | grep -q .; } &&
		grep -q "^  (how: one run a side: its rounds are its samples .* plus twice the figure's between-run variance" \
			"$TMP/lead-note"
	pass $? "identical pair $(basename "$a" -a.log): no figure leads but with the other work beside it, the note says how"
	diag "$TMP/lead-all"
done
[ $pairs -ge 5 ]
pass $? "at least five identical host pairs committed ($pairs)"

# Two single runs on a busy machine (aa-host-1-a ran beside other work using 61 % of the
# CPUs): their neighbours set the noise, no floor is learnt from a loaded machine, so even
# every clock read 4x as dear does not lead from one run a side, and the note says which
# figures cannot compare (tests/report/power.t has the quiet machine's known changes).
H=$D/aa-host-1-a.log
scaled 4 $H >"$TMP/h4.log"
lead --label=a,b $H "$TMP/h4.log"
[ "$(cat "$TMP/lead")" = "  $none" ] &&
	grep -q "^  (both runs ran beside other work" "$TMP/lead-note" &&
	grep -q "^  (cannot compare: .*clocks ns_per_call" "$TMP/lead-note"
pass $? "busy host, every clock read 4x as dear, one run a side: cannot compare, said"
diag "$TMP/lead-all"

# Several runs a side (tools/report/sides.c): runs given one label pool into a side,
# judged by Welch's t on the runs' means. Identical runs, three against three, lead with
# nothing. The same three against copies of themselves with every clock read 2.5x as
# dear: ns_per_call leads, p in the cell, the runs' condition beside it; one run against
# its own 2.5x copy, both on a busy machine, leads with nothing.
S=$D/aa-host2
lead --label=A,A,A,B,B,B $S-1-a.log $S-2-a.log $S-3-a.log $S-1-b.log $S-2-b.log $S-3-b.log
[ "$(cat "$TMP/lead")" = "  (no figure differs from A by more than its noise)" ]
pass $? "three identical runs a side, pooled by label: no figure leads"
diag "$TMP/lead-all"
for k in 1 2 3; do scaled 2.5 $S-$k-a.log clocks ns_per_call >"$TMP/s$k.log"; done
lead --label=A,A,A,B,B,B $S-1-a.log $S-2-a.log $S-3-a.log "$TMP/s1.log" "$TMP/s2.log" "$TMP/s3.log"
rows=$(grep -c ': ns_per_call .* 2.50x, p [0-9.e-]* (hogs: other work [0-9]* % of CPUs)$' "$TMP/lead")
[ "$rows" -ge 5 ] && ! grep -v '^  probe' "$TMP/lead" | grep -qv ' 2.50x, p [0-9.e-]* (hogs'
pass $? "three runs a side, clock reads 2.5x as dear: $rows ns_per_call rows lead, Welch's p, the condition"
diag "$TMP/lead"
lead --label=a,b $S-1-a.log "$TMP/s1.log"
[ "$(cat "$TMP/lead")" = "  $none" ]
pass $? "one run a side, both busy, clock reads 2.5x as dear: nothing leads"
diag "$TMP/lead-all"

done_testing
