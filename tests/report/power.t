#!/bin/sh
# SPDX-License-Identifier: MIT
# The lead's two error rates (docs/comparing.md, "When a figure leads"), on
# fresh host runs never used for a floor. Quiet single pairs
# (tests/data/fresh-quiet-*, other work 0 to 3 % of the CPUs): two pairs
# a few minutes apart lead with nothing, the third, beside stress-ng
# --cpu 1 on both sides, compares nothing and says why (A/A); one headline
# figure of each probe in the second run scaled with its interval, 1.5x
# for clocks, 2x for the noisier switch and yield, leads (A/B); yield
# alone against yield beside stress-ng --cpu 2 leads with the condition
# beside it, one run a side and three. Busy runs (tests/data/fresh-side-*,
# other work 55 to 99 %): three against three lead with nothing, and a
# clock read 1.5x leads from them by Welch's t. Fresh appliance boots under
# TCG: identical pairs lead with nothing, and a clocksource change (hpet
# against acpi_pm, five boots a side) leads with the default clock's cost.
. "$(dirname "$0")/lib.sh"

D=$(sh tests/lib/testdata.sh) || exit 1	# tests/data, its sets of runs extracted
none="(no figure differs from A by more than its noise)"
SIDES="--label=A,A,A,B,B,B"
side_a() { echo $D/fresh-side-1-a.log $D/fresh-side-2-a.log $D/fresh-side-3-a.log; }

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

# A/A: fresh quiet single pairs lead with nothing; the pair beside stress-ng
# --cpu 1 (both runs busy) compares nothing and says why. Four sets of
# three pairs, taken on two days (fresh-quiet2: after the floors of aa-host8
# and aa-host9, never used for one; fresh-quiet3: right after a full make
# test, as aa-host9 was; fresh-quiet4: half an hour later)
for set in fresh-quiet fresh-quiet2 fresh-quiet3 fresh-quiet4; do
	for k in 1 2; do
		lead --label=A,B $D/$set-$k-a.log $D/$set-$k-b.log
		[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ]
		pass $? "$set: identical pair $k: no figure leads"
		diag "$TMP/lead-all"
	done
	lead --label=A,B $D/$set-3-a.log $D/$set-3-b.log
	[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ] &&
		grep -q "^  (both runs ran beside other work using 10 % of the CPUs or more" "$TMP/lead-note"
	pass $? "$set: pair 3, stress-ng --cpu 1 beside both: nothing compares, the note says why"
	diag "$TMP/lead-note"
done

# A/B from single quiet runs: one headline figure of run B scaled, every probe of the pair,
# in pair 1 of each set
scaled_single() {	# SET PROBE NAME KEY FACTOR
	set_=$1
	shift
	scale $D/$set_-1-b.log "$@" >"$TMP/s.log"
	lead --label=A,B $D/$set_-1-a.log "$TMP/s.log"
	grep -F "$2" "$TMP/lead" | grep -q ": $3  .* [0-9.]*x$"
}
tab=$(printf '\t')
# (pair 1 of fresh-quiet is the test; the other sets' pairs 1 are counted: docs/comparing.md)
while IFS=$tab read -r probe name key factor; do
	scaled_single fresh-quiet "$probe" "$name" "$key" "$factor"
	pass $? "single quiet runs: $probe $name $key x$factor leads"
	diag "$TMP/lead"
	found=1
	for set in fresh-quiet2 fresh-quiet3 fresh-quiet4; do
		if scaled_single $set "$probe" "$name" "$key" "$factor"; then
			found=$((found + 1))
		else
			echo "# $set pair 1: $probe $name $key x$factor does not lead:" \
				"$(grep -o "$probe >= [0-9.]*x" "$TMP/lead-note")"
		fi
	done
	echo "# $probe $name $key x$factor leads in $found of 4 fresh quiet pairs"
done <<EOF
clocks	clock_gettime(CLOCK_MONOTONIC)	ns_per_call	1.5
switch	pipe-process-same-cpu	lat_ctx_ns	2
yield	2 threads	total_per_s	2
EOF
grep -q "^  (detectable here: .*clocks >= [0-9.]*x .*yield >= [0-9.]*x .*switch >= [0-9.]*x" "$TMP/lead-note"
pass $? "the note gives the detectable ratio of clocks, yield and switch from single runs"
diag "$TMP/lead-note"

# A/A: three runs against three, interleaved: Welch's t on the runs, Benjamini-Hochberg
lead $SIDES $(side_a) $D/fresh-side-1-b.log $D/fresh-side-2-b.log $D/fresh-side-3-b.log
[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  $none" ]
pass $? "three identical runs against three: no figure leads"
diag "$TMP/lead-all"
grep -q "^  (detectable here: .*clocks >= [0-9.]*x .*yield >= [0-9.]*x .*switch >= [0-9.]*x" "$TMP/lead-note"
pass $? "the note gives the detectable ratio of clocks, yield and switch"
diag "$TMP/lead-note"

# A/B: one headline figure of side B scaled
scaled_sides() {	# PROBE NAME KEY FACTOR
	for i in 1 2 3; do scale $D/fresh-side-$i-b.log "$@" >"$TMP/b$i.log"; done
	lead $SIDES $(side_a) "$TMP/b1.log" "$TMP/b2.log" "$TMP/b3.log"
	grep -F "$2" "$TMP/lead" | grep -q ": $3  .* p [0-9.e-]* (hogs: other work [0-9]* % of CPUs)$"
}
scaled_sides clocks "clock_gettime(CLOCK_MONOTONIC)" ns_per_call 1.5
pass $? "clocks: clock_gettime(CLOCK_MONOTONIC) ns_per_call x1.5 leads, p and condition beside it"
diag "$TMP/lead"
scaled_sides switch pipe-process-same-cpu pipe_overhead_ns 2
pass $? "switch: pipe-process-same-cpu pipe_overhead_ns x2 leads"
diag "$TMP/lead"
# yield's identical busy runs differ by 2-4x run to run: a 2x change is below its power
# from three a side here (a diagnostic, not a test: it says what this machine can tell)
if scaled_sides yield "1 threads" total_per_s 2; then
	echo "# yield: 1 threads total_per_s x2 leads from three busy runs a side"
else
	echo "# yield: 1 threads total_per_s x2 does not lead from three busy runs a side;" \
		"$(grep -o 'yield >= [0-9.]*x (median [0-9.]*x' "$TMP/lead-note")"
fi

# yield alone on a quiet machine, then beside stress-ng --cpu 2: one run a side
Y=$D/fresh-quiet-yield
lead --label=alone,hogged $Y-alone-1.log $Y-stress2-1.log
grep -q "^  yield  *2 threads: total_per_s .* 0.00x (hogs: other work 9[0-9] % of CPUs)$" "$TMP/lead"
pass $? "yield alone against beside stress-ng --cpu 2, single runs: total_per_s leads, the condition beside"
diag "$TMP/lead"
# three a side, where the second hogged run's neighbours took 58 % against 97 and 99: what
# Welch's t on three a side can say of so uneven a side is a diagnostic
lead --label=alone,alone,alone,hogged,hogged,hogged $Y-alone-1.log $Y-alone-2.log $Y-alone-3.log \
	$Y-stress2-1.log $Y-stress2-2.log $Y-stress2-3.log
echo "# quiet yield alone x3 against beside stress-ng --cpu 2 x3: $(grep -c '^  yield ' "$TMP/lead") rows lead"
diag "$TMP/lead"

# yield alone, then beside stress-ng --cpu 2, three of each interleaved (busy machine)
lead --label=alone,alone,alone,hogged,hogged,hogged $D/fresh-yield-alone-1.log \
	$D/fresh-yield-alone-2.log $D/fresh-yield-alone-3.log $D/fresh-yield-stress2-1.log \
	$D/fresh-yield-stress2-2.log $D/fresh-yield-stress2-3.log
grep -q "^  yield  *1 threads: total_per_s .* 0.00x, p [0-9.e-]* (hogs: other work 9[0-9] % of CPUs)$" "$TMP/lead"
pass $? "yield beside stress-ng --cpu 2: total_per_s leads with the condition beside it"
diag "$TMP/lead"

# Fresh appliance boots under TCG, never used for a floor (tests/data/fresh-tcg-*: q35,
# 2 CPUs, clocks,yield,switch quick, on a quiet host): three identical pairs lead with
# nothing. The same image booted with clocksource=acpi_pm reads its default clock about
# 0.8x as dear, but TCG's identical boots read the HPET's 0.8 to 2.3 us apart, so neither
# one boot a side nor three (Benjamini-Hochberg over the clocks probe's ~270 figures) can
# tell it: a diagnostic, with the line that names it.
T=$D/fresh-tcg
for k in 1 2 3; do
	lead --label=a,b $T-quiet-$k-a.log $T-quiet-$k-b.log
	[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  (no figure differs from a by more than its noise)" ]
	pass $? "fresh identical TCG boots, pair $k: no figure leads"
	diag "$TMP/lead-all"
done
lead --label=hpet,hpet,hpet,acpi_pm,acpi_pm,acpi_pm $T-quiet-1-a.log $T-quiet-2-a.log \
	$T-quiet-3-a.log $T-acpi_pm-1.log $T-acpi_pm-2.log $T-acpi_pm-3.log
echo "# TCG hpet x3 against acpi_pm x3: $(grep -c '^  clocks ' "$TMP/lead") clocks rows lead;" \
	"$(grep -o 'reading the default clock as booted.*' "$TMP/out" | head -1)"

# The clocksource change, five boots a side (fresh-tcg5-*, one idle hour, interleaved): the
# default clock's read cost as booted is the comparison's own question, tested alone and by
# ranks, and it leads first; single boots a side cannot tell it (a diagnostic), and identical
# pairs among the same boots lead with nothing
T5=$D/fresh-tcg5
cs_sides() {	# HPET-LOGS...: five hpet boots against the five acpi_pm ones
	lead --label=hpet,hpet,hpet,hpet,hpet,acpi_pm,acpi_pm,acpi_pm,acpi_pm,acpi_pm "$@" \
		$T5-acpi_pm-1.log $T5-acpi_pm-2.log $T5-acpi_pm-3.log $T5-acpi_pm-4.log $T5-acpi_pm-5.log
	sed -n 2p "$TMP/lead" | grep -q "^  clocks  clock_gettime(CLOCK_MONOTONIC)  clocksource=as booted path=libc clock_id=1: ns_per_call .* 0\.[0-9]*x; by ranks 0\.[0-9]*x, p 0\.0079 (TCG)$"
}
cs_sides $T5-hpet-1.log $T5-hpet-2.log $T5-hpet-3.log $T5-hpet-4.log $T5-hpet-5.log
pass $? "TCG, hpet x5 against acpi_pm x5: the default clock's read cost as booted leads first, by ranks"
diag "$TMP/lead-all"
# one hpet boot made while a CPU hog still ran on the host (everything in it about 2x dear):
# Welch's t would lose the change in that side's spread, ranks do not
cs_sides $T5-hpet-hogged.log $T5-hpet-2.log $T5-hpet-3.log $T5-hpet-4.log $T5-hpet-5.log
pass $? "TCG, the same with one hpet boot 2x dear throughout: it still leads, by ranks"
diag "$TMP/lead-all"
for k in 1 3 5; do
	lead --label=a,b $T5-hpet-$k.log $T5-hpet-$((k + 1)).log
	[ $rc -eq 0 ] && [ "$(cat "$TMP/lead")" = "  (no figure differs from a by more than its noise)" ]
	pass $? "fresh identical TCG boots (hpet) $k and $((k + 1)): no figure leads"
	diag "$TMP/lead-all"
done
rows=0
for k in 1 2 3 4 5; do
	lead --label=hpet,acpi_pm $T5-hpet-$k.log $T5-acpi_pm-$k.log
	rows=$((rows + $(grep -c '^  clocks ' "$TMP/lead")))
done
echo "# TCG, one boot a side, hpet against acpi_pm, five pairs: $rows clocks rows lead in all;" \
	"$(grep -o 'reading the default clock as booted.*' "$TMP/out" | head -1)"

# This machine's own floors (make noise-floor, tp-report --floors): two single quiet runs
# of one clock read, 2x apart, each sure of itself within 1 %
quiet() {	# NS
	tp1 '{"type":"run","schema":1,"env":"os","machine":"m"}' \
		"{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\",\"path\":\"vdso\",\"clocksource\":\"tsc\",\"ns_per_call\":$1,\"ns_per_call_ci95\":[$(($1 * 99 / 100)),$(($1 * 101 / 100)),500]}" \
		'{"type":"end","records":2,"other_busy_pct":1}'
}
quiet 100 >"$TMP/q1.log"
quiet 200 >"$TMP/q2.log"
# (env, probe, result, key, between-run sd of the log, its df, the within-run sd, runs:
# result "c path=vdso clocksource=tsc" is not in the file, so its key's applies)
printf '# mine\nos\tclocks\tother\tns_per_call\t0.01\t30\t0\t31\n' >"$TMP/f12.tsv"
printf 'os\tclocks\tother\tns_per_call\t0.5\t30\t0\t31\n' >"$TMP/f3.tsv"
lead --floors="$TMP/f12.tsv" --label=A,B "$TMP/q1.log" "$TMP/q2.log"
grep -q ": ns_per_call  .* 2.00x$" "$TMP/lead"
pass $? "--floors: quiet single runs, a between-run sd of 0.01: 2x leads"
diag "$TMP/lead-all"
lead --floors="$TMP/f3.tsv" --label=A,B "$TMP/q1.log" "$TMP/q2.log"
[ "$(cat "$TMP/lead")" = "  $none" ]
pass $? "--floors: a machine's own between-run sd of 0.5 (two runs within 2.7x): 2x does not lead"
diag "$TMP/lead-all"
printf 'os\tclocks\tc\tns_per_call\t0.01\t30\t25\t10\n' >"$TMP/bad.tsv"
run "$TP_REPORT" --floors="$TMP/bad.tsv" "$TMP/q1.log" "$TMP/q2.log"
[ $rc -eq 2 ] && grep -q "^report: --floors=.*bad.tsv: line 1: a within-run sd that is not a number from 0 to 20; no floor taken$" "$TMP/err"
pass $? "--floors: a within-run sd of 25 is refused with its line, exit 2"
diag "$TMP/err"

# --format=json says per figure whether it leads and what it could show: the
# clock read x1.5 of fresh-quiet's pair 1 leads, its detectable ratio at or
# below 1.5, and nothing else of the pair leads
scale $D/fresh-quiet-1-b.log clocks "clock_gettime(CLOCK_MONOTONIC)" ns_per_call 1.5 >"$TMP/s.log"
"$TP_REPORT" --format=json --label=A,B $D/fresh-quiet-1-a.log "$TMP/s.log" >"$TMP/j.json"
python3 - "$TMP/j.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
led = [(d["figures"][r["figure"]], r["detectable"][1]) for r in d["comparison"]["rows"]
       if r["leads"][1]]
ok = (led and all(f["probe"] == "clocks" and f["result"] == "clock_gettime(CLOCK_MONOTONIC)"
                  and f["figure"] == "ns_per_call" for f, _ in led)
      and all(x is not None and x <= 1.5 for _, x in led))
print("# leads:", [(f["ident"], x) for f, x in led])
sys.exit(0 if ok else 1)
PY
pass $? "--format=json: the scaled clock read leads, detectable at or below 1.5x, and nothing else"

# One run a side with rounds (fresh-r: 20 identical quiet pairs of the six
# probes, five rounds a run, never used for a floor; docs/comparing.md, "One
# run a side, with rounds"), counted by tools/abstudy.py: at most one pair
# leads with any row; the itimer's accuracy x1.2 and the time stolen x3 lead
# in 4 of the first 5 pairs or more; every case's count is a diagnostic
mkdir -p "$TMP/fr5"
for i in 1 2 3 4 5; do cp $D/fresh-r-$i-a.log $D/fresh-r-$i-b.log "$TMP/fr5/"; done
python3 tools/abstudy.py aa $D fresh-r >"$TMP/aa.md"
nlead=$(sed -n 's/^A\/A: \([0-9]*\) of 20 pairs lead with any row$/\1/p' "$TMP/aa.md")
[ -n "$nlead" ] && [ "$nlead" -le 1 ]
pass $? "fresh-r: at most 1 of 20 identical pairs leads with any row (${nlead:-?})"
diag "$TMP/aa.md"
printf 'itimer\tITIMER_REAL 1000us\taccuracy_pct\t1.2\nnoise\ttotal\tstolen_pct\t3\n' >"$TMP/c.tsv"
python3 tools/abstudy.py ab "$TMP/fr5" fresh-r "$TMP/c.tsv" >"$TMP/ab.md"
grep -q '^| itimer ITIMER_REAL 1000us accuracy_pct x1.2 | [45] of 5 |' "$TMP/ab.md"
pass $? "fresh-r: the itimer's accuracy x1.2 leads in 4 of 5 pairs or more"
# (its floor, Paule and Mandel's, weighs the floor runs' wild rounds by their own spread)
grep -q '^| noise total stolen_pct x3 | [45] of 5 |' "$TMP/ab.md"
pass $? "fresh-r: the time stolen x3 leads in 4 of 5 pairs or more"
diag "$TMP/ab.md"
grep -v '^#' tests/report/ab-cases.tsv >"$TMP/cases.tsv"
python3 tools/abstudy.py ab "$TMP/fr5" fresh-r "$TMP/cases.tsv" | sed 's/^/# /'

# real, one run a side: yield alone against beside stress-ng --cpu 2 leads,
# the hogged run's condition said first
lead --label=alone,hogged $D/fresh-r-yield-alone-1.log $D/fresh-r-yield-stress2-1.log
sed -n '/^Conditions/,/^$/p' "$TMP/out" | grep -q '^  hogged: other work used 9[0-9] % of its CPUs' &&
	grep -q '^  yield: [12] threads total_per_s 0.00x lower' "$TMP/out"
pass $? "fresh-r: yield beside stress-ng --cpu 2 leads, its condition first"

# a TCG boot with clocksource=acpi_pm against one with the default: pair 1
# leads with the default clock as booted, first
"$TP_REPORT" --label=default,acpi_pm $D/fresh-r-tcg-hpet-1.log $D/fresh-r-tcg-acpi_pm-1.log >"$TMP/out"
sed -n '/^What changed/{n;p}' "$TMP/out" |
	grep -q '^  clocks: clock_gettime(CLOCK_MONOTONIC) clocksource=as booted path=libc clock_id=1 ns_per_call 0.[0-9]*x cheaper'
pass $? "fresh-r-tcg: the clocksource change's clock read leads first"
# pair 2's read (0.50x) is inside its floor: it does not lead, yet the
# changed setting and that read are named first, its size said unestablished
"$TP_REPORT" --label=default,acpi_pm $D/fresh-r-tcg-hpet-2.log $D/fresh-r-tcg-acpi_pm-2.log >"$TMP/out"
sed -n '/^What changed/{n;N;p}' "$TMP/out" | tr -d '\n' | grep -q \
	'^  clocksource hpet → acpi_pm, a setting: the default clock as booted (clock_gettime(CLOCK_MONOTONIC) through libc) *0.50x cheaper: 1528.7 → 758.89 ns; identical boots vary by up to [0-9.]*x here, so its size is not established$' &&
	grep -q '^  (no figure differs from default by more than its noise)$' "$TMP/out"
pass $? "fresh-r-tcg pair 2: the changed clocksource and its clock read named first, not as a lead"
# wakeup's maxima by 5 rounds' ranks cannot reach the level one figure alone must (alpha / (results x
# statistics of its result), family.h): the note says so
"$TP_REPORT" --label=a,b $D/fresh-r-1-a.log $D/fresh-r-1-b.log >"$TMP/out"
tr -d '\n' <"$TMP/out" | sed 's/  */ /g' |
	grep -q "(maxima by their rounds' ranks: 5 rounds against 5 reach p 0.0079 at best, above the [0-9.e-]* that [0-9]* results of their probe, [0-9]* statistics in this one's, ask of one figure alone, so a maximum that moves alone does not lead here"
pass $? "fresh-r: the note says a maximum of 5 rounds a side cannot lead alone"
# identical runs (one clocksource) never get that line
"$TP_REPORT" --label=a,b $D/fresh-r-tcg-hpet-1.log $D/fresh-r-tcg-hpet-2.log >"$TMP/out"
! grep -q 'a setting: the default clock' "$TMP/out"
pass $? "fresh-r-tcg: two boots of one clocksource: no setting line"

done_testing
