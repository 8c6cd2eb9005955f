#!/bin/sh
# SPDX-License-Identifier: MIT
# make test's kernels built beside apt (tools/kernels-ahead.sh, started by
# `make deps-test`) must hit the very cache entries make's own kernel
# builds use, or a fresh machine builds each kernel twice: run through
# `make deps-test` into a scratch B, after make test has built and cached
# both kernels, each background build must find its kernel cached (its log
# says "kernel: cached", never "kernel: building") and copy out the same
# bytes as build/kernel/bzImage and build/arm64/kernel/bzImage. A build that
# starts instead is killed (its process group) and the test fails.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

for k in build/kernel/bzImage build/arm64/kernel/bzImage; do
	[ -f "$k" ] || { echo "1..0 # SKIP no $k (make test builds both kernels first)"; exit 0; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-ahead.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ok "make deps-test B=<scratch>: the packages there, both kernels started" \
	make -s --no-print-directory deps-test B="$tmp/b"
ahead=$tmp/b/ahead
# each log's verdict: cached, building (a different key) or not yet (up to 120 s)
for arch in x86 arm64; do
	log=$ahead/kernel-$arch.log
	verdict=
	i=0
	while [ -z "$verdict" ] && [ $i -lt 600 ]; do
		if grep -q '^kernel: cached ' "$log" 2>/dev/null && [ -f "$ahead/bzImage-$arch" ] &&
			! kill -0 "$(cat "$ahead/kernel-$arch.pid")" 2>/dev/null; then
			verdict=cached
		elif grep -q '^kernel: building\|^kernel: extracting' "$log" 2>/dev/null; then
			verdict=building
			kill -- "-$(cat "$ahead/kernel-$arch.pid")" 2>/dev/null
		else
			sleep 0.2
			i=$((i + 1))
		fi
	done
	[ "$verdict" = cached ]
	pass $? "$arch: the build beside apt found make's cached kernel ($(tail -n1 "$log" 2>/dev/null))"
done
ok "x86: the same bytes as build/kernel/bzImage" cmp "$ahead/bzImage-x86" build/kernel/bzImage
ok "arm64: the same bytes as build/arm64/kernel/bzImage" cmp "$ahead/bzImage-arm64" build/arm64/kernel/bzImage
done_testing
