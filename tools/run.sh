#!/bin/sh
# SPDX-License-Identifier: MIT
# make run and make run-iso: build the disk image (or the ISO, IMAGE
# ending in .iso, booted as a CD-ROM) and boot it in QEMU (tools/qemu-run.sh).
#
#   tools/run.sh IMAGE MACHINE CPUS
#
# Environment: MAKE, the make that builds IMAGE (default make; the command
# line's variables reach it through MAKEFLAGS); PROFILE, quick, full or
# empty; APPEND, the words make adds to cmdline.txt; ACCEL (tools/accel.sh);
# FAIL_ON, tp-report --fail-on's levels for the run's status (after-run.sh).
# Under TCG the full profile takes minutes and measures the emulator: unless
# a profile was chosen (PROFILE, or timeprobe.profile= in APPEND), the image
# boots the quick one there and says so. The serial log goes to the terminal
# and to run-serial.log beside IMAGE; then tools/after-run.sh copies the
# results file into results/ and fails the run when a probe failed or the
# run did not end (an ISO saves nothing: its serial log is kept instead).
set -eu

[ $# -eq 3 ] || { echo "usage: tools/run.sh IMAGE MACHINE CPUS" >&2; exit 2; }
img=$1 machine=$2 cpus=$3
make=${MAKE:-make}
# make hands its jobserver to $(MAKE) lines only, not to a script: the
# make below runs its own for make -jN (else: "jobserver unavailable").
MAKEFLAGS=$(printf '%s\n' "${MAKEFLAGS-}" | sed 's/ --jobserver-auth=[^ ]*//')
profile=${PROFILE-} append=${APPEND-}

case $profile in
''|quick|full) ;;
*) echo "make run: PROFILE=$profile is not quick or full" >&2; exit 2 ;;
esac

accel=$(sh tools/accel.sh) || exit 1
accel=${accel%% *}
extra=
if [ -n "$profile" ]; then
	extra=timeprobe.profile=$profile
elif [ "$accel" = tcg ]; then
	case " $append" in
	*[[:space:]]timeprobe.profile=*) ;;
	*)
		extra=timeprobe.profile=quick
		echo "make run: QEMU runs under TCG here, so the quick profile (PROFILE=full for the full one)"
		;;
	esac
fi

# report too: README's next command after make run is `build/timeprobe report`
"$make" --no-print-directory "$img" report APPEND="$append${append:+${extra:+ }}$extra"
# FAIL_ON checked before the boot, by the tp-report that judges after it
if [ -n "${FAIL_ON-}" ] && ! "$(dirname "$img")/tp-report" --fail-on="$FAIL_ON" --version > /dev/null; then
	echo "make run: FAIL_ON=$FAIL_ON: give poor, fair or unsafe (or several, comma-separated)" >&2
	exit 2
fi
log=$(dirname "$img")/run-serial.log
st=$(mktemp "${TMPDIR:-/tmp}/timeprobe-run.XXXXXX")
trap 'rm -f "$st"' EXIT
{
	rc=0
	case $img in
	*.iso) ACCEL=$accel sh tools/qemu-run.sh --machine "$machine" --cpus "$cpus" --cdrom "$img" || rc=$? ;;
	*) ACCEL=$accel sh tools/qemu-run.sh --machine "$machine" --cpus "$cpus" "$img" || rc=$? ;;
	esac
	echo "$rc" > "$st"
} | tee "$log"
case $img in
*.iso) sh tools/after-run.sh "$(cat "$st")" "$log" ;;
*) sh tools/after-run.sh "$(cat "$st")" "$log" "$img" ;;
esac
