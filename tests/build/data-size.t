#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/data within its budget (tests/data/README.md): the bytes of its files
# as stored, at most BUDGET, and every set of runs (aa-*, fresh-*: several
# alike logs) in an archive, SET.tar.xz, that tests/lib/testdata.sh
# extracts, not as plain logs. The biggest files are diagnostics.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

# The one place the budget is set: 6 MB, issue 51's cap.
BUDGET=6000000

bytes=$(find tests/data -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }')
[ "$bytes" -le "$BUDGET" ]
pass $? "tests/data holds $bytes bytes, within its budget of $BUDGET ($((bytes - BUDGET)))"
find tests/data -type f -printf '%s %f\n' | sort -rn | head -5 | sed 's/^/# /'

plain=$(cd tests/data && ls | grep -E '^(aa|fresh)-.*\.log$')
[ -z "$plain" ]
pass $? "no set of runs is stored as plain logs (sh tests/lib/testdata.sh pack SET)"
[ -z "$plain" ] || echo "$plain" | head -5 | sed 's/^/#   /'

# each archive whole (xz -t), so an extraction cannot stop half-way
n_arch=0
for a in tests/data/*.tar.xz; do
	[ -f "$a" ] || continue
	n_arch=$((n_arch + 1))
	xz -t "$a" || echo "# $a: not a whole xz file"
done >"${TMPDIR:-/tmp}/tp-data-size.$$" 2>&1
! grep -q . "${TMPDIR:-/tmp}/tp-data-size.$$"
pass $? "each of the $n_arch archives in tests/data is a whole xz file"
sed 's/^/# /' "${TMPDIR:-/tmp}/tp-data-size.$$" | head -5
rm -f "${TMPDIR:-/tmp}/tp-data-size.$$"
done_testing
