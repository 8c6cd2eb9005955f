# SPDX-License-Identifier: MIT
# The TAP helper of every shell test script (sourced, not run); prove reads
# the output. C tests have tests/unit/tap.h, Python ones tests/lib/tp1.py.
#
#   ok NAME COMMAND...            passes when COMMAND succeeds
#   fails NAME COMMAND...         passes when COMMAND fails
#   exits NAME STATUS COMMAND...  passes when COMMAND exits with STATUS
#   pass STATUS NAME              passes when STATUS (a $?) is 0
#   skip NAME WHY                 a test not run here, counted as passed
#   done_testing                  the plan; exits 0 only if all passed
# A failure shows the first lines of the command's output as comments.
# Variables of its own start with tap_ (and n, failed: the counts).
n=0
failed=0

tap_result() {	# tap_result PASSED NAME [OUTPUT]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | head -5 | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

ok() {
	tap_name=$1
	shift
	if tap_out=$("$@" 2>&1); then tap_result 1 "$tap_name"; else tap_result 0 "$tap_name" "$tap_out"; fi
}

fails() {
	tap_name=$1
	shift
	if tap_out=$("$@" 2>&1); then tap_result 0 "$tap_name (it succeeded)" "$tap_out"; else tap_result 1 "$tap_name"; fi
}

exits() {
	tap_name=$1 tap_want=$2
	shift 2
	tap_out=$("$@" 2>&1)
	tap_got=$?
	if [ "$tap_got" = "$tap_want" ]; then tap_result 1 "$tap_name"; else tap_result 0 "$tap_name (exit $tap_got, want $tap_want)" "$tap_out"; fi
}

pass() {
	if [ "$1" -eq 0 ]; then tap_result 1 "$2"; else tap_result 0 "$2"; fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

done_testing() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit $?
}
