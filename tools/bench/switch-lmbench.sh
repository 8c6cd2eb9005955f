#!/bin/sh
# SPDX-License-Identifier: MIT
# Side by side for probe switch's headline, lat_ctx_ns (docs/probes/switch.md):
# an lmbench-style program (tools/bench/lat_ctx_ref.c: lat_ctx's pipe
# overhead in one process, a ring of two processes through two pipes, switch
# = round trip / 2 - overhead, both pinned to one CPU), compiled into a
# temporary directory, against `timeprobe run --probes=switch` on the same
# CPU (the first of the affinity mask, where the probe pins its same-CPU
# variants), RUNS times, alternating which goes first. Prints each run, the
# medians and the ratios timeprobe / reference: lat_ctx_ns against the
# reference's switch, pipe_overhead_ns against its overhead, the round trip,
# and the half round trip (the probe's old ns_per_switch) against the
# reference's switch.
#
#   tools/bench/switch-lmbench.sh [RUNS]    environment: PROFILE=quick|full,
#   TIMEPROBE=build/timeprobe, CC=gcc, REF_ROUND_TRIPS=200, REF_REPS=51
set -eu

runs=${1:-9}
profile=${PROFILE:-quick}
bin=${TIMEPROBE:-build/timeprobe}
cc=${CC:-gcc}
ref_n=${REF_ROUND_TRIPS:-200}
ref_reps=${REF_REPS:-51}
here=$(dirname "$0")

case $runs in '' | *[!0-9]*) echo "switch-lmbench.sh: RUNS is not a number: '$runs'" >&2; exit 2 ;; esac
case $profile in quick | full) ;; *) echo "switch-lmbench.sh: PROFILE is not quick or full: '$profile'" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "switch-lmbench.sh: $bin not built (make build/timeprobe)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "switch-lmbench.sh: needs python3" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tp-switch-lmbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$cc" -O2 -o "$work/lat_ctx_ref" "$here/lat_ctx_ref.c"
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

echo "== host: $(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	if [ $((i % 2)) -eq 1 ]; then
		"$work/lat_ctx_ref" "$cpu" "$ref_n" "$ref_reps" >"$work/ref.$i"
		"$bin" run --probes=switch --profile="$profile" >"$work/ours.$i" 2>/dev/null
	else
		"$bin" run --probes=switch --profile="$profile" >"$work/ours.$i" 2>/dev/null
		"$work/lat_ctx_ref" "$cpu" "$ref_n" "$ref_reps" >"$work/ref.$i"
	fi
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$here/.." "$work" "$runs" "$profile" "$cpu" <<'PY'
import os, re, statistics, sys
sys.path.insert(0, sys.argv[1])
from tp1rec import records  # noqa: E402 (tools/tp1rec.py, the one TP1 reader)

work, runs, profile, cpu = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
REF = re.compile(r"^cpu=\d+ reps=\d+ round_trips=\d+ overhead_ns=([0-9.]+) "
                 r"round_trip_us=([0-9.]+) lat_ctx_ns=(-?[0-9.]+)$")


def ours(i, name):
    recs, _ = records(open(os.path.join(work, "ours.%d" % i)).read())
    for r in recs:
        if r.get("type") == "result" and r.get("probe") == "switch" and r.get("name") == name:
            return r
    sys.exit("switch-lmbench.sh: run %d: no %s record from timeprobe" % (i, name))


def ref(i):
    line = open(os.path.join(work, "ref.%d" % i)).read().strip()
    m = REF.match(line)
    if not m:
        sys.exit("switch-lmbench.sh: run %d: the reference printed '%s'" % (i, line[:200]))
    return {"overhead_ns": float(m.group(1)), "round_trip_us": float(m.group(2)),
            "lat_ctx_ns": float(m.group(3))}


rows = [  # (what, timeprobe's key, the reference's key)
    ("switch, lat_ctx's definition (ns)", "lat_ctx_ns", "lat_ctx_ns"),
    ("pipe write + read, no switch (ns)", "pipe_overhead_ns", "overhead_ns"),
    ("round trip (us)", "us_per_round_trip", "round_trip_us"),
    ("half round trip, pipe kept in (ns)", "ns_per_half_round_trip", "lat_ctx_ns"),
]
o = [ours(i, "pipe-process-same-cpu") for i in range(1, runs + 1)]
t = [ours(i, "pipe-thread-same-cpu") for i in range(1, runs + 1)]
f = [ref(i) for i in range(1, runs + 1)]
print()
print("== switch against an lmbench-style lat_ctx (two processes, pipes, CPU %s); "
      "timeprobe --profile=%s, pipe-process-same-cpu; median of %d runs" % (cpu, profile, runs))
print("%-38s %10s %10s %6s %6s  %s" % ("figure", "timeprobe", "reference", "ratio", "paired",
                                      "ratio in each run"))
for what, ok_, rk in rows:
    a = statistics.median(r[ok_] for r in o)
    b = statistics.median(r[rk] for r in f)
    each = [x[ok_] / y[rk] for x, y in zip(o, f) if y[rk]]
    print("%-38s %10.1f %10.1f %6s %6s  %s" % (what, a, b, "%.2f" % (a / b) if b else "n/a",
                                            "%.2f" % statistics.median(each) if each else "n/a",
                                            " ".join("%.2f" % x for x in each)))
print("(ratio: of the medians; paired: the median of the runs' ratios, each pair of runs")
print(" side by side under the same load)")
for name, lat in (("ratio", statistics.median(r["lat_ctx_ns"] for r in o)
                   / statistics.median(r["lat_ctx_ns"] for r in f)),
                  ("paired", statistics.median(x["lat_ctx_ns"] / y["lat_ctx_ns"] for x, y in zip(o, f)))):
    print("lat_ctx_ns / reference, %s: %.2f, %s ±20 %%"
          % (name, lat, "within" if abs(lat - 1) <= 0.2 else "outside"))
print("timeprobe's spread, run by run: lat_ctx_ns min..max %s"
      % " ".join("%.0f..%.0f" % (r["lat_ctx_ns_min"], r["lat_ctx_ns_max"]) for r in o))
print("timeprobe pipe-thread-same-cpu lat_ctx_ns, run by run: %s"
      % " ".join("%.0f" % r["lat_ctx_ns"] for r in t))
PY
