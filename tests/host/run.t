#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/run.sh (make run) without QEMU: stand-ins for sh (answering for
# tools/accel.sh, recording tools/qemu-run.sh) and for make (recording its
# arguments) show which words the image gets and how QEMU is started.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-run.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# shellcheck disable=SC2016 # the stand-ins' own variables
{
	printf '#!/bin/sh\n'
	printf 'case $1 in\n'
	printf 'tools/accel.sh) [ "$FAKE_ACCEL" = fail ] && exit 1; echo "$FAKE_ACCEL" ;;\n'
	printf 'tools/qemu-run.sh) shift; echo "qemu ACCEL=$ACCEL $*" >>"%s/log"; cat "$FAKE_SERIAL"; exit "$FAKE_QEMU_STATUS" ;;\n' "$tmp"
	printf '*) exec /bin/sh "$@" ;;\nesac\n'
} >"$tmp/bin/sh"
printf '#!/bin/sh\necho "make $*" >>"%s/log"\n' "$tmp" >"$tmp/bin/make"
chmod +x "$tmp/bin/sh" "$tmp/bin/make"

# The serial log the QEMU stand-in prints (a run that ended well) and its status.
end_line() { python3 tools/tp1rec.py frame "{\"type\":\"end\",\"probes_ok\":1,\"probes_failed\":$1${2:+,\"options_refused\":$2}}"; }
end_line 0 > "$tmp/serial"
FAKE_SERIAL=$tmp/serial FAKE_QEMU_STATUS=0
export FAKE_SERIAL FAKE_QEMU_STATUS

# run ACCEL-ANSWER PROFILE APPEND: tools/run.sh's output; the stand-ins' log in $tmp/log
run() {
	rm -f "$tmp/log"
	env PATH="$tmp/bin:$PATH" FAKE_ACCEL="$1" PROFILE="$2" APPEND="$3" MAKE="$tmp/bin/make" \
		RESULTS_DIR="$tmp/results" /bin/sh tools/run.sh "${IMG:-build/t.img}" q35 2
}
logged() { grep -qxF "$1" "$tmp/log"; }
has() { case $1 in *"$2"*) return 0 ;; esac; return 1; }

out=$(run "tcg max" "" "" 2>&1)
ok "TCG, no profile: the quick one, said" has "$out" "so the quick profile"
ok "TCG, no profile: the image gets timeprobe.profile=quick" \
	logged "make --no-print-directory build/t.img report APPEND=timeprobe.profile=quick"
ok "QEMU starts under TCG" logged "qemu ACCEL=tcg --machine q35 --cpus 2 build/t.img"

run "tcg max" "" "timeprobe.probes=clocks timeprobe.profile=full" >/dev/null 2>&1
ok "TCG, a profile in APPEND: the words as given" \
	logged "make --no-print-directory build/t.img report APPEND=timeprobe.probes=clocks timeprobe.profile=full"

run "tcg max" full "a  'b" >/dev/null 2>&1
ok "PROFILE=full: added after APPEND, quotes and blanks kept" \
	logged "make --no-print-directory build/t.img report APPEND=a  'b timeprobe.profile=full"

run "kvm host" "" "" >/dev/null 2>&1
ok "KVM, no profile: no words added" logged "make --no-print-directory build/t.img report APPEND="
ok "QEMU starts under KVM" logged "qemu ACCEL=kvm --machine q35 --cpus 2 build/t.img"

out=$(run "tcg max" fast "" 2>&1)
rc=$?
[ "$rc" = 2 ] && [ ! -e "$tmp/log" ]
pass $? "PROFILE=fast: exit 2 (got $rc), neither make nor QEMU runs"
ok "PROFILE=fast: the message names it" has "$out" "PROFILE=fast is not quick or full"

run fail "" "" >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] && [ ! -e "$tmp/log" ]
pass $? "accel.sh fails: exit 1 (got $rc), no build, no boot"
# make run's exit status: from the serial log's end record (tools/after-run.sh)
IMG=$tmp/t.img
run "kvm host" "" "" >/dev/null 2>&1
pass $? "a run that ended with no failed probe: exit 0"
ok "the serial log kept beside the image" grep -q '"type":"end"' "$tmp/run-serial.log"
end_line 1 > "$tmp/serial"
out=$(run "kvm host" "" "" 2>&1)
rc=$?
[ "$rc" = 1 ]
pass $? "a probe failed: exit 1 (got $rc)"
ok "and says so" has "$out" "1 probe(s) failed"
printf 'timeprobe: probe tsc started, limit 30 s\n' > "$tmp/serial"
out=$(run "kvm host" "" "" 2>&1)
rc=$?
[ "$rc" = 1 ]
pass $? "no end record: exit 1 (got $rc)"
ok "and says the run did not end" has "$out" "the run did not end"
end_line 0 2 > "$tmp/serial"
out=$(run "kvm host" "" "" 2>&1)
rc=$?
[ "$rc" = 1 ]
pass $? "no probe failed but two options were refused: exit 1 (got $rc)"
ok "and says so" has "$out" "2 option(s) on the command line were refused"
end_line 0 0 > "$tmp/serial"
run "kvm host" "" "" >/dev/null 2>&1
pass $? "options_refused 0: exit 0"
end_line 0 > "$tmp/serial"
FAKE_QEMU_STATUS=125 run "kvm host" "" "" >/dev/null 2>&1
rc=$?
[ "$rc" = 125 ]
pass $? "QEMU's own failure (the watcher's 125) is the exit status (got $rc)"
done_testing
