#!/bin/sh
# SPDX-License-Identifier: MIT
# Default run labels (no --label): distinct and meaningful. QEMU names both
# its machines "QEMU Standard PC (...)": the chipset in the parentheses tells
# q35 from pc; runs of one machine are told apart by what differs in their
# run records, then by file, then numbered. A machine name from a record is
# hostile: it reaches tables written out, and gnuplot only quoted.
. "$(dirname "$0")/lib.sh"

D=tests/data

# labels FILE...: the runs' labels, one a line, from --format=json
labels() {
	"$TP_REPORT" --format=json "$@" 2>"$TMP/err" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["runs"]:
    print(r["label"])'
}

labels $D/serial-q35-drift.log $D/serial-pc-drift-repeat.log >"$TMP/l"
[ "$(cat "$TMP/l")" = "appliance/QEMU Standard PC (Q35 + ICH9)
appliance/QEMU Standard PC (i440FX + PIIX)" ]
pass $? "q35 and pc boots: labelled by their chipsets"
diag "$TMP/l"

labels $D/serial-q35-fingerprint.log $D/serial-q35-drift.log >"$TMP/l"
[ "$(cat "$TMP/l")" = "appliance/QEMU Standard PC serial-q35-fingerprint.log
appliance/QEMU Standard PC serial-q35-drift.log" ]
pass $? "two q35 boots that agree in every field: told apart by their files"
diag "$TMP/l"

labels $D/serial-q35-drift.log $D/serial-q35-drift.log $D/serial-pc-drift-repeat.log >"$TMP/l"
[ "$(cat "$TMP/l")" = "appliance/QEMU Standard PC (Q35 + ICH9)#1
appliance/QEMU Standard PC (Q35 + ICH9)#2
appliance/QEMU Standard PC (i440FX + PIIX)" ]
pass $? "one capture twice: numbered, after the chipset that sets it apart from the pc"
diag "$TMP/l"

labels $D/report-qemu.log $D/report-host.log $D/report-kvm.log $D/report-two-boots.log >"$TMP/l"
[ "$(sort -u "$TMP/l" | wc -l)" = 5 ]
pass $? "the synthetic captures: five runs, five labels"
diag "$TMP/l"

# hostile machine names: the same up to the parenthesis, what follows meant for gnuplot
evil="x'; system('touch $TMP/pwned') #"
for m in "M ($evil, 1)" "M (a\\nset output \\\"$TMP/pwned-nl\\\", 2)"; do
	tp1 "{\"type\":\"run\",\"env\":\"os\",\"machine\":\"$m\"}"
	tp1 '{"type":"result","probe":"tscsync","name":"p","cpu_a":0,"cpu_b":1,"offset_ns":3,"bound_ns":40}'
	tp1 '{"type":"end","probes_ok":1}'
done >"$TMP/hostile.log"
labels "$TMP/hostile.log" >"$TMP/l"
[ "$(grep -c '^os/M (' "$TMP/l")" = 2 ] && grep -q "^os/M (x'; system('touch " "$TMP/l"
pass $? "hostile machine names: two labels, from the parentheses"
diag "$TMP/l"
run "$TP_REPORT" "$TMP/hostile.log"
! tr -d '\n' <"$TMP/out" | grep -q "$(printf '[\001-\037]')" && grep -q 'os/M (a\\nset output' "$TMP/out"
pass $? "text: the newline in a label written out"
if command -v gnuplot >/dev/null; then
	run "$TP_REPORT" --plot="$TMP/plots" "$TMP/hostile.log"
	[ $rc -eq 0 ] && [ -s "$TMP/plots/tscsync.svg" ] && ! ls "$TMP" "$TMP/plots" | grep -q pwned &&
		[ "$(ls "$TMP/plots" | grep -cv '^tscsync\.\(dat\|gp\|svg\|png\)$')" = 0 ]
	pass $? "--plot: labels reach gnuplot quoted, file names are fixed; nothing ran"
	diag "$TMP/err"
else
	echo "# SKIP gnuplot not installed: the plot of hostile labels"
fi

done_testing
