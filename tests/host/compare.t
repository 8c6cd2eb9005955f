#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/compare.sh (make compare) refuses, before running anything, an
# option word that would not reach both sides intact: each becomes
# --NAME=VALUE in an argv and timeprobe.NAME=VALUE on a kernel command line,
# where a space, a quote or a glob would split or change it. The runs
# themselves are tests/boot/92-compare.t (make test-all).
set -u
. tests/lib/tap.sh
tmp=$(mktemp -d /tmp/tp-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/timeprobe.img"
printf '#!/bin/sh\necho "ran $*" > "%s/ran"\n' "$tmp" > "$tmp/timeprobe"
chmod +x "$tmp/timeprobe"

refuses() {	# refuses NAME EXPECTED-MESSAGE-PART WORD...
	name=$1 want=$2
	shift 2
	err=$(sh tools/compare.sh --out "$tmp/out" --bin "$tmp/timeprobe" "$tmp/timeprobe.img" "$@" 2>&1 >/dev/null)
	status=$?
	[ "$status" = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		printf '%s\n' "$err" | grep -qF -- "$want" && [ ! -e "$tmp/ran" ] && [ ! -e "$tmp/out" ]
	tap_result $((1 - $?)) "refuses $name (exit $status)" "$err"
}

refuses "a word without =" "'profile' is not NAME=VALUE" profile
refuses "an empty name" "'=quick' is not NAME=VALUE" =quick
refuses "an upper-case name" "'Profile=quick' is not NAME=VALUE" Profile=quick
refuses "a word that looks like an option" "'-x=1' is not NAME=VALUE" -x=1
refuses "an empty value" "profile: value ''" profile=
refuses "a space in a value" "probes: value 'clocks wakeup'" "probes=clocks wakeup"
refuses "a quote in a value" "probes: value 'a\"b'" 'probes=a"b'
refuses "a glob in a value" "probes: value '*'" 'probes=*'
refuses "a command substitution" "probes: value '\$(reboot)'" 'probes=$(reboot)'
refuses "a backslash" "probes: value 'a\\b'" 'probes=a\b'

err=$(sh tools/compare.sh --bin "$tmp/timeprobe" "$tmp/none.img" 2>&1 >/dev/null)
status=$?
case $status:$err in
2:*"no image"*) pass 0 "a missing image is named (exit 2)" ;;
*) pass 1 "a missing image is named (exit $status: $err)" ;;
esac
done_testing
