#!/bin/sh
# SPDX-License-Identifier: MIT
# The lead's two error rates (docs/comparing.md, "When a figure leads"), on
# fresh host runs never used for a floor (tests/data/fresh-*): identical
# runs lead with nothing (A/A), and a known change leads (A/B): one headline
# figure of one run scaled, 1.5x for a low-noise probe (clocks), 2x for a
# noisier one (switch, yield), with its interval (the whole distribution
# moved); yield alone against yield beside stress-ng --cpu 2 leads with the
# condition beside it. The note says the detectable ratio per probe.
. "$(dirname "$0")/lib.sh"

D=tests/data
A=$D/fresh-host-1-a.log
B=$D/fresh-host-1-b.log
none="(no figure differs from a by more than its noise)"

# scale LOG PROBE NAME KEY FACTOR: LOG with KEY of PROBE's result NAME, and its
# KEY_ci95 interval, times FACTOR; CRCs redone
scale() {
	python3 - "$@" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
path, probe, name, key, f = sys.argv[1:5] + [float(sys.argv[5])]
for r in records(open(path, errors="replace").read())[0]:
    if r.get("type") == "result" and r.get("probe") == probe and r.get("name") == name:
        r[key] *= f
        ci = r.get(key + "_ci95")
        if ci:
            r[key + "_ci95"] = [ci[0] * f, ci[1] * f, ci[2]]
    print(record_line(r))
PY
}

# A/A: fresh identical pairs, a few minutes apart, the third beside stress-ng --cpu 1
for n in 1 2 3; do
	lead --label=a,b $D/fresh-host-$n-a.log $D/fresh-host-$n-b.log
	[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ]
	pass $? "fresh identical pair $n: no figure leads"
	diag "$TMP/lead-all"
done
grep -q "^  (cannot compare from single runs" "$TMP/lead-note"
pass $? "the pair beside stress-ng, both busy: the note says what cannot compare"

# A/B: one headline figure of one run of pair 1, per probe with figures
check_scaled() {	# PROBE NAME KEY FACTOR
	scale $B "$1" "$2" "$3" "$4" >"$TMP/s.log"
	lead --label=a,b $A "$TMP/s.log"
	grep -Fq "$1" "$TMP/lead" && grep -F "$2" "$TMP/lead" | grep -q ": $3  "
	pass $? "$1 $2: $3 x$4 leads"
	diag "$TMP/lead-all"
}
check_scaled clocks "clock_gettime(CLOCK_MONOTONIC)" ns_per_call 1.5
check_scaled switch pipe-thread-same-cpu lat_ctx_ns 2
check_scaled yield "2 threads" total_per_s 2

# The power, said per probe with figures
lead --label=a,b $A $B
grep -q "^  (detectable here: .*clocks >= [0-9.]*x .*yield >= [0-9.]*x .*switch >= [0-9.]*x" "$TMP/lead-note"
pass $? "the note gives the detectable ratio of clocks, yield and switch"
diag "$TMP/lead-note"

# yield alone, then beside stress-ng --cpu 2: its throughput leads, the condition beside it
lead --label=alone,hogged $D/fresh-yield-alone.log $D/fresh-yield-stress2.log
grep -q "^  yield .*: total_per_s .*x (hogs: other work [0-9]* % of CPUs)$" "$TMP/lead"
pass $? "yield beside stress-ng --cpu 2: total_per_s leads with the condition beside it"
diag "$TMP/lead-all"

# This machine's own floors (make noise-floor): a floor of 3x for clocks hides the 1.5x
printf '# mine\nos\tclocks\tns_per_call\t3\t10\n' >"$TMP/floors.tsv"
scale $B clocks "clock_gettime(CLOCK_MONOTONIC)" ns_per_call 1.5 >"$TMP/s.log"
lead --floors="$TMP/floors.tsv" --label=a,b $A "$TMP/s.log"
! grep -q ": ns_per_call  " "$TMP/lead"
pass $? "--floors: a machine's own floor of 3x is used in place of the built-in one"
diag "$TMP/lead"
printf 'os\tclocks\tns_per_call\t0.5\t10\n' >"$TMP/bad.tsv"
run "$TP_REPORT" --floors="$TMP/bad.tsv" $A $B
[ $rc -eq 2 ] && grep -q "^report: --floors=.*bad.tsv: line 1: a ratio that is not a number from 1 to 1e9; no floor taken$" "$TMP/err"
pass $? "--floors: a ratio below 1 is refused with its line, exit 2"
diag "$TMP/err"

done_testing
