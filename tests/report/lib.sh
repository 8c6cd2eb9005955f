# SPDX-License-Identifier: MIT
# Shared by the tests/report/*.t scripts: TAP output and where tp-report is.
# Sourced, not run. Tests run from the top of the repository.

cd "$(dirname "$0")/../.." || exit 1
TP_REPORT=${TP_REPORT:-${B:-build}/tp-report}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tp-report-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
n=0
failed=0

if [ ! -x "$TP_REPORT" ]; then
	echo "1..0 # SKIP $TP_REPORT not built (make report)"
	exit 0
fi

ok() {	# ok CONDITION-EXIT-STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# run NAME: runs the rest of the arguments, keeps stdout, stderr and status
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# diag FILE: shows a file as TAP comments, for a failure's context
diag() {
	sed -n '1,40s/^/# /p' "$1"
}

done_testing() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit $?
}
