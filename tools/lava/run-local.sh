#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a LAVA job (tools/lava/qemu.yaml unless JOB says) on this machine with LAVA's own dispatcher,
# without a LAVA server (docs/lava.md, make test-lava):
#
#   tools/lava/run-local.sh IMAGE OUTDIR [EXPECT [JOB]]
#
# JOB (default tools/lava/qemu.yaml) is copied with its image URL pointed at IMAGE (file://, no xz)
# and run by lava-run (Debian's lava-dispatcher; or LAVA_RUN="command") on
# the device dictionary tools/lava/qemu-device.yaml (TCG). EXPECT is pass
# (default: the job must finish correctly) or fail (an image with a failing
# probe: the job must end in the interactive block's TestError) or measure
# (qemu-measure.yaml on an image with timeprobe.lava: the job must finish
# correctly and its monitor record cases with a measurement). Then
# tools/lava/tp1-to-lava.py reads the dispatcher's log into
# OUTDIR/results.yaml. lava-run keeps its work files in
# /var/lib/lava/dispatcher/tmp: run it as root.
set -eu

img=$1 out=$2 expect=${3:-pass}
here=$(cd "$(dirname "$0")" && pwd)
job=${4:-$here/qemu.yaml}
LAVA_RUN=${LAVA_RUN:-lava-run}
py=/usr/bin/python3

[ -f "$img" ] || { echo "run-local: no image $img" >&2; exit 2; }
command -v ${LAVA_RUN%% *} >/dev/null || [ -x "${LAVA_RUN%% *}" ] ||
	{ echo "run-local: $LAVA_RUN missing (apt-get install lava-dispatcher, or LAVA_RUN=...)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
img=$(cd "$(dirname "$img")" && pwd)/$(basename "$img")

$py - "$job" "$img" "$out/job.yaml" <<'END'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
image = job["actions"][0]["deploy"]["images"]["timeprobe"]
image["url"] = "file://" + sys.argv[2]
image.pop("compression", None)
yaml.safe_dump(job, open(sys.argv[3], "w"), sort_keys=False)
END

status=0
$LAVA_RUN --job-id 1 --output-dir "$out/lava" --device "$here/qemu-device.yaml" "$out/job.yaml" \
	> "$out/lava-run.log" 2>&1 || status=$?
"$py" "$here/tp1-to-lava.py" --format yaml "$out/lava-run.log" > "$out/results.yaml" || true
cases=$(grep -c '"definition": "timeprobe' "$out/lava-run.log" || true)
echo "run-local: lava-run exited $status; the monitor made $cases test cases; log $out/lava-run.log"
grep -o '"error_msg": "[^"]*"' "$out/lava-run.log" | tail -n 1 || true

case $expect in
pass)	[ $status = 0 ] && grep -q '"msg": "Job finished correctly"' "$out/lava-run.log" && [ "$cases" -gt 0 ] ;;
fail)	[ $status != 0 ] && grep -q '"error_type": "Test"' "$out/lava-run.log" &&
		grep -q 'timeprobe reported failed probes' "$out/lava-run.log" ;;
measure)
	measured=$(grep -c '"definition": "timeprobe-figures".*"measurement"' "$out/lava-run.log" || true)
	echo "run-local: $measured test cases with a measurement"
	[ $status = 0 ] && grep -q '"msg": "Job finished correctly"' "$out/lava-run.log" &&
		[ "$measured" -gt 0 ] ;;
*)	echo "run-local: EXPECT is pass, fail or measure" >&2; exit 2 ;;
esac
