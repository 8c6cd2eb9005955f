#!/bin/sh
# SPDX-License-Identifier: MIT
# The suite on this machine's own OS and in the appliance under QEMU, with
# the same options, and one report comparing them (docs/comparing.md).
#
#   tools/compare.sh [--out DIR] [--bin TIMEPROBE] [--machine M] [--cpus N]
#                    [--timeout S] IMAGE [NAME=VALUE...]
#
# Each NAME=VALUE is given to both sides (profile=quick under TCG and
# profile=full under KVM when none is named; every option whose default
# differs between the appliance and a host at the value `timeprobe list
# --compare` gives, so that the two sides' results line up): `timeprobe run --NAME=VALUE` on
# the host, timeprobe.NAME=VALUE on the appliance's command line (a copy of
# IMAGE with those words in \EFI\timeprobe\cmdline.txt, replacing the same
# names there). Writes into DIR (default build/compare):
#   host.log, appliance.log   the two runs' output (records and tables; the
#                             launcher's own lines first in appliance.log)
#   appliance.img             the disk booted (its results partition too; its
#                             results file is copied into results/, tools/after-run.sh)
#   cmdline.txt               the appliance's command line
#   report.txt                `timeprobe report` with labels host, appliance,
#                             under a header naming the options and how the
#                             appliance was run (TCG is said at the top)
#   plots/                    its charts, and index.html: the report and the
#                             charts on one page (--html)
# The appliance boots with tools/qemu-run.sh, so its accelerator choice
# (ACCEL=tcg|kvm, else KVM when /dev/kvm works) is the launcher's.
# Exit status: 0 with both runs complete and the report written, 1 when a
# run did not finish or the report failed (what there is is kept), 2 for
# bad usage.
set -eu

# Text with paths, device names and answers in it: printf, never echo (dash's
# echo turns \t or \b in a path into control characters).
say() {
	printf '%s\n' "$*"
}

out=build/compare bin= machine=q35 cpus=2 timeout=3600
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	--machine) machine=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	-*) printf 'compare: unknown option %s\n' "$1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { say "usage: tools/compare.sh [--out DIR] IMAGE [NAME=VALUE...]" >&2; exit 2; }
img=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
[ -n "$bin" ] || bin=$(dirname "$img")/timeprobe
[ -f "$img" ] || { say "compare: no image $img (make image)" >&2; exit 2; }
[ -x "$bin" ] || { say "compare: no $bin (make userland)" >&2; exit 2; }

# The words reach a kernel command line and an argv: plain names and values
# only, checked here rather than quoted (a space would split a word on the
# kernel's command line whatever the quoting).
host_args= appl_words= names=
add_word() {
	host_args="$host_args --$1=$2"
	appl_words="$appl_words timeprobe.$1=$2"
	names="$names $1"
}
# check_word NAME=VALUE: sets name and value, or exits 2 saying why.
check_word() {
	name=${1%%=*} value=${1#*=}
	case $1 in *=*) ;; *) name= ;; esac
	case $name in
	''|[!a-z]*|*[!a-z0-9_-]*)
		printf "compare: '%s' is not NAME=VALUE (NAME in a-z 0-9 _ -)\n" "$1" >&2; exit 2 ;;
	esac
	case $value in
	''|*[!A-Za-z0-9,._:+-]*)
		printf "compare: %s: value '%s' has characters other than A-Z a-z 0-9 , . _ : + -\n" \
			"$name" "$value" >&2; exit 2 ;;
	esac
}
for w in "$@"; do
	check_word "$w"
	add_word "$name" "$value"
done
words=$*

# Options whose defaults differ between the appliance and a host are part of
# a result's identity: both sides get one value, each option's own choice
# (`timeprobe list --compare`), unless named above.
for w in $("$bin" list --compare); do
	check_word "$w"
	case " $names " in *" $name "*) continue ;; esac
	add_word "$name" "$value"
	words="${words:+$words }$w"
done

# Without a profile, the one make run would choose: under TCG the full
# profile takes many minutes and measures the emulator, so quick there;
# full (the suite's own default) where QEMU runs under KVM.
case " $names " in
*" profile "*) ;;
*) profile=full
   choice=$(sh "$here/accel.sh") || exit 1
   if [ "${choice%% *}" = tcg ]; then
	profile=quick
	say "compare: QEMU runs under TCG here, so the quick profile (COMPARE_OPTS=profile=full for the full one)"
   fi
   add_word profile "$profile"
   words="${words:+$words }profile=$profile" ;;
esac

set -f		# words are split below, never globbed
export MTOOLS_SKIP_CHECK=1
ESP=@@1M	# tools/mkimage.sh places the ESP at 1 MiB

# A copy of IMAGE whose cmdline.txt holds its own words, without those the
# options replace, then ours: one line, made by tools/cmdline-flatten.sh as
# for every image.
appliance_image() {
	cp "$img" "$out/appliance.img.tmp"
	mtype -i "$out/appliance.img.tmp$ESP" ::/EFI/timeprobe/cmdline.txt > "$out/cmdline.txt" ||
		{ say "compare: $img has no \\EFI\\timeprobe\\cmdline.txt" >&2; exit 1; }
	for n in $names; do
		sh "$here/cmdline-flatten.sh" --drop "timeprobe.$n" "$out/cmdline.txt" > "$out/cmdline.tmp"
		mv "$out/cmdline.tmp" "$out/cmdline.txt"
	done
	sh "$here/cmdline-flatten.sh" "$out/cmdline.txt" $appl_words > "$out/cmdline.tmp"
	mv "$out/cmdline.tmp" "$out/cmdline.txt"
	mcopy -o -i "$out/appliance.img.tmp$ESP" "$out/cmdline.txt" ::/EFI/timeprobe/cmdline.txt
	mv "$out/appliance.img.tmp" "$out/appliance.img"
}

# heartbeat SIDE LOG PID: while PID runs, one line every 10 s (tests set
# COMPARE_HEARTBEAT_S shorter): how long the
# side has run and the last progress line its log holds ("[3/10] drift 0:10
# of ~0:12", userland/progress.c). A log is hostile text: printable
# characters only, cut. It wakes once in 10 s, so it costs the measured
# CPUs next to nothing.
heartbeat() {
	t=0 every=${COMPARE_HEARTBEAT_S:-10}
	while sleep "$every" && kill -0 "$3" 2>/dev/null; do
		t=$((t + every))
		last=$(grep -a -E '^(\[[0-9]+/[0-9]+\] |timeprobe: [0-9]+ probes?, )' "$2" 2>/dev/null |
			tail -n 1 | tr -cd '[:print:]' | cut -c1-100)
		printf 'compare: %s: %d:%02d, %s\n' "$1" $((t / 60)) $((t % 60)) \
			"${last:-starting (no progress line yet)}"
	done
}

run_host() {
	say "compare: host: $bin run$host_args > $out/host.log"
	status=0
	"$bin" run $host_args > "$out/host.log" 2>&1 &
	pid=$!
	heartbeat host "$out/host.log" "$pid" &
	beat=$!
	wait "$pid" || status=$?
	kill "$beat" 2>/dev/null || :
	case $status in
	0) say "compare: host: the run ended, every probe ran to its end" ;;
	1) say "compare: host: the run ended; a probe failed (the error records in $out/host.log say which)" ;;
	2) say "compare: the host refused the options:" >&2
	   grep -v '^TP1 ' "$out/host.log" | tail -n 3 >&2
	   exit 2 ;;
	*) say "compare: host: timeprobe exited with $status (see $out/host.log)" ;;
	esac
}

run_appliance() {
	say "compare: appliance: tools/qemu-run.sh ($machine, $cpus CPUs) with$appl_words, log $out/appliance.log"
	rm -f "$out/qemu-status"
	# The launcher's own lines (its accelerator choice, why it ended a
	# guest) are shown as they come, and go first in the log afterwards,
	# so the log says how it was made.
	{ sh "$here/qemu-run.sh" --machine "$machine" --cpus "$cpus" --timeout "$timeout" \
		--log "$out/appliance.log" "$out/appliance.img" 2>&1 || echo $? > "$out/qemu-status"; } |
		tee "$out/launcher.txt" >&2 &
	pid=$!
	heartbeat appliance "$out/appliance.log" "$pid" &
	beat=$!
	wait "$pid" || :
	kill "$beat" 2>/dev/null || :
	status=$(cat "$out/qemu-status" 2>/dev/null || echo 0)
	rm -f "$out/qemu-status"
	cat "$out/launcher.txt" "$out/appliance.log" > "$out/appliance.log.tmp" 2>/dev/null &&
		mv "$out/appliance.log.tmp" "$out/appliance.log"
	rm -f "$out/launcher.txt"
	case $status in
	0) say "compare: appliance: QEMU ended by itself" ;;
	*) say "compare: appliance: QEMU failed with status $status (see tools/qemu-run.sh)" ;;
	esac
	# its results file, kept in results/ (the end and failures are checked below)
	sh "$here/after-run.sh" "$status" "$out/appliance.log" "$out/appliance.img" 2>/dev/null || :
}

# One field of the last run record in a log ("" when absent), read by
# tools/tp1rec.py (CRC checked). Records are hostile text: the value is only
# compared and printed, never run.
run_field() {
	python3 "$here/tp1rec.py" last run "$1" "$2" 2>/dev/null | tr -cd '[:print:]' | cut -c1-120
}

# How QEMU ran the appliance: the launcher tells the appliance its choice
# (timeprobe.accel=ACCEL:CPU, an SMBIOS OEM string, tools/qemu-run.sh) and
# the run record repeats it as "accel".
accelerator() {
	case $(run_field accel "$out/appliance.log") in
	tcg:*) say tcg ;;
	kvm:*) say kvm ;;
	*) say unknown ;;
	esac
}

header() {
	accel=$(accelerator)
	say "timeprobe compare: this machine's OS (host) and the appliance in QEMU (appliance)"
	case $accel in
	tcg) say "UNDER TCG: QEMU emulated the appliance's CPU in software (no KVM), so the"
	     say "appliance's figures measure the emulator, not this hardware. This is not the"
	     say "full-OS-vs-minimal-OS comparison; run it where /dev/kvm works for that." ;;
	kvm) say "Under KVM: the same hardware under a full OS (host) and the minimal appliance." ;;
	*) say "QEMU's accelerator is unknown (no accel in the appliance's run record)." ;;
	esac
	say "options (both sides): ${words:-the defaults}"
	say "  host:      $bin run$host_args"
	say "  appliance: command line +$appl_words"
	say "host:      $(run_field kernel "$out/host.log"), $(run_field cpu_model "$out/host.log")"
	say "appliance: $(run_field kernel "$out/appliance.log"), $(run_field cpu_model "$out/appliance.log"), QEMU $machine, $cpus CPUs, $accel"
	echo
}

# Did the appliance get our words? Its run record repeats its command line.
check_words() {
	cl=" $(python3 "$here/tp1rec.py" last run cmdline "$out/appliance.log" 2>/dev/null)"
	for w in $appl_words; do
		case $cl in
		*" $w"*) ;;
		*) say "compare: the appliance's command line lacks $w" >&2; failed=1 ;;
		esac
	done
}

mkdir -p "$out"
rm -rf "$out/plots" "$out/report.txt" "$out/host.log" "$out/appliance.log"
appliance_image
run_host
run_appliance

failed=
for side in host appliance; do
	python3 "$here/tp1rec.py" last end "$out/$side.log" >/dev/null 2>&1 ||
		{ say "compare: $side: no end record in $out/$side.log (the run did not finish)" >&2; failed=1; }
done
check_words
header > "$out/report.txt.tmp"
if ! "$bin" report "$out/host.log" "$out/appliance.log" --label=host,appliance \
	>> "$out/report.txt.tmp" || ! "$bin" report "$out/host.log" "$out/appliance.log" \
	--label=host,appliance --html="$out/plots" > /dev/null; then
	say "compare: timeprobe report failed (above)" >&2
	failed=1
fi
mv "$out/report.txt.tmp" "$out/report.txt"
head -n 4 "$out/report.txt"
say "compare: report $out/report.txt, page $out/plots/index.html, logs $out/host.log $out/appliance.log"
[ -z "$failed" ]
