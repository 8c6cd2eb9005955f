#!/bin/sh
# SPDX-License-Identifier: MIT
# make test's one test run: every unit test and .t file named, under prove.
#
#   tools/prove-all.sh FILE...
#
# A .t file that measures timing, or whose results a test running beside it
# could disturb, says so with a line starting "# timing:" (and why); one that
# rewrites what other tests read (the build's own outputs), with "# alone:".
# Those run alone, one after another, after the rest. Of the others, the
# boot tests (tests/boot/) run CPUS at a time (PROVE_BOOT_JOBS overrides),
# and beside them the rest run CPUS at a time too, CPUS being PROVE_JOBS or
# else nproc: a boot test's guest under TCG keeps about one CPU busy on
# average, whatever its vCPUs, much of it waiting on its own timers and the
# firmware's (prove --timer at load 10 to 16, CPU over wall: 10-q35.t 56 s
# / 210 s, 63-cmdline-file.t 164 / 339, 30-hpet-off.t 96 / 73), so one
# guest per CPU fills the CPUs a guest per two CPUs left idle; and the
# rest one at a time, as before, ran on alone for 83 s with a CPU idle
# after the boot tests were done (a fresh .ci/run: boot 399 s, rest 482 s
# wall, 472 and 275 s of CPU). None of these measures time (those run
# alone, below), so sharing the CPUs costs them nothing but wall time.
# Each set runs longest first, by
# tests/prove-times.txt (SECONDS FILE a line, a past run's times; the files
# it does not name after those, in the order given); this run's times go
# to build/prove-times.txt when build/ exists, to refresh it. The boot
# tests' output is shown as they end, the rest's once they all have. Every
# file's wall and CPU time is printed (prove --timer), the slowest ten at
# the end, then one summary for the whole run:
#
#   prove-all: N files (B boot tests, -jJ; R others, -jK; A alone), T tests in S s: N passed, 0 failed
#   prove-all: N passed, 0 failed
#   All tests successful.
#   Result: PASS
#
# (FAIL, and no "All tests successful.", when a file failed; each part's own
# prove summary is printed as a "prove-all: PART: ..." line). Exit status 0
# only when every file passed.
set -u

[ $# -gt 0 ] || { echo "usage: tools/prove-all.sh FILE..." >&2; exit 2; }
jobs=${PROVE_JOBS:-$(nproc 2>/dev/null || echo 2)}
case $jobs in
'' | *[!0-9]* | 0) echo "prove-all: PROVE_JOBS=$jobs is not a count of jobs" >&2; exit 2 ;;
esac
t0=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-prove-all.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# The files that run alone: a .t with a "# timing:" or "# alone:" line.
: >"$tmp/alone"
: >"$tmp/boot"
: >"$tmp/rest"
for f in "$@"; do
	case $f in
	*.t) grep -Eq '^# (timing|alone):' "$f" && { echo "$f" >>"$tmp/alone"; continue; } ;;
	esac
	case $f in
	tests/boot/*.t | */tests/boot/*.t) echo "$f" >>"$tmp/boot" ;;
	*) echo "$f" >>"$tmp/rest" ;;
	esac
done
boot_jobs=${PROVE_BOOT_JOBS:-$jobs}
case $boot_jobs in '' | *[!0-9]* | 0) boot_jobs=$jobs ;; esac
rest_jobs=$jobs

# Each set longest first: the files tests/prove-times.txt names, by its
# seconds, then the others in the order given.
times_in=$(dirname "$0")/../tests/prove-times.txt
for name in alone boot rest; do
	[ -f "$times_in" ] || break
	awk 'NR == FNR { if ($1 ~ /^[0-9.]+$/) t[$NF] = $1; next }
		{ printf "%s\t%d\t%s\n", ($0 in t) ? t[$0] : -1, FNR, $0 }' "$times_in" "$tmp/$name" |
		sort -t "$(printf '\t')" -k1,1gr -k2,2n | cut -f3 >"$tmp/$name.sorted"
	mv "$tmp/$name.sorted" "$tmp/$name"
done

# part NAME PROVE-ARGS...: prove on the files of $tmp/NAME; its output to
# $tmp/NAME.out, its own summary lines renamed to this part's.
part() {
	name=$1
	shift
	[ -s "$tmp/$name" ] || return 0
	echo "prove-all: $name: $(wc -l <"$tmp/$name") files, prove $*"
	# shellcheck disable=SC2046 # one file name a line, none with a blank
	{ prove -v --timer "$@" $(cat "$tmp/$name"); echo $? >"$tmp/$name.rc"; } |
		sed -u -e "s/^Result: /prove-all: $name: result: /" \
			-e "s/^All tests successful\.\$/prove-all: $name: all tests successful./"
}
part rest -j "$rest_jobs" >"$tmp/rest.out" 2>&1 &
part boot -j "$boot_jobs" | tee "$tmp/boot.out"
wait
cat "$tmp/rest.out"
part alone | tee "$tmp/alone.out"

# Every file's time: its "[hh:mm:ss] FILE .." line, then its timer line,
# "ok N ms ( U usr S sys + CU cusr CS csys = C CPU)": wall and CPU seconds
# (the CPU time is what a loaded machine changes least).
cat "$tmp"/*.out 2>/dev/null | awk '
	/^\[[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\] / { f = $2 }
	/^ok +[0-9]+ ms/ && f != "" {
		cpu = "?"
		for (i = 3; i < NF; i++) if ($(i + 1) == "CPU)") cpu = sprintf("%.1f", $i)
		printf "%8.1f s %7s s CPU  %s\n", $2 / 1000, cpu, f; f = ""
	}
' | sort -rn >"$tmp/times"
echo "prove-all: the slowest ten files (wall, CPU of the file and its children):"
head -n 10 "$tmp/times"
[ ! -d build ] || cp "$tmp/times" build/prove-times.txt

# The counts: prove's "Files=N, Tests=M," and its summary's failed files.
cat "$tmp"/*.out 2>/dev/null | awk -v boot="$(wc -l <"$tmp/boot")" -v rest="$(wc -l <"$tmp/rest")" \
	-v alone="$(wc -l <"$tmp/alone")" -v bj="$boot_jobs" -v rj="$rest_jobs" -v secs="$(($(date +%s) - t0))" '
	/^Files=[0-9]+, Tests=[0-9]+,/ { split($1, a, "="); split($2, b, "="); files += a[2]; tests += b[2] + 0 }
	/^[^ ].* \(Wstat: [0-9]+.* Tests: [0-9]+ Failed: [0-9]+\)$/ { failed++ }
	END {
		printf "prove-all: %d files (%d boot tests, -j%d; %d others, -j%d; %d alone), %d tests in %d s: %d passed, %d failed\n",
			files, boot, bj, rest, rj, alone, tests, secs, files - failed, failed
		printf "prove-all: %d passed, %d failed\n", files - failed, failed
	}'
for name in boot rest alone; do
	[ ! -s "$tmp/$name" ] || [ "$(cat "$tmp/$name.rc" 2>/dev/null)" = 0 ] || {
		echo "Result: FAIL"
		exit 1
	}
done
echo "All tests successful."
echo "Result: PASS"
