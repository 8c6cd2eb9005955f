#!/bin/sh
# SPDX-License-Identifier: MIT
# README's options tables and `timeprobe help` come from the one table
# (common/words.c plus the probes' rows): README must equal what
# `timeprobe help markdown` prints, and a README whose table drifted must be
# caught. Fix a failure with `make readme-options`.
set -u
tp=build/timeprobe
. tests/lib/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sh tools/readme-options.sh $tp README.md > "$tmp/README.md"
ok "README's options tables equal \`timeprobe help markdown\`" cmp -s README.md "$tmp/README.md"
diff -u README.md "$tmp/README.md" | head -20 | sed 's/^/# /'

# The test itself can fail: a README with one default changed is caught.
sed 's/^| `repeat` | 1 |/| `repeat` | 2 |/' README.md > "$tmp/drift.md"
sh tools/readme-options.sh $tp "$tmp/drift.md" > "$tmp/fixed.md"
ok "a drifted README is detected" sh -c '! cmp -s "$1" "$2"' - "$tmp/drift.md" "$tmp/fixed.md"

# Every option `help` names is in README's table, and the other way round.
$tp help | sed -n 's/^  \([a-z][a-z_-]*\)  .*/\1/p' | sort > "$tmp/help"
sed -n 's/^| `\([a-z][a-z_-]*\)` |.*/\1/p' README.md | sort > "$tmp/readme"
ok "help and README list the same options ($(wc -l < "$tmp/help"))" cmp -s "$tmp/help" "$tmp/readme"
ok "the stub's own words are documented" grep -q '^| `calib_rounds` | 5 | 1..32 |' README.md
done_testing
