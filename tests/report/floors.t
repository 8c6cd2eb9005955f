#!/bin/sh
# SPDX-License-Identifier: MIT
# The between-run table (tools/report/noise.h): the committed summary
# tools/report/floors.tsv is what floors_gen (make noise-floor-table)
# estimates from the identical runs in tests/data, and --floors=FILE takes
# only a regular file of valid lines, each refusal with its reason.
. "$(dirname "$0")/lib.sh"

GEN=${TP_FLOORS_GEN:-$(dirname "$TP_REPORT")/report/floors_gen}	# beside tp-report, or named
D=$(sh tests/lib/testdata.sh) || exit 1	# tests/data, its sets of runs extracted
F=tools/report/floors.tsv

# the committed table against its inputs, where they are (a clone without
# tests/data's identical runs cannot check it, and says so)
set -- $D/aa-*.log
if [ -x "$GEN" ] && [ -f "$1" ]; then
	"$GEN" "$@" >"$TMP/floors.tsv" 2>"$TMP/gen-err"
	cmp -s "$TMP/floors.tsv" $F
	pass $? "$F is floors_gen's estimate from the $# runs tests/data/aa-*.log (make noise-floor-table)"
	diff "$TMP/floors.tsv" $F | head -20 | sed 's/^/# /'
else
	[ -x "$GEN" ] && why="tests/data/aa-*.log absent" || why="no floors_gen at $GEN (TP_FLOORS_GEN=PATH names one)"
	skip "$why: the table cannot be checked here"
fi
rows=$(grep -vc '^#' $F)
[ "$rows" -gt 0 ] && [ "$(wc -c <$F)" -lt 262144 ] &&
	! awk -F'\t' '!/^#/ && (NF != 8 || $8 < 2 || $5 < 0)' $F | grep -q .
pass $? "$F: $rows rows of eight fields, each from 2 runs or more, under 256 KiB"

# a run pair to compare, and the user's floors
tp1 '{"type":"run","env":"os","machine":"m"}' \
	'{"type":"result","probe":"clocks","name":"c","ns_per_call":100,"ns_per_call_ci95":[99,101,500]}' \
	'{"type":"end","records":2,"other_busy_pct":1}' >"$TMP/a.log"
floors() {	# WHAT FILE RE: --floors=FILE refused, exit 2, one line matching RE
	run "$TP_REPORT" --floors="$2" "$TMP/a.log" "$TMP/a.log"
	[ $rc -eq 2 ] && head -1 "$TMP/err" | grep -q "$3"
	pass $? "--floors: $1 refused, exit 2: $(head -1 "$TMP/err")"
}
mkdir "$TMP/dir"
floors "a directory" "$TMP/dir" "^report: --floors=.*dir: a directory, not a file of floors; no floor taken$"
floors "/dev/zero" /dev/zero "^report: --floors=/dev/zero: not a regular file (a device or a pipe); no floor taken$"
: >"$TMP/empty.tsv"
floors "an empty file" "$TMP/empty.tsv" "^report: --floors=.*empty.tsv: no floor in it (an empty file, or comments only); no floor taken$"
printf '# only a comment\n' >"$TMP/comment.tsv"
floors "comments only" "$TMP/comment.tsv" "no floor in it (an empty file, or comments only)"
head -c 64 /dev/zero >"$TMP/nul.tsv"
floors "a file of NULs" "$TMP/nul.tsv" "^report: --floors=.*nul.tsv: a NUL byte: not a text file of floors; no floor taken$"
printf 'os\tclocks\tc\tns_per_call\t0.01\t30\t0\t31\rx\n' >"$TMP/cr.tsv"
floors "a CR inside a line" "$TMP/cr.tsv" "line 1: a CR inside the line (only CRLF or LF ends a line)"
printf '# mine\nos\tclocks\tc\tns_per_call\t0.01\t30\n' >"$TMP/short.tsv"
floors "a line of six fields" "$TMP/short.tsv" "line 2: not eight fields separated by tabs"
printf 'os\tclocks\tc\tns_per_call\t0.01\t30\t0\t0\n' >"$TMP/zero.tsv"
floors "a row of no runs" "$TMP/zero.tsv" "line 1: a count of runs that is not a whole number from 1"
# CRLF ends a line as LF does
printf '# mine\r\nos\tclocks\tc\tns_per_call\t0.01\t30\t0\t31\r\n' >"$TMP/crlf.tsv"
run "$TP_REPORT" --floors="$TMP/crlf.tsv" "$TMP/a.log" "$TMP/a.log"
[ $rc -eq 0 ] && [ ! -s "$TMP/err" ]
pass $? "--floors: CRLF line ends accepted"
diag "$TMP/err"

done_testing
