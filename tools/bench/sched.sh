#!/bin/sh
# SPDX-License-Identifier: MIT
# Side-by-side benchmarks for the scheduler probes (`make bench`):
#  1. our `yield` at 2 threads against the seed's threads.c (seed 004, lkml
#     1999), with sched_yield() put in the place of its syscall(158), which is
#     sched_yield only on i386 (arch_prctl on x86-64). The seed is extracted
#     from the stored lkml page and built in a temporary directory, never in
#     the tree.
#  2. our `switch` pipe round trip against `perf bench sched pipe` (Debian
#     linux-perf), or against a plain pipe ping-pong built here when perf is
#     missing or cannot run.
# Prints the figures and the ratios ours / reference; docs/benchmarks/sched.md
# records what was measured. Environment:
#   TIMEPROBE=build/timeprobe   SEED=/work/shared/seeds/004_2eda96b8d5a22614.txt
#   SEED_SECS=5 (the seed times with time(2): whole seconds)
#   PERF_LOOPS=100000   PERF=perf (PERF=none: use the plain reference loop)
#   ROUNDS=3 (each comparison alternates the two tools ROUNDS times and
#             compares medians: a shared host's load moves single runs a lot)
set -eu

BIN=${TIMEPROBE:-build/timeprobe}
SEED=${SEED:-/work/shared/seeds/004_2eda96b8d5a22614.txt}
SEED_SECS=${SEED_SECS:-5}
PERF_LOOPS=${PERF_LOOPS:-100000}
ROUNDS=${ROUNDS:-3}
PERF=${PERF:-perf}
CC=${CC:-gcc}

[ -x "$BIN" ] || { echo "sched.sh: $BIN not built (make build/timeprobe)" >&2; exit 1; }
[ -r "$SEED" ] || { echo "sched.sh: seed $SEED not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "sched.sh: needs python3" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-sched.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Prints FIELD of the result record NAME of PROBE from timeprobe's output on stdin.
field() {
	python3 -c '
import json, sys, zlib
probe, name, key = sys.argv[1:4]
for line in sys.stdin:
    if not line.startswith("TP1 "):
        continue
    body, _, crc = line[4:].rstrip("\n").rpartition(" *")
    if "%08x" % zlib.crc32(body.encode()) != crc:
        continue
    r = json.loads(body)
    if r.get("type") == "result" and r.get("probe") == probe and r.get("name") == name:
        print(r[key])
        break
' "$@"
}

# Median of the numbers given as arguments.
med() {
	python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"
}

ratio() {
	python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print("%.2f" % (a / b) if b else "n/a")' "$1" "$2"
}

echo "== host: $(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"

# ---- 1. yield vs the seed's threads.c ----
# The program is the attachment after the mail: from the "/*" that opens
# "Tester for the kernel's speed" to the line "\" lkml.org puts after it.
awk '
	/^Tester for the kernel.s speed/ { on = 1; print "/*" }
	on && /^\\$/ { exit }
	on { print }
' "$SEED" > "$work/threads.c"
grep -q 'syscall(158)' "$work/threads.c" || { echo "sched.sh: could not extract threads.c from $SEED" >&2; exit 1; }
# The only change to what it measures: sched_yield() for syscall(158). The
# rest makes it compile as C99 (implicit int, missing prototypes).
sed -i -e 's/syscall(158);/sched_yield();/' \
	-e 's/^volatile actthreads/volatile int actthreads/' \
	-e 's/^main(int argc/int main(int argc/' \
	-e '1i #include <sched.h>\n#include <stdlib.h>' "$work/threads.c"
grep -q 'sched_yield();' "$work/threads.c" && ! grep -q 'syscall(158)' "$work/threads.c" ||
	{ echo "sched.sh: patching threads.c failed" >&2; exit 1; }
# the seed's own command line, warnings off (it is 1999 C)
$CC -O2 -fomit-frame-pointer -w -o "$work/threads" "$work/threads.c" -lpthread

seed_all= ours_all= var_all= seed_var_all=
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	seed_line=$("$work/threads" 2 "$SEED_SECS" 2>/dev/null)
	seed_all="$seed_all $(echo "$seed_line" | awk '{ print $2 }')"
	seed_var_all="$seed_var_all $(echo "$seed_line" | awk '{ print $5 }')"
	ours=$("$BIN" run --probes=yield --profile=full --threads=2)
	ours_all="$ours_all $(echo "$ours" | field yield "2 threads" total_per_s)"
	var_all="$var_all $(echo "$ours" | field yield "2 threads" normalized_variance)"
done
seed_total=$(med $seed_all)
ours_total=$(med $ours_all)
echo
echo "== yield, 2 threads: sched_yield() calls per second, all threads; median of $ROUNDS alternating runs"
printf '%-30s %12s %12s  %-26s %s\n' "tool" "total/s" "norm.var" "window" "each run (total/s)"
printf '%-30s %12.0f %12.6f  %-26s %s\n' "threads.c (seed, sched_yield)" "$seed_total" "$(med $seed_var_all)" \
	"${SEED_SECS} s by time(2)" "$seed_all"
printf '%-30s %12.0f %12.6f  %-26s %s\n' "timeprobe yield" "$ours_total" "$(med $var_all)" \
	"3 s CLOCK_MONOTONIC" "$ours_all"
echo "ratio timeprobe / seed: $(ratio "$ours_total" "$seed_total")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- 2. switch vs perf bench sched pipe ----
perf_ok=
if [ "$PERF" = perf ] && ! command -v perf >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-perf >/dev/null 2>&1 || true
fi
if command -v "$PERF" >/dev/null 2>&1 && "$PERF" bench sched pipe -l 1000 >/dev/null 2>&1; then
	perf_ok=1
fi

# usecs per round trip from perf's output ("   14.059 usecs/op")
perf_us() {
	"$@" 2>&1 | awk '/usecs\/op/ { print $1 }'
}

if [ -z "$perf_ok" ]; then
	# A plain reference: the same loop as perf's sched-pipe.c worker
	# (write an int, read it back), two processes.
	cat > "$work/pingpong.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int a[2], b[2], v = 0;
	struct timespec t0, t1;
	if (pipe(a) || pipe(b))
		return 1;
	if (fork() == 0) {
		for (long i = 0; i < n; i++)
			if (read(a[0], &v, sizeof(v)) != sizeof(v) || write(b[1], &v, sizeof(v)) != sizeof(v))
				_exit(1);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		if (write(a[1], &v, sizeof(v)) != sizeof(v) || read(b[0], &v, sizeof(v)) != sizeof(v))
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%12.3f usecs/op\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n);
	return 0;
}
C
	$CC -O2 -o "$work/pingpong" "$work/pingpong.c"
	ref="plain pipe ping-pong (perf unavailable)"
else
	ref="perf bench sched pipe -l $PERF_LOOPS"
fi
a= b= c= d= e= f=
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	if [ -z "$perf_ok" ]; then
		a="$a $(perf_us taskset -c 0 "$work/pingpong" "$PERF_LOOPS")"
		c="$c $(perf_us "$work/pingpong" "$PERF_LOOPS")"
	else
		a="$a $(perf_us taskset -c 0 "$PERF" bench sched pipe -l "$PERF_LOOPS")"
		b="$b $(perf_us taskset -c 0 "$PERF" bench sched pipe -T -l "$PERF_LOOPS")"
		c="$c $(perf_us "$PERF" bench sched pipe -l "$PERF_LOOPS")"
	fi
	sw=$("$BIN" run --probes=switch --profile=full)
	d="$d $(echo "$sw" | field switch pipe-process-same-cpu us_per_round_trip)"
	e="$e $(echo "$sw" | field switch pipe-thread-same-cpu us_per_round_trip)"
	f="$f $(echo "$sw" | field switch pipe-process-cross-cpu us_per_round_trip)"
done
ref_same=$(med $a)
ref_same_t=$([ -n "$b" ] && med $b || true)
ref_free=$(med $c)
us_pp_same=$(med $d)
us_pt_same=$(med $e)
us_pp_cross=$(echo $f | grep -q . && med $f || true)

echo
echo "== switch, pipe round trip (us; a round trip is two switches)"
echo "reference: $ref; median of $ROUNDS alternating runs"
printf '%-44s %12s %12s %8s\n' "case" "timeprobe" "reference" "ratio"
printf '%-44s %12.2f %12.2f %8s\n' "processes, same CPU (taskset -c 0)" "$us_pp_same" "$ref_same" "$(ratio "$us_pp_same" "$ref_same")"
[ -n "$ref_same_t" ] &&
	printf '%-44s %12.2f %12.2f %8s\n' "threads, same CPU (perf -T, taskset -c 0)" "$us_pt_same" "$ref_same_t" "$(ratio "$us_pt_same" "$ref_same_t")"
if [ -n "$us_pp_cross" ]; then
	printf '%-44s %12.2f %12.2f %8s\n' "processes, ours cross-CPU / ref unpinned" "$us_pp_cross" "$ref_free" "$(ratio "$us_pp_cross" "$ref_free")"
fi
echo "each run, ours:   same-CPU processes$d; threads$e; cross-CPU processes$f"
echo "each run, ref:    same-CPU processes$a; threads${b:- -}; unpinned$c"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "timeprobe switch table (last run):"
echo "$sw" | grep -v '^TP1 ' | sed -n '/^variant/,/^ context/p'
