#!/bin/sh
# SPDX-License-Identifier: MIT
# Cost of tp-report as its input grows (`make bench`; docs/benchmarks.md,
# "report cost"): wall time, CPU time and peak RSS of the whole report on
#  1. PROBES results, each of its own probe (one run): per-probe work;
#  2. RECORDS results of four clocks results repeated over iterations (one
#     run): per-record work and what the model keeps of each record.
# tools/bench/report-data.py writes both (valid TP1 records, CRCs and all).
# Each is run ROUNDS times; prints the median and the range.
# Environment: TP_REPORT=build/tp-report PROBES=100000 RECORDS=1000000 ROUNDS=1
set -eu

BIN=${TP_REPORT:-build/tp-report}
PROBES=${PROBES:-100000}
RECORDS=${RECORDS:-1000000}
ROUNDS=${ROUNDS:-1}

[ -x "$BIN" ] || { echo "report-cost.sh: $BIN not built (make report)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "report-cost.sh: needs python3" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-report-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 tools/bench/report-data.py probes "$PROBES" "$work/probes.log"
python3 tools/bench/report-data.py records "$RECORDS" "$work/records.log"

# bench NAME ARGS...: ROUNDS runs of tp-report ARGS, each measured alone (wait4)
bench() {
	name=$1
	shift
	python3 - "$ROUNDS" "$name" "$BIN" "$@" <<'PY'
import os, subprocess, sys, time
rounds, name, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
wall, cpu, rss, err = [], [], [], b""
for _ in range(rounds):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall.append(time.monotonic() - t0)
    cpu.append(ru.ru_utime + ru.ru_stime)
    rss.append(ru.ru_maxrss / 1024)
def show(v, unit, fmt):
    v = sorted(v)
    return ("%s %s (%s-%s)" % (fmt, unit, fmt, fmt)) % (v[len(v) // 2], v[0], v[-1])
print("%-34s wall %s  cpu %s  peak RSS %s  %d round%s" % (
    name, show(wall, "s", "%.2f"), show(cpu, "s", "%.2f"), show(rss, "MB", "%.0f"),
    rounds, "" if rounds == 1 else "s"))
for line in err.decode(errors="replace").splitlines()[:1]:
    print("    stderr:", line)
PY
}

echo "tp-report: $BIN"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  cpus: $(nproc)"
echo "inputs: $(wc -c <"$work/probes.log") bytes ($PROBES probes), $(wc -c <"$work/records.log") bytes ($RECORDS records)"
bench "$PROBES distinct probes" "$work/probes.log"
bench "$RECORDS records, 4 results" "$work/records.log"
