#!/bin/sh
# SPDX-License-Identifier: MIT
# A fresh host run against a real appliance capture: the report opens with
# what differs between the two machines, from their fingerprints, before any
# figure (issue: "say why two runs differ").
. "$(dirname "$0")/lib.sh"

TIMEPROBE=${TIMEPROBE:-${B:-build}/timeprobe}
if [ ! -x "$TIMEPROBE" ]; then
	echo "1..0 # SKIP $TIMEPROBE not built (make userland)"
	exit 0
fi
"$TIMEPROBE" run --probes=yield --profile=quick >"$TMP/host.log" 2>&1
python3 tools/tp1rec.py last fingerprint "$TMP/host.log" >/dev/null
pass $? "the host run carries a fingerprint"

run "$TP_REPORT" --label=host,appliance "$TMP/host.log" tests/data/serial-q35-fingerprint.log
pass $rc "host against appliance: report exits 0"
diag "$TMP/err"
# after the title: the runs' conditions (the appliance ran under TCG), then
# the fingerprint difference, both before any figure
sections=$(grep -E '^(Conditions|What differs between these machines|Figures)' "$TMP/out" | head -n 2 | tr '\n' '|')
[ "$sections" = "Conditions|What differs between these machines|" ] &&
	grep -q "^  appliance: ran under QEMU's TCG emulator" "$TMP/out"
pass $? "the comparison opens with its conditions, then what differs (got: $sections)"
sed -n '/^What differs/,/^$/p' "$TMP/out" >"$TMP/differs"
grep -q "^  env  *os  *appliance" "$TMP/differs"
pass $? "what differs names env: os against appliance"
# which other fields differ depends on this host; a QEMU q35 guest differs
# from any host in at least its DMI product or its hypervisor
grep -Eq "^  (dmi_product_name|hypervisor_vendor) " "$TMP/differs"
pass $? "what differs names the machine (DMI product or hypervisor)"
# and only the fields that differ: a process CPU-time clock has no vDSO path
# on any kernel, so both sides say it enters the kernel
grep -q '"CLOCK_PROCESS_CPUTIME_ID":true' "$TMP/host.log" &&
	! grep -q "^  enters_kernel.CLOCK_PROCESS_CPUTIME_ID " "$TMP/differs"
pass $? "fields that agree are not listed"
diag "$TMP/out"
done_testing
