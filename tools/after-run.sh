#!/bin/sh
# SPDX-License-Identifier: MIT
# After the appliance ran in QEMU (make run, make run-iso, make compare):
# keeps its results on the host and says whether the run went well.
#
#   tools/after-run.sh STATUS LOG [IMAGE]
#
# STATUS is tools/qemu-run.sh's exit status, LOG the serial log, IMAGE the
# disk the appliance saved on (none for an ISO, which saves nothing). The
# results file the log names ("timeprobe: results saved to
# \timeprobe\results\NAME", userland/save.c) is copied out of IMAGE by
# tools/results.py into RESULTS_DIR (default results/, which no make target
# rewrites); without an IMAGE the serial log itself is kept there, as
# iso-<date>-<time>.log (tp-report reads both). Either way its path is
# printed. Exit status: STATUS when QEMU failed, else 1 when the log has no
# end record (the run did not end), a probe failed or an option was refused
# (cmdline.txt edited on the stick after make checked it), else, with
# FAIL_ON set (make run FAIL_ON=poor), tp-report --fail-on's status (4 when
# the verdict reached it; TP_REPORT, default tp-report beside LOG), else 0.
set -eu

[ $# -ge 2 ] || { echo "usage: tools/after-run.sh STATUS LOG [IMAGE]" >&2; exit 2; }
status=$1 log=$2 img=${3-}
here=$(cd "$(dirname "$0")" && pwd)
out=${RESULTS_DIR:-results}

mkdir -p "$out"
if [ -n "$img" ]; then
	# the name as the appliance printed it; results.py checks its shape
	name=$(sed -n 's/.*timeprobe: results saved to \\timeprobe\\results\\\([^ ]*\) on .*/\1/p' "$log" |
		tail -n 1 | tr -d '\r')
	if [ -n "$name" ]; then
		python3 "$here/results.py" --out "$out" --name="$name" -- "$img" || true
	else
		echo "results: the appliance saved no results file (see its log); nothing copied"
	fi
elif [ -s "$log" ]; then
	keep="$out/iso-$(date +%Y%m%d-%H%M%S).log"
	[ -e "$keep" ] || { cp "$log" "$keep" && echo "results: $keep (the serial log)"; }
fi

[ "$status" = 0 ] || exit "$status"
end=$(python3 "$here/tp1rec.py" last end "$log" 2>/dev/null) || {
	echo "run: the run did not end (no end record in the serial log)" >&2
	exit 1
}
refused=$(python3 "$here/tp1rec.py" last end options_refused "$log" 2>/dev/null) || refused=0
failed=$(python3 "$here/tp1rec.py" last end probes_failed "$log" 2>/dev/null) || failed=
case $refused in
0|'') ;;
*) echo "run: $refused option(s) on the command line were refused (repeated after the verdict in the log)" >&2 ;;
esac
case $failed in
0) [ "${refused:-0}" = 0 ] || exit 1 ;;
'') echo "run: the end record says nothing of failed probes: $end" >&2; exit 1 ;;
*) echo "run: $failed probe(s) failed (the error records in the log say why)" >&2; exit 1 ;;
esac

# the gate last: a run that ended well may still be poor (tools/report/gate.h)
[ -n "${FAIL_ON-}" ] || exit 0
"${TP_REPORT:-$(dirname "$log")/tp-report}" --fail-on="$FAIL_ON" "$log" > /dev/null
