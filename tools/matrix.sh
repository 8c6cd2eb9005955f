#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds one appliance image per kernel variant, boots each in QEMU with the
# same options and writes one report comparing them (docs/variants.md).
#
#   tools/matrix.sh [--out DIR] [--append WORDS] [--machine M] [--cpus N]
#                   [--timeout S] VARIANT...
#
# VARIANT is a name from kernel/variants/ (hz100, nohz-full, ...), `base`
# (our fragment alone), or NAME=VMLINUZ: a prebuilt kernel (KERNEL_IMAGE=,
# e.g. a distribution's /boot/vmlinuz-*) labelled NAME, whose highlights are
# read from the config-* file beside it when there is one. For each one:
#   make image B=DIR/VARIANT KVARIANT=VARIANT APPEND=WORDS   (its own build)
#   tools/qemu-run.sh --log DIR/VARIANT.log DIR/VARIANT/timeprobe.img
# then
#   tp-report DIR/*.log --format=markdown --label=VARIANT,... > DIR/report.md
#   (and --plot=DIR/plots).
# Every image is built before the first boot, so a fragment that fails the
# kernel's option check stops the matrix before any QEMU time is spent, and
# the boots run close together under the same host load.
#
# Environment: MAKE (default make); TP_REPORT, the tp-report to use (default:
# `make report` and build/tp-report).
# Exit status: 0 when every variant booted to its `end` record and the
# report was written; 1 otherwise (the report is still written from the
# logs there are).
set -eu

out=build/matrix append=timeprobe.profile=quick machine=q35 cpus=2 timeout=1800
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--machine) machine=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "matrix: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: tools/matrix.sh [--out DIR] [--append WORDS] VARIANT..." >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
make=${MAKE:-make}
# make hands its jobserver to $(MAKE) lines only, not to a script: the
# make below runs its own for make -jN (else: "jobserver unavailable").
MAKEFLAGS=$(printf '%s\n' "${MAKEFLAGS-}" | sed 's/ --jobserver-auth=[^ ]*//')
report=${TP_REPORT:-}

# Names first, so a typo costs nothing.
for v in "$@"; do
	name=${v%%=*}
	case $name in
	*[!A-Za-z0-9_-]*|'') echo "matrix: bad variant name '$name'" >&2; exit 2 ;;
	esac
	if [ "$name" != "$v" ]; then
		[ -f "${v#*=}" ] || { echo "matrix: $name: no kernel image ${v#*=}" >&2; exit 2; }
	elif [ "$v" != base ] && [ ! -f "kernel/variants/$v.config" ]; then
		echo "matrix: unknown variant '$v'; known: base" \
			"$(cd kernel/variants && ls *.config | sed 's/\.config$//' | tr '\n' ' ')" \
			"or NAME=/path/to/vmlinuz" >&2
		exit 2
	fi
done

# Each variant is a make build folder (B=): make splits its names at blanks.
case $out in
*[[:space:]]*) echo "matrix: --out '$out': make cannot build in a folder whose name has a blank" >&2; exit 2 ;;
esac
mkdir -p "$out"
rm -f "$out/report.md"
for v in "$@"; do
	name=${v%%=*}
	echo "matrix: building $name in $out/$name"
	# make remakes the image when the kernel or the words (APPEND,
	# KVARIANT, QEMU_CPUS) change, so APPEND always reaches cmdline.txt.
	if [ "$name" != "$v" ]; then
		kimg=${v#*=}
		kcfg=$(dirname "$kimg")/config-$(basename "$kimg" | sed 's/^vmlinuz-//')
		words=$(sh tools/kconfig-words.sh "$kcfg" "$name" "$cpus" | sed "s/^timeprobe.variant=[^ ]* *//")
		$make --no-print-directory image B="$out/$name" KERNEL_IMAGE="$kimg" KVARIANT="$name" \
			APPEND="$words $append" QEMU_CPUS="$cpus"
		continue
	fi
	kv=$v
	[ "$v" = base ] && kv=
	$make --no-print-directory image B="$out/$v" KVARIANT="$kv" APPEND="$append" QEMU_CPUS="$cpus"
done
if [ -z "$report" ]; then
	$make --no-print-directory report
	report=build/tp-report
fi

failed=
labels=
for v in "$@"; do
	v=${v%%=*}
	log=$out/$v.log
	echo "matrix: booting $v ($machine, $cpus CPUs, log $log)"
	rm -f "$log"
	t0=$(date +%s)
	status=0
	sh tools/qemu-run.sh --machine "$machine" --cpus "$cpus" --timeout "$timeout" \
		--log "$log" "$out/$v/timeprobe.img" || status=$?
	echo "matrix: $v: QEMU exited with $status after $(( $(date +%s) - t0 )) s"
	if ! python3 tools/tp1rec.py last end "$log" >/dev/null 2>&1; then
		echo "matrix: $v: no end record in $log" >&2
		failed="$failed $v"
	fi
	labels=${labels:+$labels,}$v
done
# The logs become the arguments (a path stays one word whatever it holds).
for v in "$@"; do
	set -- "$@" "$out/${v%%=*}.log"
	shift
done

rm -rf "$out/plots"
if ! "$report" "$@" --format=markdown --plot="$out/plots" --label="$labels" > "$out/report.md.tmp"; then
	rm -f "$out/report.md.tmp"
	echo "matrix: tp-report failed" >&2
	exit 1
fi
mv "$out/report.md.tmp" "$out/report.md"
echo "matrix: report $out/report.md, plots $out/plots/"
if [ -n "$failed" ]; then
	echo "matrix: these variants did not finish their suite:$failed" >&2
	exit 1
fi
