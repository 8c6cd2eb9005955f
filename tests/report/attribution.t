#!/bin/sh
# SPDX-License-Identifier: MIT
# Attribution in a comparison: the lead ranks the probe's own share (own_*:
# its process tree's switches and CPU time, its CPUs' interrupts), never the
# whole machine's counts (machine_*, irq:*, softirq:*, and older captures'
# context_switches), which the attribution table still shows.
. "$(dirname "$0")/lib.sh"

Q=tests/data/serial-q35-fingerprint.log

# attr MACHINE OWN_VOL [RENAME]: the q35 capture, its attribution records'
# machine-wide counts times MACHINE, own switches and CPU time added
# (OWN_VOL voluntary, 100 involuntary, 500 ms); RENAME=new names the
# machine's switches as the suite now does
attr() {
	python3 - "$Q" "$@" <<'PY'
import sys
sys.path.insert(0, "tools")
from tp1rec import record_line, records
machine, own_vol = float(sys.argv[2]), int(sys.argv[3])
rename = len(sys.argv) > 4
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("type") == "attribution":
        for k in list(r):
            if k.startswith(("irq:", "softirq:")) or k == "context_switches":
                r[k] = int(r[k] * machine)
        if rename:
            r["machine_context_switches"] = r.pop("context_switches")
        r.update(own_vol_ctxsw=own_vol, own_invol_ctxsw=100, own_cpu_ms=500.25)
    print(record_line(r))
PY
}

attr 1 1000 new >"$TMP/a.log"
attr 10 1000 new >"$TMP/machine.log"
lead --label=a,b "$TMP/a.log" "$TMP/machine.log"
[ $rc -eq 0 ] && ! grep -q "^  attribution" "$TMP/lead"
pass $? "the machine's counts 10x, the probe's own the same: no attribution figure leads"
diag "$TMP/lead"
# the probe's heading, with its line-up count since the report counts them
sed -n '/^attribution\( (.*)\)\{0,1\}$/,/^$/p' "$TMP/out" >"$TMP/table"
grep -q "^    machine_context_switches  *41744  *417440  *10.00x$" "$TMP/table" &&
	grep -q "^    irq:LOC  *295  *2950  *10.00x$" "$TMP/table" &&
	grep -q "^    own_vol_ctxsw  *1000  *1000  *1.00x$" "$TMP/table"
pass $? "the attribution table shows the machine's counts beside the probe's own"
diag "$TMP/table"

# (the q35 capture runs under TCG: its identical boots' own counts differ by up
# to 10x, so the attribution floor there is about 100x)
attr 1 300000 new >"$TMP/own.log"
lead --label=a,b "$TMP/a.log" "$TMP/own.log"
grep -q "^  attribution  while clocks ran: own_vol_ctxsw per s .* 300x$" "$TMP/lead" &&
	grep -q "^  attribution  while yield ran: own_vol_ctxsw per s .* 300x$" "$TMP/lead"
pass $? "the probe's own switches 300x, beyond TCG's floor: they lead, as rates per second"
diag "$TMP/lead"

# an older capture, context_switches by its old name: still the machine's
attr 1 1000 >"$TMP/old-a.log"
attr 10 1000 >"$TMP/old-b.log"
lead --label=a,b "$TMP/old-a.log" "$TMP/old-b.log"
! grep -q "^  attribution" "$TMP/lead"
pass $? "an older capture's context_switches 10x: the machine's, it does not lead"
diag "$TMP/lead"
run "$TP_REPORT" --check-keys "$TMP/old-a.log" "$TMP/a.log"
[ $rc -eq 0 ] && ! grep -q "attribution" "$TMP/out" "$TMP/err"
pass $? "old and new attribution keys are all classified"
diag "$TMP/out"

done_testing
