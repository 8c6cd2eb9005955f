# SPDX-License-Identifier: MIT
# Shared by the tests/report/*.t scripts: where tp-report is, a scratch folder
# and helpers; TAP output from tests/lib/tap.sh.
# Sourced, not run. Tests run from the top of the repository.

cd "$(dirname "$0")/../.." || exit 1
TP_REPORT=${TP_REPORT:-${B:-build}/tp-report}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tp-report-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
. tests/lib/tap.sh

if [ ! -x "$TP_REPORT" ]; then
	echo "1..0 # SKIP $TP_REPORT not built (make report)"
	exit 0
fi

# run NAME: runs the rest of the arguments, keeps stdout, stderr and status
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# tp1 JSON...: each JSON text framed as a record line (tools/tp1rec.py, the
# one Python writer: the text as it is, its CRC)
tp1() {
	python3 tools/tp1rec.py frame "$@"
}

# diag FILE: shows a file as TAP comments, for a failure's context
diag() {
	sed -n '1,40s/^/# /p' "$1"
}


# lead FILE...: the lead of a comparison ("Figures furthest from ..."), its
# table or its one line without the heading and the noise note, into
# $TMP/lead; the note ("  (noise: ...)") into $TMP/lead-note
lead() {
	run "$TP_REPORT" "$@"
	sed -n '/^Figures furthest/,/^$/p' "$TMP/out" | sed '1d;/^$/d' >"$TMP/lead-all"
	# the notes under the table, each wrapped at 120 columns (continued after four spaces):
	# one line each again
	awk '/^  \((how|detectable|cannot|not comparable|no floor|both runs|the runs booted|maxima by)/ {
		if (n) print l; n = 1; l = $0; next }
	     /^    / && n { sub(/^    /, ""); l = l " " $0; next }
	     { if (n) print l; n = 0 } END { if (n) print l }' "$TMP/lead-all" >"$TMP/lead-note"
	awk '/^  \((how|detectable|cannot|not comparable|no floor|both runs|the runs booted|maxima by)/ { n = 1; next }
	     /^    / && n { next } { n = 0; print }' "$TMP/lead-all" >"$TMP/lead"
}
