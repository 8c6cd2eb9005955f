#!/bin/sh
# SPDX-License-Identifier: MIT
# make deb: the Debian packages (debian/), built by dpkg-buildpackage in a
# copy of the tree as a fresh clone or a source tarball has it (dh's clean
# would remove build/ here), and left in OUT with their .changes and
# .buildinfo. The copy is not a git checkout: the programs carry
# debian/changelog's version (tools/version.sh).
#
#   tools/mkdeb.sh OUT [dpkg-buildpackage options...]
set -eu
cd "$(dirname "$0")/.."
out=$1
shift
ver=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' debian/changelog)
src=$out/timeprobe-$ver
rm -rf "$src" "$out"/timeprobe*_*
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z -c -o --exclude-standard | xargs -0 cp --parents -t "$src"
else
	find . -path ./build -prune -o -type f -print0 | xargs -0 cp --parents -t "$src"
fi
# -j: debian/rules calls make itself, which takes MAKEFLAGS
(cd "$src" && nice -n 10 dpkg-buildpackage -b -us -uc -j"${DEB_JOBS:-2}" "$@")
ls "$out"/*.deb
