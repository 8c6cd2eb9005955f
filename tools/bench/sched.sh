#!/bin/sh
# SPDX-License-Identifier: MIT
# Side-by-side benchmarks for the scheduler probes (`make bench`):
#  1. our `yield` at 2 and 10 threads, interleaved with the seed's threads.c
#     (seed 004, lkml 1999; sched_yield() put in the place of its
#     syscall(158), which is sched_yield only on i386, arch_prctl on x86-64)
#     and with a minimal reference written here with the seed's semantics
#     (one common window, counts only while a shared flag is up, padded
#     counters); then the same with the threads starved (STARVE=0: not).
#     Both programs are built in a temporary directory, never in the tree.
#  2. our `switch` pipe round trip against `perf bench sched pipe` (Debian
#     linux-perf), or against a plain pipe ping-pong built here when perf is
#     missing or cannot run.
# Prints the figures and the ratios ours / reference; docs/benchmarks/sched.md
# records what was measured. Environment:
#   TIMEPROBE=build/timeprobe   SEED=../shared/seeds/004_2eda96b8d5a22614.txt
#   SEED_SECS=5 (the seed times with time(2): whole seconds)
#   PERF_LOOPS=100000   PERF=perf (PERF=none: use the plain reference loop)
#   ROUNDS=3 (each comparison alternates the tools ROUNDS times and
#             compares medians: a shared host's load moves single runs a lot)
#   PARTS="yield switch" (which comparisons to run); IDLE=0 and STARVE=0
#             leave out yield's idle or starved case
#   YIELD_PROFILE=full (3 s windows; quick: 200 ms windows, the seed 1 s, so
#             more rounds fit and each pair of runs shares the same load)
set -eu

BIN=${TIMEPROBE:-build/timeprobe}
SEED=${SEED:-../shared/seeds/004_2eda96b8d5a22614.txt}
SEED_SECS=${SEED_SECS:-5}
PERF_LOOPS=${PERF_LOOPS:-100000}
ROUNDS=${ROUNDS:-3}
PERF=${PERF:-perf}
CC=${CC:-gcc}
PARTS=${PARTS:-yield switch}
YIELD_PROFILE=${YIELD_PROFILE:-full}

[ -x "$BIN" ] || { echo "sched.sh: $BIN not built (make build/timeprobe)" >&2; exit 1; }
[ -r "$SEED" ] || { echo "sched.sh: seed $SEED not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "sched.sh: needs python3" >&2; exit 1; }
work=$(mktemp -d /tmp/tp-sched.XXXXXX)
# hog: a CPU hog for the starvation case, killed on exit
hog=
trap 'if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; fi; rm -rf "$work"' EXIT

# Prints FIELD of the result record NAME of PROBE from timeprobe's output on stdin.
field() {
	PYTHONPATH="$(dirname "$0")/.." python3 -c '
import sys
from tp1rec import records  # tools/tp1rec.py, the one TP1 reader
probe, name, key = sys.argv[1:4]
for r in records(sys.stdin.read())[0]:
    if r.get("type") == "result" and r.get("probe") == probe and r.get("name") == name:
        print(r[key])
        break
' "$@"
}

# Median of the numbers given as arguments ("n/a" left out; "n/a" if none).
med() {
	python3 -c '
import statistics, sys
v = [float(x) for x in sys.argv[1:] if x != "n/a"]
print(statistics.median(v) if v else "n/a")' "$@"
}

ratio() {
	python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print("%.2f" % (a / b) if b else "n/a")' "$1" "$2"
}

echo "== host: $(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"

# want PART: is PART in $PARTS?
want() {
	case " $PARTS " in *" $1 "*) return 0 ;; esac
	return 1
}

# ---- 1. yield vs the seed's threads.c and a seed-semantics reference ----
if want yield; then
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

# A minimal reference with the seed's semantics and none of its defects:
# padded counters, sched_yield(), all threads started before one common
# window opens, a count taken only while the shared flag is up (before each
# yield), CLOCK_MONOTONIC around the window. Prints
# <threads> <total/s> <zero-work threads>.
cat > "$work/ref.c" <<'C'
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
struct pad { _Alignas(64) unsigned long long n; };
static atomic_int started, counting, stop;
static void *loop(void *arg)
{
	struct pad *p = arg;
	atomic_fetch_add(&started, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (atomic_load_explicit(&counting, memory_order_relaxed))
			p->n++;
		sched_yield();
	}
	return 0;
}
int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[1]) : 0, zero = 0;
	long ms = argc > 2 ? atol(argv[2]) : 0;
	struct pad *w = aligned_alloc(64, (size_t)(n > 0 ? n : 1) * sizeof(*w));
	pthread_t *t = calloc((size_t)(n > 0 ? n : 1), sizeof(*t));
	struct timespec t0, t1, d = { ms / 1000, ms % 1000 * 1000000 };
	unsigned long long total = 0;
	if (n < 1 || ms < 1 || !w || !t)
		return 2;
	memset(w, 0, (size_t)n * sizeof(*w));
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, loop, &w[i]))
			return 1;
	while (atomic_load(&started) < n)
		usleep(1000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	atomic_store(&counting, 1);
	nanosleep(&d, 0);
	atomic_store(&counting, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	atomic_store(&stop, 1);
	for (int i = 0; i < n; i++) {
		pthread_join(t[i], 0);
		total += w[i].n;
		zero += w[i].n == 0;
	}
	printf("%d %.0f %d\n", n, total / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9), zero);
	return 0;
}
C
$CC -O2 -o "$work/ref" "$work/ref.c" -lpthread

# yield_round N SEED_S REF_MS PROFILE [PREFIX...]: one interleaved round at
# N threads (seed for SEED_S s, reference for REF_MS ms, ours in PROFILE),
# run under PREFIX; appends to the per-N lists.
yield_round() {
	n=$1 seed_s=$2 ref_ms=$3 profile=$4
	shift 4
	seed_line=$("$@" "$work/threads" "$n" "$seed_s" 2>/dev/null)
	ref_line=$("$@" "$work/ref" "$n" "$ref_ms")
	ours=$("$@" "$BIN" run --probes=yield --profile="$profile" --yield-threads="$n")
	eval "seed_$n=\"\$seed_$n $(echo "$seed_line" | awk '{ print $2 }')\""
	eval "seedz_$n=\"\$seedz_$n $(echo "$seed_line" | awk '{ print $4 }')\""
	eval "ref_$n=\"\$ref_$n $(echo "$ref_line" | awk '{ print $2 }')\""
	eval "refz_$n=\"\$refz_$n $(echo "$ref_line" | awk '{ print $3 }')\""
	eval "ours_$n=\"\$ours_$n $(echo "$ours" | field yield "$n threads" total_per_s)\""
	eval "oursz_$n=\"\$oursz_$n $(echo "$ours" | field yield "$n threads" zero_work_threads)\""
	# the ratio within the round: the runs beside each other saw the same load
	eval "rat_$n=\"\$rat_$n $(ratio "$(echo "$ours" | field yield "$n threads" total_per_s)" \
		"$(echo "$ref_line" | awk '{ print $2 }')")\""
}

# yield_table TITLE SEED_S REF_MS OURS_WINDOW
yield_table() {
	title=$1 seed_s=$2 ref_ms=$3 ours_w=$4
	echo
	echo "== yield, $title: sched_yield() calls per second, all threads; median of $ROUNDS interleaved runs"
	printf '%-8s %-34s %12s %8s  %s\n' "threads" "tool" "total/s" "ours/x" "each run (total/s; zero-work threads)"
	for n in 2 10; do
		eval "s=\$seed_$n sz=\$seedz_$n r=\$ref_$n rz=\$refz_$n o=\$ours_$n oz=\$oursz_$n"
		printf '%-8s %-34s %12.0f %8s  %s;%s\n' "$n" "threads.c (seed, ${seed_s} s by time(2))" "$(med $s)" \
			"$(ratio "$(med $o)" "$(med $s)")" "$s" "$sz"
		printf '%-8s %-34s %12.0f %8s  %s;%s\n' "$n" "seed-semantics reference ($ref_ms ms)" "$(med $r)" \
			"$(ratio "$(med $o)" "$(med $r)")" "$r" "$rz"
		printf '%-8s %-34s %12.0f %8s  %s;%s\n' "$n" "timeprobe yield ($ours_w)" "$(med $o)" "1.00" "$o" "$oz"
		eval "q=\$rat_$n"
		echo "$n threads: ours / reference within each round:$q; median $(med $q)"
	done
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}

reset_lists() {
	for v in seed seedz ref refz ours oursz rat; do
		eval "${v}_2= ${v}_10="
	done
}

if [ "$YIELD_PROFILE" = quick ]; then
	y_seed=1 y_ms=200 y_win="200 ms"
else
	y_seed=$SEED_SECS y_ms=3000 y_win="3 s"
fi
if [ "${IDLE:-1}" = 1 ]; then
	reset_lists
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		for n in 2 10; do
			yield_round $n "$y_seed" "$y_ms" "$YIELD_PROFILE"
		done
	done
	yield_table "idle host" "$y_seed" "$y_ms" "$y_win"
fi

# Starved: every tool's threads on CPU 0 as SCHED_IDLE beside a busy loop
# of ordinary priority there. Each SCHED_IDLE turn is one yield back to
# the loop, a few turns a second, taken in turn by the threads: in a
# 200 ms window (ours quick, the reference 200 ms; the seed's shortest is
# 1 s) most threads get no turn, and each tool must count them zero-work.
# (In 3 s every thread gets its turn.) The throughput of a handful of calls
# is no comparison; the zero-work counts are.
if [ "${STARVE:-1}" = 1 ] && command -v chrt >/dev/null && command -v taskset >/dev/null; then
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	reset_lists
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		i=$((i + 1))
		for n in 2 10; do
			yield_round $n 1 200 quick taskset -c 0 chrt --idle 0
		done
	done
	kill "$hog"
	hog=
	yield_table "starved (taskset -c 0 chrt --idle 0, a busy loop on CPU 0)" 1 200 "200 ms"
fi
fi

# ---- 2. switch vs perf bench sched pipe ----
want switch || exit 0
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
echo "$sw" | grep -v '^TP1 ' | sed -n '/^variant/,/^ getrusage/p'
