#!/bin/sh
# SPDX-License-Identifier: MIT
# Side-by-side for probe clocks (docs/benchmarks/clocks.md): this probe's
# clock_gettime(CLOCK_MONOTONIC) through libc/vDSO against
#   - a plain reference loop (tiny C program, same libc, compiled into /tmp)
#   - stress-ng --vdso 1 --vdso-func clock_gettime --metrics (its
#     "nanosecs per call (excluding test overhead)")
# in one run, RUNS times, interleaved so all three see the same machine.
# Prints each run, the medians, the ratios and the run-to-run spread.
#
#   tools/bench/clocks.sh [RUNS]        environment: PROFILE=full|quick, CPU=N
set -eu

runs=${1:-5}
profile=${PROFILE:-full}
bin=${TIMEPROBE:-build/timeprobe}
tmp=${TMPDIR:-/tmp}/timeprobe-bench-clocks
cpu=${CPU:-$(($(nproc) - 1))}

[ -x "$bin" ] || { echo "clocks.sh: $bin not built (make build/timeprobe)" >&2; exit 2; }
if ! command -v stress-ng >/dev/null 2>&1; then
	apt-get install -y stress-ng >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y stress-ng >/dev/null; }
fi
mkdir -p "$tmp"

# The reference: the same call in a bare loop, timed around the whole loop,
# by the wall clock and by the thread's CPU time; then the same loop cut into
# 400 chunks of 2500 calls, timed each, and the median chunk. On a shared
# machine the wall figure also counts the time the loop was not running at
# all (preempted), the CPU-time figure the interrupts and the cache refills
# after preemptions; the chunk median, like the probe's median of batches,
# neither. Prints "WALL_NS CPU_NS CHUNK_MEDIAN_NS" per call.
cat > "$tmp/ref.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHUNKS 400
#define CHUNK_CALLS 2500

static double now(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	static double chunk[CHUNKS];
	struct timespec t;
	double w0, w1, c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &t);	/* resolve the vDSO first */
	w0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &t);
	c1 = now(CLOCK_THREAD_CPUTIME_ID);
	w1 = now(CLOCK_MONOTONIC);
	for (int k = 0; k < CHUNKS; k++) {
		double s = now(CLOCK_MONOTONIC);

		for (long i = 0; i < CHUNK_CALLS; i++)
			clock_gettime(CLOCK_MONOTONIC, &t);
		chunk[k] = (now(CLOCK_MONOTONIC) - s) / CHUNK_CALLS;
	}
	qsort(chunk, CHUNKS, sizeof(chunk[0]), cmp);
	printf("%.4f %.4f %.4f\n", (w1 - w0) / (double)n, (c1 - c0) / (double)n,
	       (chunk[CHUNKS / 2 - 1] + chunk[CHUNKS / 2]) / 2);
	return 0;
}
SRC
# same libc as build/timeprobe (musl, static), so the wrapper cost is the same
if command -v musl-gcc >/dev/null 2>&1; then
	musl-gcc -O2 -static -o "$tmp/ref" "$tmp/ref.c"
	reflibc=musl
else
	${CC:-cc} -O2 -o "$tmp/ref" "$tmp/ref.c"
	reflibc=system
fi

probe_ns() {
	taskset -c "$cpu" "$bin" run --probes=clocks --profile="$profile" > "$tmp/probe.out" 2>&1 || true
	PYTHONPATH="$(dirname "$0")/.." python3 - "$tmp/probe.out" <<'PY'
import sys
from tp1rec import records  # tools/tp1rec.py, the one TP1 reader
for r in records(open(sys.argv[1], errors="replace").read())[0]:
    if r.get("name") == "clock_gettime(CLOCK_MONOTONIC)" and r.get("path") in ("vdso", "libc"):
        print(r["ns_per_call"], r.get("ns_per_call_mean", "nan"), r["path"])
        break
PY
}

stress_ns() {
	taskset -c "$cpu" stress-ng --vdso 1 --vdso-func clock_gettime --metrics -t 3 > "$tmp/stress.out" 2>&1 || true
	# 0.15: "vdso  25.77 nanosecs per call (excluding test overhead)";
	# older: "vdso: 25.77 nanoseconds per call"
	sed -n 's/.*vdso:\{0,1\} *\([0-9.]*\) nanosec.* per call.*/\1/p' "$tmp/stress.out" | head -n 1
}

echo "clocks bench: $runs runs, probe profile $profile, CPU $cpu, reference loop libc $reflibc"
echo "$(stress-ng --version 2>/dev/null | head -n 1)"
printf '%4s %12s %12s %12s %12s %12s %12s\n' run "probe ns" "probe mean" "loop chunks" "loop cpu" "loop wall" "stress-ng"
: > "$tmp/all"
i=1
while [ "$i" -le "$runs" ]; do
	set -- $(probe_ns)
	p=${1:-nan} pm=${2:-nan} path=${3:-?}
	set -- $(taskset -c "$cpu" "$tmp/ref" 20000000)
	rw=$1 rc=$2 rk=$3
	s=$(stress_ns)
	s=${s:-nan}
	printf '%4d %12.2f %12.2f %12.2f %12.2f %12.2f %12.2f\n' "$i" "$p" "$pm" "$rk" "$rc" "$rw" "$s"
	echo "$p $pm $rk $rc $rw $s" >> "$tmp/all"
	i=$((i + 1))
done

python3 - "$tmp/all" "$path" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
cols = list(zip(*rows))
names = ["probe (%s)" % sys.argv[2], "probe, mean", "loop, chunk median",
         "loop, CPU time", "loop, wall", "stress-ng"]
med = [st.median(c) for c in cols]
print()
print("%-20s %10s %10s %10s %10s" % ("ns per call", "median", "min", "max", "spread %"))
for n, c, m in zip(names, cols, med):
    # spread: (max - min) / median over the runs
    print("%-20s %10.2f %10.2f %10.2f %10.1f" % (n, m, min(c), max(c), 100 * (max(c) - min(c)) / m))
print()
for i, n in enumerate(names[2:], 2):
    print("probe / %-18s %.3f" % (n + ":", med[0] / med[i]))
print("probe mean / loop, wall:    %.3f" % (med[1] / med[4]))
PY
