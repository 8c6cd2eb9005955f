#!/bin/sh
# SPDX-License-Identifier: MIT
# Probe drift's figures against what is independent of them, in one run
# each (docs/probes/drift.md, "Checked against"):
#  1. on this host, `timeprobe run --probes=drift` RUNS times: the TSC's rate
#     against each counter compared with the kernel's own figure
#     (`drift REF vs kernel`: kernel_ppm, and whether that comparison is
#     independent: false when CLOCK_MONOTONIC_RAW is the TSC);
#  2. with QEMU=1 (the default), the appliance image booted once with only
#     drift (tools/qemu-run.sh: TCG here, KVM where it works): the same,
#     and the HPET against the PM timer through the TSC's rate against each
#     (`drift hpet vs pmtimer`: counter_ppm, the TSC cancels).
# Prints every figure with its reference and independence, then the medians.
#   environment: TIMEPROBE=build/timeprobe RUNS=3 QEMU=1 QEMU_CPUS=2 OUT=<dir>
set -eu

BIN=${TIMEPROBE:-build/timeprobe}
RUNS=${RUNS:-3}
QEMU=${QEMU:-1}
QEMU_CPUS=${QEMU_CPUS:-2}
here=$(dirname "$0")

case $RUNS in '' | *[!0-9]*) echo "drift-refs.sh: RUNS is not a number: '$RUNS'" >&2; exit 2 ;; esac
[ -x "$BIN" ] || { echo "drift-refs.sh: $BIN not built (make build/timeprobe)" >&2; exit 2; }
if [ -n "${OUT:-}" ]; then
	mkdir -p -- "$OUT"
	work=$OUT
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/tp-drift.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi

r=1
while [ "$r" -le "$RUNS" ]; do
	"$BIN" run --probes=drift --profile=quick > "$work/host.$r.log" 2>&1 || true
	r=$((r + 1))
done
if [ "$QEMU" = 1 ]; then
	make -s build/timeprobe.img APPEND="timeprobe.probes=drift timeprobe.profile=quick timeprobe.save=off"
	sh tools/qemu-run.sh --cpus "$QEMU_CPUS" --log "$work/appliance.1.log" build/timeprobe.img \
		> /dev/null 2>&1 || true
fi

python3 - "$here/../tp1rec.py" "$work" <<'PY'
import glob, importlib.util, os, statistics, sys
spec = importlib.util.spec_from_file_location("tp1rec", sys.argv[1])
tp1rec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tp1rec)
KEYS = ("kernel_ppm", "counter_ppm")
for side in ("host", "appliance"):
    seen = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[2], side + ".*.log"))):
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            recs, _ = tp1rec.records(f.read())
        for r in tp1rec.suite_records(recs):
            if r.get("type") != "result" or r.get("probe") != "drift":
                continue
            for k in KEYS:
                if isinstance(r.get(k), (int, float)):
                    key = (r["name"], k, r.get("reference"), r.get("independent"))
                    seen.setdefault(key, []).append(r[k])
    if not seen:
        print("== %s: no drift figures against a reference (see the logs)" % side)
        continue
    print("== %s: %-32s %-12s %-10s %-11s %s" % (side, "result", "figure", "reference",
                                                "independent", "ppm (median; runs)"))
    for (name, k, ref, ind), v in sorted(seen.items()):
        print("   %-38s %-12s %-10s %-11s %+.3f; %s" % (name, k, ref, ind, statistics.median(v),
              " ".join("%+.3f" % x for x in v)))
PY
