#!/bin/sh
# SPDX-License-Identifier: MIT
# alone: its `make run` rewrites build/image-words and copies the kernel into build/kernel (then puts image-words back), which boot tests read; run alone (tools/prove-all.sh)
# A mistyped word is refused before anything boots: `timeprobe check-words`
# reads a kernel line's words with the suite's own option table, each
# refused word in one line with a near name when there is one;
# tools/cmdline-flatten.sh runs it for every image the Makefile makes, so
# `make run APPEND=timeprobe.probes=wakup` stops before QEMU starts.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
tp=build/timeprobe
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-words.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
has() { grep -qF -- "$2" "$1" || { sed 's/^/# /' "$1"; return 1; }; }

"$tp" check-words "console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img timeprobe.probes=wakeup,clocks" \
	"timeprobe.profile=quick timeprobe.variant=base timeprobe.kconfig=hz:250,preempt:none,nohz:periodic" \
	"tsc_early_khz=2000000 panic=10" >"$tmp/out" 2>&1
pass $? "a good line: exit 0"
ok "and nothing said" test ! -s "$tmp/out"

"$tp" check-words "quiet timeprobe.probes=wakup timeprobe.wakeup-priority=120 timeprobe.wakup-cpu=0" \
	"timeprobe.tsc-calib-round=3 timeprobe.priority=20" >"$tmp/out" 2>&1
exits "four refused words: exit 2" 2 sh -c 'exit '$?
ok "the unknown probe named, with the probe meant" has "$tmp/out" \
	"timeprobe.probes=wakup: no such probe; did you mean wakeup? (see \`timeprobe list\`)"
ok "a value out of range says the range" has "$tmp/out" "timeprobe.wakeup-priority=120: out of range -1..99"
ok "an unknown option, with the option meant" has "$tmp/out" \
	"timeprobe.wakup-cpu=0: unknown option; did you mean wakeup-cpu?"
ok "a letter left out names the option meant" has "$tmp/out" \
	"timeprobe.tsc-calib-round=3: unknown option; did you mean tsc-calib-rounds?"
ok "an old spelling is said and taken" has "$tmp/out" "timeprobe.priority=20: priority is now wakeup-priority (taken)"
ok "one line a word" test "$(wc -l < "$tmp/out")" -eq 5

# A mistyped prefix (issue 49): the whole word refused, with the word meant;
# Linux's own words beginning with t are not taken for one.
"$tp" check-words "timeprob.profile=quick quiet tsc=reliable tp_printk trace_options=x threadirqs" \
	"timeprobe_profile=quick tmeprobe.probes=clocks thermal.off=1 tsx_async_abort=off" >"$tmp/out" 2>&1
exits "three mistyped prefixes: exit 2" 2 sh -c 'exit '$?
ok "timeprob.profile=quick: the word meant" has "$tmp/out" \
	"timeprobe: timeprob.profile=quick: a mistyped prefix; did you mean timeprobe.profile?"
ok "timeprobe_profile=quick: the word meant" has "$tmp/out" \
	"timeprobe_profile=quick: a mistyped prefix; did you mean timeprobe.profile?"
ok "tmeprobe.probes=clocks: the word meant" has "$tmp/out" \
	"tmeprobe.probes=clocks: a mistyped prefix; did you mean timeprobe.probes?"
ok "one line a mistyped word, none for Linux's" test "$(wc -l < "$tmp/out")" -eq 3

# The image scripts' one flattening checks the words it was given.
TIMEPROBE_CHECK=$tp sh tools/cmdline-flatten.sh tools/cmdline.txt "timeprobe.probes=wakup" >"$tmp/line" 2>"$tmp/err"
exits "cmdline-flatten with a refused word: exit 1" 1 sh -c 'exit '$?
ok "no line is written" test ! -s "$tmp/line"
ok "the suite's message reaches the person" has "$tmp/err" "did you mean wakeup?"
TIMEPROBE_CHECK=$tp sh tools/cmdline-flatten.sh tools/cmdline.txt "timeprob.profile=quick" >"$tmp/line" 2>"$tmp/err"
exits "cmdline-flatten with a mistyped prefix: exit 1" 1 sh -c 'exit '$?
ok "and the word meant" has "$tmp/err" "did you mean timeprobe.profile?"
TIMEPROBE_CHECK=$tp sh tools/cmdline-flatten.sh tools/cmdline.txt "timeprobe.probes=wakeup" >"$tmp/line" 2>"$tmp/err"
ok "cmdline-flatten with good words: the line" has "$tmp/line" "timeprobe.probes=wakeup"

# make run itself, with a QEMU that leaves a mark: refused before QEMU starts.
# make rewrites build/image-words for APPEND; it is put back as it was after.
if [ -f build/timeprobe.img ] && [ -f build/image-words ]; then
	mkdir "$tmp/bin"
	for q in qemu-system-x86_64 qemu-system-aarch64; do
		printf '#!/bin/sh\necho started >"%s/qemu"\nexit 1\n' "$tmp" >"$tmp/bin/$q"
		chmod +x "$tmp/bin/$q"
	done
	cp -p build/image-words "$tmp/image-words"
	# make_refuses WORD MESSAGE: make run APPEND=WORD fails with MESSAGE, QEMU never started
	make_refuses() {
		PATH="$tmp/bin:$PATH" ACCEL=tcg make --no-print-directory run APPEND="$1" >"$tmp/make" 2>&1
		rc=$?
		cp -p "$tmp/image-words" build/image-words
		[ "$rc" != 0 ]
		pass $? "make run APPEND=$1 fails (status $rc)"
		ok "with the suite's message" has "$tmp/make" "$2"
		ok "before QEMU started" test ! -e "$tmp/qemu"
	}
	make_refuses timeprobe.probes=wakup "timeprobe.probes=wakup: no such probe; did you mean wakeup?"
	make_refuses timeprob.profile=quick \
		"timeprob.profile=quick: a mistyped prefix; did you mean timeprobe.profile?"
else
	skip "make run APPEND=timeprobe.probes=wakup fails" "no build/timeprobe.img (make image)"
fi
done_testing
