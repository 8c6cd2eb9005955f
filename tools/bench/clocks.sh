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

# The reference: the same call in a bare loop, timed around the whole loop.
cat > "$tmp/ref.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	struct timespec a, b, t;

	clock_gettime(CLOCK_MONOTONIC, &t);	/* resolve the vDSO first */
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &t);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.4f\n", ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n);
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
	python3 - "$tmp/probe.out" <<'PY'
import json, sys, zlib
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith("TP1 "):
        continue
    body, _, crc = line[4:].rstrip("\n").rpartition(" *")
    if "%08x" % zlib.crc32(body.encode()) != crc:
        continue
    r = json.loads(body)
    if r.get("name") == "clock_gettime(CLOCK_MONOTONIC)" and r.get("path") in ("vdso", "libc"):
        print(r["ns_per_call"], r["path"])
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
printf '%4s %14s %14s %14s\n' run "probe ns" "plain loop ns" "stress-ng ns"
: > "$tmp/all"
i=1
while [ "$i" -le "$runs" ]; do
	set -- $(probe_ns)
	p=${1:-nan} path=${2:-?}
	r=$(taskset -c "$cpu" "$tmp/ref" 20000000)
	s=$(stress_ns)
	s=${s:-nan}
	printf '%4d %14s %14s %14s\n' "$i" "$p" "$r" "$s"
	echo "$p $r $s" >> "$tmp/all"
	i=$((i + 1))
done

python3 - "$tmp/all" "$path" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
cols = list(zip(*rows))
names = ["probe (%s)" % sys.argv[2], "plain loop", "stress-ng"]
med = [st.median(c) for c in cols]
print()
print("%-18s %10s %10s %10s %12s" % ("", "median ns", "min ns", "max ns", "spread %"))
for n, c, m in zip(names, cols, med):
    # spread: (max - min) / median over the runs
    print("%-18s %10.2f %10.2f %10.2f %12.1f" % (n, m, min(c), max(c), 100 * (max(c) - min(c)) / m))
print()
print("probe / plain loop: %.3f" % (med[0] / med[1]))
print("probe / stress-ng:  %.3f" % (med[0] / med[2]))
PY
