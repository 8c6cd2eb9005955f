#!/bin/sh
# SPDX-License-Identifier: MIT
# timing: checks the progress lines' times (0:02 to 0:04) of stand-ins that sleep; run alone (tools/prove-all.sh)
# tools/compare.sh (make compare) refuses, before running anything, an
# option word that would not reach both sides intact: each becomes
# --NAME=VALUE in an argv and timeprobe.NAME=VALUE on a kernel command line,
# where a space, a quote or a glob would split or change it. While the two
# sides run (stand-ins for timeprobe and tools/qemu-run.sh, each a few
# seconds), it says how far each has got, at a beat shortened for the test,
# and nothing of a failure when none happened. The real runs are
# tests/boot/92-compare.t (make test-all).
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
# Both sides running: stand-ins that take 4 beats each, write a progress
# line after the first and an end record at the end.
if [ -f build/timeprobe.img ]; then
	mkdir "$tmp/tools" "$tmp/res"
	for f in compare.sh cmdline-flatten.sh tp1rec.py after-run.sh results.py; do
		cp "tools/$f" "$tmp/tools/"
	done
	python3 tools/tp1rec.py frame '{"type":"run","cmdline":"console=ttyS0 timeprobe.profile=quick"}' \
		> "$tmp/run.rec"
	python3 tools/tp1rec.py frame '{"type":"end","probes_ok":2,"probes_failed":0}' > "$tmp/end.rec"
	cat > "$tmp/timeprobe" <<EOS
#!/bin/sh
case \$1 in list) exit 0 ;; report) echo "report: stand-in"; exit 0 ;; esac
cat "$tmp/run.rec"; sleep 1; echo "[1/2] clocks 0:01 of ~0:04" >&2; sleep 3; cat "$tmp/end.rec"
EOS
	cat > "$tmp/tools/qemu-run.sh" <<EOS
#!/bin/sh
while [ \$# -gt 1 ]; do [ "\$1" = --log ] && log=\$2; shift; done
echo "qemu-run: TCG here (stand-in)" >&2
cat "$tmp/run.rec" > "\$log"; sleep 1
echo "[1/2] wakeup 0:01 of ~0:04" >> "\$log"; sleep 3; cat "$tmp/end.rec" >> "\$log"
EOS
	chmod +x "$tmp/timeprobe"
	rm -f "$tmp/ran"
	COMPARE_HEARTBEAT_S=1 RESULTS_DIR=$tmp/res sh "$tmp/tools/compare.sh" --out "$tmp/both" \
		--bin "$tmp/timeprobe" build/timeprobe.img profile=quick > "$tmp/said" 2>&1
	pass $? "both sides ended, the report written: exit 0"
	sed 's/^/# /' "$tmp/said"
	ok "the host's progress is shown while it runs" grep -q '^compare: host: 0:0[2-4], \[1/2\] clocks' "$tmp/said"
	ok "the appliance's progress is shown while it runs" \
		grep -q '^compare: appliance: 0:0[2-4], \[1/2\] wakeup' "$tmp/said"
	ok "the launcher's line is shown" grep -q '^qemu-run: TCG here' "$tmp/said"
	ok "and goes first in the appliance's log" sh -c 'head -n 1 "$1" | grep -q "^qemu-run: TCG"' - \
		"$tmp/both/appliance.log"
	fails "no word of failure when nothing failed" grep -qi 'fail' "$tmp/said"
else
	skip "both sides running" "no build/timeprobe.img (make image)"
fi
done_testing
