#!/bin/sh
# SPDX-License-Identifier: MIT
# Pairs of identical host runs for the report's noise model
# (docs/comparing.md, "The noise model"): PAIRS pairs of
#   timeprobe run --probes=clocks,yield,switch --profile=quick
# the two runs of a pair GAP seconds apart, pair STRESS with
# `stress-ng --cpu 1` running beside both of its runs (0: none). Each run
# is written to OUTDIR/PREFIX-N-a.log and -b.log with its run record's
# kernel command line replaced by "console=ttyS0 quiet" (it names the
# host's own boot; no other line is touched, so every other record keeps
# its CRC as written). tests/data/aa-host*-*.log were made this way
# (kept packed: tests/data/README.md).
# With MODE=appliance, each run is a boot of the appliance image in QEMU
# (tools/qemu-run.sh: TCG here, KVM where it works) with the same probes and
# profile, its serial log kept as it is (tests/data/aa-tcg-*.log).
#
#   tools/aa-pairs.sh OUTDIR [PAIRS [STRESS [PREFIX]]]
#   environment: TIMEPROBE=build/timeprobe, GAP=60, MODE=host|appliance,
#   PROBES=clocks,yield,switch (make noise-floor: every probe the comparison judges)
set -eu

out=${1:?usage: aa-pairs.sh OUTDIR [PAIRS [STRESS [PREFIX]]]}
pairs=${2:-5}
stress=${3:-0}
prefix=${4:-aa-host}
gap=${GAP:-60}
bin=${TIMEPROBE:-build/timeprobe}
mode=${MODE:-host}
here=$(dirname "$0")
probes=${PROBES:-clocks,yield,switch}
case $probes in *[!a-z0-9,-]*) echo "aa-pairs.sh: PROBES: a comma-separated list of probe names" >&2; exit 2 ;; esac

for n in "$pairs" "$stress" "$gap"; do
	case $n in '' | *[!0-9]*) echo "aa-pairs.sh: not a number: '$n'" >&2; exit 2 ;; esac
done
case $prefix in '' | *[!A-Za-z0-9_-]*) echo "aa-pairs.sh: PREFIX: letters, digits, - and _ only" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "aa-pairs.sh: $bin not built (make build/timeprobe)" >&2; exit 2; }
[ "$stress" = 0 ] || command -v stress-ng >/dev/null ||
	{ echo "aa-pairs.sh: pair $stress wants stress-ng (apt-get install stress-ng)" >&2; exit 2; }
case $mode in host | appliance) ;; *) echo "aa-pairs.sh: MODE is host or appliance: '$mode'" >&2; exit 2 ;; esac
mkdir -p -- "$out"
if [ "$mode" = appliance ]; then
	make -s build/timeprobe.img APPEND="timeprobe.probes=$probes timeprobe.profile=quick timeprobe.save=off"
	cp build/timeprobe.img "$out/aa-pairs.img"	# every boot of the same image
fi

# The run record's cmdline replaced; the file named in $1 rewritten in place.
scrub() {
	python3 - "$1" "$here/tp1rec.py" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("tp1rec", sys.argv[2])
tp1rec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tp1rec)
path = sys.argv[1]
with open(path, encoding="utf-8", newline="") as f:
    lines = f.read().split("\n")
for i, line in enumerate(lines):
    recs, corrupt = tp1rec.parse_line(line)
    if len(recs) == 1 and not corrupt and recs[0].get("type") == "run":
        recs[0]["cmdline"] = "console=ttyS0 quiet"
        lines[i] = tp1rec.record_line(recs[0])
with open(path, "w", encoding="utf-8", newline="") as f:
    f.write("\n".join(lines))
PY
}

one() {	# pair side
	log=$out/$prefix-$1-$2.log
	if [ "$1" = "$stress" ]; then
		stress-ng --cpu 1 --timeout 60s >/dev/null 2>&1 &
		spid=$!
		sleep 2
	fi
	if [ "$mode" = appliance ]; then
		sh "$here/qemu-run.sh" --cpus 2 --log "$log" "$out/aa-pairs.img" >/dev/null 2>&1 || true
	else
		"$bin" run --probes=$probes --profile=quick >"$log" 2>/dev/null || true
	fi
	[ "$1" != "$stress" ] || { kill "$spid" 2>/dev/null || true; wait "$spid" 2>/dev/null || true; }
	[ "$mode" = appliance ] || scrub "$log"
	echo "$log"
}

i=1
while [ "$i" -le "$pairs" ]; do
	one "$i" a
	sleep "$gap"
	one "$i" b
	i=$((i + 1))
done
